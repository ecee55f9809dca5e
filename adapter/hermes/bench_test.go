package hermes

import (
	"fmt"
	"os"
	"testing"
)

// BenchmarkSessions reads a state.db of 100 sessions of 400 messages, one
// in eight a todo call or result, the rest other tools' traffic.
func BenchmarkSessions(b *testing.B) {
	path, w := buildDB(b, "built-state-later.sql")
	tx, _ := w.Begin()
	filler := fmt.Sprintf("%0512d", 0)
	for s := range 100 {
		sid := fmt.Sprintf("s%03d", s)
		tx.Exec(`INSERT INTO sessions (id, source, started_at) VALUES (?, 'cli', ?)`, sid, 1.7e9+float64(s))
		for m := range 400 {
			ts := 1.7e9 + float64(s*1000+m)
			switch {
			case m%16 == 1:
				calls := fmt.Sprintf(`[{"id": "c%d", "type": "function", "function": {"name": "todo", "arguments": "{\"todos\": [{\"id\": \"1\", \"content\": \"step\", \"status\": \"in_progress\"}]}"}}]`, m)
				tx.Exec(`INSERT INTO messages (session_id, role, tool_calls, timestamp) VALUES (?, 'assistant', ?, ?)`, sid, calls, ts)
			case m%16 == 2:
				tx.Exec(`INSERT INTO messages (session_id, role, content, tool_call_id, timestamp) VALUES (?, 'tool', ?, ?, ?)`, sid,
					`{"todos": [{"id": "1", "content": "step", "status": "in_progress"}], "summary": {}}`, fmt.Sprintf("c%d", m-1), ts)
			case m%2 == 0:
				tx.Exec(`INSERT INTO messages (session_id, role, tool_calls, timestamp) VALUES (?, 'assistant', '[{"id": "t", "function": {"name": "terminal", "arguments": "{}"}}]', ?)`, sid, ts)
			default:
				tx.Exec(`INSERT INTO messages (session_id, role, content, tool_call_id, timestamp) VALUES (?, 'tool', ?, 't', ?)`, sid, filler, ts)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if got := sessions(b, path); len(got) != 101 {
			b.Fatalf("%d sessions", len(got))
		}
	}
	fi, _ := os.Stat(path)
	wal, _ := os.Stat(path + "-wal")
	b.ReportMetric(float64(fi.Size()+wal.Size())/1e6, "dbMB")
}

func BenchmarkParseResult(b *testing.B) {
	res := []byte(`{"todos": [{"id": "1", "content": "Read the parser", "status": "completed"}, {"id": "2", "content": "Write tests", "status": "in_progress"}, {"id": "3", "content": "Ship it", "status": "pending"}], "revision": 3, "summary": {"total": 3, "pending": 1, "in_progress": 1, "completed": 1, "cancelled": 0}}`)
	b.SetBytes(int64(len(res)))
	for b.Loop() {
		if _, err := parseResult(res); err != nil {
			b.Fatal(err)
		}
	}
}
