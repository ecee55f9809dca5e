package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
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

// FuzzServeStdio feeds arbitrary bytes to the stdio server on a real store:
// it never fails, never hangs, and writes nothing but JSON-RPC 2.0
// responses, one per line.
func FuzzServeStdio(f *testing.F) {
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	initialize := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	for _, s := range []string{
		ping, "hello", `{"jsonrpc":"2.0","id":5,"meth`, "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\"}", `{"jsonrpc":"1.0","id":5,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":"a","method":"ping"},7]`, `[]`, `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, `{}`, `null`, `123`,
		`{"jsonrpc":"2.0","id":2,"result":{}}`, `{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"TaskCreate","arguments":{"subject":"s"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":7}`,
	} {
		f.Add([]byte(s + "\n" + ping))
		f.Add([]byte(initialize + s + "\n" + ping + "\n"))
	}
	st := openStore(f, filepath.Join(f.TempDir(), "tally.db"))
	f.Fuzz(func(t *testing.T, in []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var out bytes.Buffer
		if err := ServeStdio(ctx, Options{Store: st, List: "fuzz", Now: fixedClock()}, bytes.NewReader(in), &out); err != nil {
			t.Fatalf("ServeStdio: %v", err)
		}
		if ctx.Err() != nil {
			t.Fatal("ServeStdio did not return after its input ended")
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			var msgs []map[string]json.RawMessage
			if line[0] != '[' {
				line = append(append([]byte("["), line...), ']')
			}
			if err := json.Unmarshal(line, &msgs); err != nil || len(msgs) == 0 {
				t.Fatalf("output line %.200q is not JSON-RPC: %v", line, err)
			}
			for _, m := range msgs {
				if string(m["jsonrpc"]) != `"2.0"` {
					t.Fatalf("output %.200q is not JSON-RPC 2.0", line)
				}
			}
		}
	})
}
