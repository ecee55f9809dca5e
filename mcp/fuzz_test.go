package mcp

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tallyhq/tally"
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
		l := tally.TaskList{Name: "f"}
		for _, s := range []string{"a", "b", "c"} {
			if _, err := l.Create(tally.TaskCreate{Subject: s}, now); err != nil {
				t.Fatal(err)
			}
		}
		var a taskUpdateArgs
		if err := decodeArgs(raw, &a, []string{"taskId", "status", "subject", "description", "activeForm", "owner", "addBlocks", "addBlockedBy", "metadata", "list"}); err != nil {
			return
		}
		before, _ := json.Marshal(l)
		_, err := l.Update(tally.TaskUpdate{TaskID: string(a.TaskID), Status: a.Status, Subject: a.Subject, Description: a.Description,
			ActiveForm: a.ActiveForm, Owner: a.Owner, AddBlocks: ids(a.AddBlocks), AddBlockedBy: ids(a.AddBlockedBy), Metadata: a.Metadata}, now)
		if after, _ := json.Marshal(l); err != nil && string(after) != string(before) {
			t.Fatalf("refused update (%v) changed the list", err)
		}
		if s := l.Summary(); s.InProgress > 1 {
			t.Fatalf("%d in progress", s.InProgress)
		}
	})
}
