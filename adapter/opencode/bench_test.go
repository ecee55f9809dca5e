package opencode

import (
	"fmt"
	"testing"
)

// BenchmarkSessions reads a database of 500 sessions of 8 todos and 100
// messages each.
func BenchmarkSessions(b *testing.B) {
	path, w := buildDB(b, "built-opencode.sql")
	tx, _ := w.Begin()
	for s := range 500 {
		sid := fmt.Sprintf("ses_%04d", s)
		tx.Exec(`INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'prj_app', 's', '/d', 't', '1', ?, ?)`, sid, 1.7e12+s, 1.7e12+s)
		for p := range 8 {
			tx.Exec(`INSERT INTO todo VALUES (?, 'step', 'pending', 'high', ?, 1, 1)`, sid, p)
		}
		for m := range 100 {
			tx.Exec(`INSERT INTO message VALUES (?, ?, ?, ?, '{"role":"assistant","time":{"created":1,"completed":2}}')`, fmt.Sprintf("%s_%d", sid, m), sid, m, m)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if got := sessions(b, path); len(got) != 502 {
			b.Fatalf("%d sessions", len(got))
		}
	}
}
