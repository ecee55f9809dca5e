package mcp

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tallyhq/tally/tasks"
)

// FuzzTaskUpdateArgs feeds arbitrary argument bytes through decoding and
// the rules: never a panic, and a refused call leaves the list as it was.
func FuzzTaskUpdateArgs(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"taskId":"1","status":"in_progress"}`, `{"taskId":2,"addBlockedBy":["1","2"]}`,
		`{"taskId":"1","metadata":{"a":null,"b":[1]}}`, `{"taskId":"3","status":"deleted"}`, `{"taskID":"1"}`, `[`} {
		f.Add([]byte(s))
	}
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, raw []byte) {
		l := tasks.List{Name: "f"}
		for _, s := range []string{"a", "b", "c"} {
			if _, err := l.Create(tasks.CreateArgs{Subject: s}, now); err != nil {
				t.Fatal(err)
			}
		}
		var a taskUpdateArgs
		if err := decodeArgs(raw, &a, []string{"taskId", "status", "subject", "description", "activeForm", "owner", "addBlocks", "addBlockedBy", "metadata", "list"}); err != nil {
			return
		}
		in, del, err := a.updateArgs()
		if err != nil {
			return
		}
		before, _ := json.Marshal(l)
		_, err = applyUpdate(&l, in, del, now)
		if after, _ := json.Marshal(l); err != nil && string(after) != string(before) {
			t.Fatalf("refused update (%v) changed the list", err)
		}
		if s := l.Summary(); s.InProgress > 1 {
			t.Fatalf("%d in progress", s.InProgress)
		}
	})
}
