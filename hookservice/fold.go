package hookservice

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/tail"
)

// Bounds of a hook's read of a transcript. A hook folds from where the
// store left off; more unread bytes than maxFold cannot be folded within
// the deadline, and the call is answered with nothing. A fold that read
// CommitAfter or more is committed, as the indexer commits it
// (index.Fold.Commit), so the next call starts after it.
const (
	maxFold = 128 << 20
	// CommitAfter is how many bytes a fold reads before it is committed.
	CommitAfter = 1 << 20
)

type foldResult struct {
	// fold is the transcript folded, nil when it was not read.
	fold  *index.Fold
	state *tally.FileState
	// size is the transcript's size when it was read; read is how many
	// bytes this call folded.
	size, read int64
	// refused says why the transcript the call named was not read ("":
	// it was, or the call named none).
	refused string
}

// foldTranscript brings the transcript's saved state up to date, by the
// indexer's own read (index.FoldFile): o are the indexer's options, lr
// the agent's adapter. A call that names no transcript, or one that does
// not exist, has no own list; so has one naming a file that is not its
// session's transcript (see transcriptOf), which is also said in refused.
func foldTranscript(ctx context.Context, st Store, o index.Options, lr tally.LineReader, ev hook.Event) (foldResult, error) {
	path := ev.TranscriptPath
	none := foldResult{state: &tally.FileState{Path: path, Session: ev.SessionID, Agent: lr.Agent()}}
	if path == "" {
		return none, nil
	}
	found, why := transcriptOf(lr, path, ev.SessionID)
	if why != "" {
		return foldResult{state: &tally.FileState{Session: ev.SessionID, Agent: lr.Agent()}, refused: why}, nil
	}
	f, err := tail.Stat(path, found.Info.Layout.Rewritten())
	if errors.Is(err, fs.ErrNotExist) {
		return none, nil
	}
	if err != nil {
		return foldResult{}, fmt.Errorf("transcript %s: %w", path, err)
	}
	var saved *tally.FileState
	if st != nil {
		sctx, cancel := context.WithTimeout(ctx, StoreWait)
		s, err := st.File(sctx, path)
		cancel()
		// Out of reach, or another session's: folded from the start
		// instead, slower but an answer.
		if err == nil && s.Session == ev.SessionID {
			saved = s
		}
	}
	unread := f.Size
	if saved != nil {
		unread -= saved.Offset
	}
	if unread > maxFold {
		return foldResult{}, fmt.Errorf("transcript %s has %d MB unread, more than a hook reads in time; a running tally (or tally scan) indexes it", path, unread>>20)
	}
	fold, err := index.FoldFile(o, found, saved, f)
	if err != nil {
		return foldResult{}, fmt.Errorf("reading transcript %s: %w", path, err)
	}
	return foldResult{fold: fold, state: fold.State(), size: f.Size, read: fold.Read}, ctx.Err()
}

// transcriptOf is path as the agent a reads it, or why it is not the
// transcript of session: it must be one of the session logs the agent
// keeps under its home, as Tally indexes them (tail.Claim), and hold that
// session. A hook's call — over HTTP, from anyone with a write token —
// names any path it likes: read, it would show another file of the
// server; folded and saved as that session's, it would move another
// session's transcript to a session the call made up.
func transcriptOf(a tally.Adapter, path, session string) (tail.Found, string) {
	f, ok := tail.Claim([]tally.Adapter{a}, path)
	switch {
	case !ok || !filepath.IsAbs(path) || filepath.Clean(path) != path || f.Info.Layout != tally.LayoutLog && f.Info.Layout != tally.LayoutWhole:
		return tail.Found{}, fmt.Sprintf("%s is not one of the agent's session logs under %s", path, strings.Join(a.Roots(), ", "))
	case f.Info.Session != session || f.Info.List != "":
		return tail.Found{}, fmt.Sprintf("%s is the transcript of session %s, not of %s", path, f.Info.Session, session)
	}
	return f, ""
}
