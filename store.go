package tally

import (
	"context"
	"errors"
	"strings"
	"time"
)

// Store keeps what the indexer folded: every file's state with its offset,
// and every session's Record. It is the core of the stores' contract
// (package store composes the whole of it from this and the small
// interfaces beside it: markers, the hooks' memory, tokens, pushed
// batches, task lists); store/sqlite (embedded, the default) and
// store/postgres (a team's database, shared by several processes)
// implement all of it, and store/storetest is the suite every
// implementation passes.
type Store interface {
	// FileMarks returns what the indexer keeps in memory of every saved
	// file: enough to tell whether it changed, not what it folded to.
	FileMarks(ctx context.Context) ([]FileMark, error)
	// File returns one file's saved state; none is CodeNotFound.
	File(ctx context.Context, path string) (*FileState, error)
	// SessionFiles returns the saved states of the files of a session
	// (none: an empty list).
	SessionFiles(ctx context.Context, session string) ([]*FileState, error)
	// Commit writes a batch in one transaction: either every file state,
	// its offset and the session records land, or none does. A crash in
	// the middle of a scan therefore resumes from a consistent point. An
	// error wrapping ErrStoreGone or ErrStoreReadOnly means no commit can
	// succeed any more (StoreUnusable).
	// When it succeeds, b.Sessions holds the records as stored: a store
	// that keeps hooks' needs-input marks keeps a mark over a record whose
	// activity is not after it (signal asking, last activity the mark's).
	Commit(ctx context.Context, b Batch) error
	// Records lists session records, newest activity first.
	Records(ctx context.Context, f SessionFilter) ([]Record, error)
	// Record returns one session's record by id, or by a unique prefix of
	// its id.
	// No match is CodeNotFound; several are CodeConflict.
	Record(ctx context.Context, id string) (Record, error)
	// Changed returns the records committed after the change mark since
	// (0: every record) with the mark to pass next time. Commits by other
	// processes show here too: it is how a server learns of a list that
	// `tally mcp`, another process, changed.
	Changed(ctx context.Context, since int64) ([]Record, int64, error)
	// ChangedLimit is Changed for at most limit records (0: no limit): the
	// oldest changes first, and the mark of the last returned, from which
	// the next read goes on (tally push reads a long history a page at a
	// time).
	ChangedLimit(ctx context.Context, since int64, limit int) ([]Record, int64, error)
	// ChangeMark is the newest change mark, for a reader that starts
	// from now rather than from every record ever written.
	ChangeMark(ctx context.Context) (int64, error)
	Close() error
}

// ErrStoreGone is wrapped by the error of a Store whose storage went away
// while it was open (its file deleted or replaced): nothing given to it
// can be kept any more, so the indexer stops rather than go on into
// storage nobody reads.
var ErrStoreGone = errors.New("the store is gone")

// ErrStoreReadOnly is wrapped by the error of a Store that cannot be
// written (a read-only file, or a folder where it cannot keep its
// journal): no commit succeeds until a person changes that, so a command
// says so once and stops, rather than fail again every round.
var ErrStoreReadOnly = errors.New("the store cannot be written")

// StoreUnusable tells whether err means no commit can succeed any more.
func StoreUnusable(err error) bool {
	return errors.Is(err, ErrStoreGone) || errors.Is(err, ErrStoreReadOnly)
}

// Batch is one transaction's worth of changes.
type Batch struct {
	Files    []*FileState
	Sessions []Record
	// Removed names files (paths) and sessions (ids) that no longer exist.
	RemovedFiles    []string
	RemovedSessions []string
	// Markers are the progress markers the batch's files gave: recorded
	// pending, each key once, with the files (MarkerStore).
	Markers []FoundMarker
}

// SessionFilter selects records; zero fields select everything.
type SessionFilter struct {
	Agent   Agent
	Project string // substring of the project path
	// Since keeps sessions whose last activity is at or after it.
	Since time.Time
	// Machine and User keep the records pushed from that machine, or by
	// that user (exact matches; see Record.Machine).
	Machine string
	User    string
	Limit   int
}

// PrefixCandidates bounds the ids an ambiguous session prefix's error
// names; a store reads one more record than that, to know there are more.
const PrefixCandidates = 5

// OneByPrefix is the record a session-id prefix names, of recs, the
// records (at most PrefixCandidates+1) whose ids start with it, as every
// store reads them: none is CodeNotFound, several is CodeConflict naming
// them, so that the person can give more characters.
func OneByPrefix(op, prefix string, recs []Record) (Record, error) {
	switch len(recs) {
	case 0:
		return Record{}, Errorf(CodeNotFound, op, "no session %q", prefix)
	case 1:
		return recs[0], nil
	}
	ids := make([]string, 0, len(recs))
	for i := range recs {
		if i == PrefixCandidates {
			ids = append(ids, "…")
			break
		}
		ids = append(ids, recs[i].ID)
	}
	return Record{}, Errorf(CodeConflict, op,
		"session prefix %q is ambiguous: it matches %s; give more characters", prefix, strings.Join(ids, ", "))
}
