package storetest

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/tallyhq/tally"
)

// TestRun runs the suite against memStore, the simplest store that keeps
// the contract: it shows the suite asks nothing a store cannot do without
// SQL, and that it passes a correct store.
func TestRun(t *testing.T) {
	Run(t, func(*testing.T) tally.Store {
		return &memStore{files: map[string][]byte{}, sessions: map[string][]byte{}}
	})
}

// memStore keeps JSON, as a real store does, so no caller's pointer is
// shared with what is stored.
type memStore struct {
	mu       sync.RWMutex
	files    map[string][]byte
	sessions map[string][]byte
	seq      map[string]int64
	mark     int64
}

func (m *memStore) ChangeMark(context.Context) (int64, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.mark, nil
}

func (m *memStore) Changed(ctx context.Context, since int64) ([]tally.Record, int64, error) {
	return m.ChangedLimit(ctx, since, 0)
}

func (m *memStore) ChangedLimit(_ context.Context, since int64, limit int) ([]tally.Record, int64, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	type kv struct {
		seq int64
		js  []byte
	}
	var rows []kv
	for id, seq := range m.seq {
		if seq > since {
			rows = append(rows, kv{seq, m.sessions[id]})
		}
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].seq < rows[j].seq })
	var out []tally.Record
	next := since
	if limit > 0 && len(rows) > limit {
		rows = rows[:limit]
	}
	for _, r := range rows {
		var rec tally.Record
		if err := json.Unmarshal(r.js, &rec); err != nil {
			return nil, since, err
		}
		out = append(out, rec)
		next = r.seq
	}
	return out, next, nil
}

func (m *memStore) FileMarks(context.Context) ([]tally.FileMark, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []tally.FileMark
	for _, js := range m.files {
		st := new(tally.FileState)
		if err := json.Unmarshal(js, st); err != nil {
			return nil, err
		}
		out = append(out, st.Mark())
	}
	return out, nil
}

func (m *memStore) SessionFiles(_ context.Context, session string) ([]*tally.FileState, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []*tally.FileState
	for _, js := range m.files {
		st := new(tally.FileState)
		if err := json.Unmarshal(js, st); err != nil {
			return nil, err
		}
		if st.Session == session {
			out = append(out, st)
		}
	}
	return out, nil
}

func (m *memStore) File(_ context.Context, path string) (*tally.FileState, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	js, ok := m.files[path]
	if !ok {
		return nil, tally.Errorf(tally.CodeNotFound, "mem.File", "no file %s", path)
	}
	st := new(tally.FileState)
	return st, json.Unmarshal(js, st)
}

func (m *memStore) Commit(ctx context.Context, b tally.Batch) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	files := map[string][]byte{}
	for _, f := range b.Files {
		js, err := json.Marshal(f)
		if err != nil || f.Path == "" {
			return tally.Errorf(tally.CodeInvalid, "mem.Commit", "bad file %q: %v", f.Path, err)
		}
		files[f.Path] = js
	}
	sessions := map[string][]byte{}
	for _, r := range b.Sessions {
		js, err := json.Marshal(r)
		if err != nil || r.ID == "" {
			return tally.Errorf(tally.CodeInvalid, "mem.Commit", "bad session %q: %v", r.ID, err)
		}
		sessions[r.ID] = js
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range b.RemovedFiles {
		delete(m.files, p)
	}
	for _, id := range b.RemovedSessions {
		delete(m.sessions, id)
		delete(m.seq, id)
	}
	for k, v := range files {
		m.files[k] = v
	}
	for k, v := range sessions {
		m.sessions[k] = v
		if m.seq == nil {
			m.seq = map[string]int64{}
		}
		m.mark++
		m.seq[k] = m.mark
	}
	return nil
}

func (m *memStore) all() ([]tally.Record, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []tally.Record
	for _, js := range m.sessions {
		var r tally.Record
		if err := json.Unmarshal(js, &r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LastActivity.After(out[j].LastActivity) })
	return out, nil
}

func (m *memStore) Records(_ context.Context, f tally.SessionFilter) ([]tally.Record, error) {
	all, err := m.all()
	var out []tally.Record
	for _, r := range all {
		if (f.Agent == "" || r.Agent == f.Agent) && strings.Contains(r.Project, f.Project) &&
			(f.Since.IsZero() || !r.LastActivity.Before(f.Since)) && (f.Limit <= 0 || len(out) < f.Limit) {
			out = append(out, r)
		}
	}
	return out, err
}

func (m *memStore) Record(_ context.Context, id string) (tally.Record, error) {
	all, err := m.all()
	if err != nil {
		return tally.Record{}, err
	}
	var found []tally.Record
	for _, r := range all {
		if r.ID == id {
			return r, nil
		}
		if len(id) >= 4 && strings.HasPrefix(r.ID, id) {
			found = append(found, r)
		}
	}
	switch len(found) {
	case 0:
		return tally.Record{}, tally.Errorf(tally.CodeNotFound, "mem.Session", "no session %q", id)
	case 1:
		return found[0], nil
	}
	var ids []string
	for _, r := range found {
		ids = append(ids, r.ID)
	}
	return tally.Record{}, tally.Errorf(tally.CodeConflict, "mem.Session", "%q matches %s", id, strings.Join(ids, ", "))
}

func (m *memStore) Close() error { return nil }
