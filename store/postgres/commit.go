package postgres

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/internal/column"
)

// fileCols and recordCols are a batch encoded as the column arrays the
// upserts unnest, before the transaction begins: locks are held only for
// the statements.
type fileCols struct {
	path, session, agent, state []string
	offset                      []int64
}

type recordCols struct {
	id, agent, project, title, record []string
	started, last                     []int64
	// recs are the records the columns hold, for the needs-input marks to rewrite.
	recs []*tally.Record
}

func (c *recordCols) add(rec *tally.Record, js []byte) {
	c.recs = append(c.recs, rec)
	c.id = append(c.id, rec.ID)
	c.agent = append(c.agent, textCol(string(rec.Agent)))
	c.project = append(c.project, textCol(rec.Project))
	c.title = append(c.title, textCol(rec.Title))
	c.started = append(c.started, column.Time(rec.StartedAt))
	c.last = append(c.last, column.Time(rec.LastActivity))
	c.record = append(c.record, string(js))
}

// Commit writes the batch in one transaction: removals first, then the
// file states, records and markers (pending, each key once), so an
// element both removed and written in one batch ends up written; of a
// file or record written twice, the later wins; a marker key already
// recorded keeps its row. An element that cannot be stored (an empty
// path, id or key, a key PostgreSQL text cannot hold, a value JSON cannot
// hold) fails the whole batch with CodeInvalid before anything is
// written; a failure during the transaction rolls it back. Either way
// the store keeps its previous state.
//
// Every record written takes the next change mark, and listeners are
// notified when the transaction commits. A session's needs-input mark
// holds over its records, see marksAndWaiting.
func (s *Store) Commit(ctx context.Context, b tally.Batch) error {
	const op = "postgres.Commit"
	files, recs, err := encodeBatch(b)
	if err != nil {
		return err
	}
	markers, err := encodeMarkers(b.Markers)
	if err != nil {
		return err
	}
	if len(files.path)+len(recs.id)+len(markers.key)+len(b.RemovedFiles)+len(b.RemovedSessions) == 0 {
		return nil // nothing to lock
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var top int64
		var gone []string
		if len(recs.id) > 0 {
			top, gone, err = s.marksAndWaiting(ctx, tx, &recs)
		} else {
			top, err = takeMarks(ctx, tx, 0)
		}
		if err != nil {
			return err
		}
		batch := &pgx.Batch{}
		if len(gone) > 0 {
			batch.Queue(q.needsInputDelete, gone)
		}
		// A key PostgreSQL cannot store is in no row: nothing to remove.
		if gone := storableKeys(b.RemovedFiles); len(gone) > 0 {
			batch.Queue(q.deleteFiles, gone)
		}
		if gone := storableKeys(b.RemovedSessions); len(gone) > 0 {
			batch.Queue(q.deleteSessions, gone)
		}
		if len(files.path) > 0 {
			batch.Queue(q.upsertFiles, files.path, files.session, files.agent, files.offset, files.state)
		}
		queueRecords(batch, &recs, top)
		queueMarkers(batch, &markers)
		return tx.SendBatch(ctx, batch).Close()
	})
	return s.wrap(op, err)
}

// takeMarks reserves n change marks (n may be 0) and returns the newest.
// From here to the end of the transaction, every other transaction that
// writes records or files waits.
func takeMarks(ctx context.Context, tx pgx.Tx, n int) (int64, error) {
	var top int64
	err := tx.QueryRow(ctx, q.takeMarks, int64(n)).Scan(&top)
	return top, err
}

// channel is the LISTEN/NOTIFY channel of commits that wrote records.
const channel = "tally_changes"

// queueRecords writes the records with marks up to top, and notifies the
// listeners at commit.
func queueRecords(batch *pgx.Batch, c *recordCols, top int64) {
	if len(c.id) == 0 {
		return
	}
	batch.Queue(q.upsertSessions, c.id, c.agent, c.project, c.title, c.started, c.last, c.record, top)
	batch.Queue(q.notify, channel, strconv.FormatInt(top, 10))
}

func encodeBatch(b tally.Batch) (fileCols, recordCols, error) {
	const op = "postgres.Commit"
	var files fileCols
	at := map[string]int{}
	for i, st := range b.Files {
		if st == nil || st.Path == "" {
			return fileCols{}, recordCols{}, tally.Errorf(tally.CodeInvalid, op, "file %d of the batch has no path; nothing was written", i)
		}
		if err := storable("file path", st.Path); err != nil {
			return fileCols{}, recordCols{}, tally.Errorf(tally.CodeInvalid, op, "%v; nothing was written", err)
		}
		js, err := json.Marshal(st)
		if err != nil {
			return fileCols{}, recordCols{}, tally.Errorf(tally.CodeInvalid, op, "file %s cannot be stored (%v); nothing was written", st.Path, err)
		}
		if j, dup := at[st.Path]; dup {
			files.session[j], files.agent[j], files.offset[j], files.state[j] = textCol(st.Session), textCol(string(st.Agent)), st.Offset, string(js)
			continue
		}
		at[st.Path] = len(files.path)
		files.path = append(files.path, st.Path)
		files.session = append(files.session, textCol(st.Session))
		files.agent = append(files.agent, textCol(string(st.Agent)))
		files.offset = append(files.offset, st.Offset)
		files.state = append(files.state, string(js))
	}
	// A record written twice keeps the place of its last write, so marks
	// follow the order of the batch.
	encoded := make([][]byte, len(b.Sessions))
	last := map[string]int{}
	for i := range b.Sessions {
		rec := &b.Sessions[i]
		if rec.ID == "" {
			return fileCols{}, recordCols{}, tally.Errorf(tally.CodeInvalid, op, "session %d of the batch has no id; nothing was written", i)
		}
		if err := storable("session id", rec.ID); err != nil {
			return fileCols{}, recordCols{}, tally.Errorf(tally.CodeInvalid, op, "%v; nothing was written", err)
		}
		js, err := json.Marshal(rec)
		if err != nil {
			return fileCols{}, recordCols{}, tally.Errorf(tally.CodeInvalid, op, "session %s cannot be stored (%v); nothing was written", rec.ID, err)
		}
		encoded[i] = js
		last[rec.ID] = i
	}
	var recs recordCols
	for i := range b.Sessions {
		if last[b.Sessions[i].ID] == i {
			recs.add(&b.Sessions[i], encoded[i])
		}
	}
	for i, p := range b.RemovedFiles {
		if p == "" {
			return fileCols{}, recordCols{}, tally.Errorf(tally.CodeInvalid, op, "removed file %d of the batch has no path; nothing was written", i)
		}
	}
	for i, id := range b.RemovedSessions {
		if id == "" {
			return fileCols{}, recordCols{}, tally.Errorf(tally.CodeInvalid, op, "removed session %d of the batch has no id; nothing was written", i)
		}
	}
	return files, recs, nil
}

func storableKeys(keys []string) []string {
	out := keys[:0:0]
	for _, k := range keys {
		if storable("key", k) == nil {
			out = append(out, k)
		}
	}
	return out
}
