package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally/plan"
)

func TestDecodeArgs(t *testing.T) {
	valid := []string{"taskId", "list"}
	for _, raw := range []string{"", " ", "null", `""`, "{}"} {
		var a taskGetArgs
		if err := decodeArgs(json.RawMessage(raw), &a, valid); err != nil {
			t.Errorf("arguments %q: %v (a model sends an empty body for TaskList: it is {})", raw, err)
		}
	}
	for raw, want := range map[string]string{
		`{"taskID":"1"}`:  `unknown argument "taskID"; this tool takes taskId, list`,
		`{"taskId":true}`: `taskId must be a string`,
		`[1]`:             `JSON object`,
		`{"taskId":`:      `not valid JSON`,
	} {
		var a taskGetArgs
		if err := decodeArgs(json.RawMessage(raw), &a, valid); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("arguments %s: %v, want an error saying %q", raw, err, want)
		}
	}
	var a taskGetArgs
	if err := decodeArgs(json.RawMessage(`{"taskId":3}`), &a, valid); err != nil || a.TaskID != "3" {
		t.Errorf("numeric taskId: %q %v", a.TaskID, err)
	}
}

// TestServeStdio_RawArguments speaks JSON-RPC lines to ServeStdio, as an
// agent's client would, with arguments left out, null and "".
func TestServeStdio_RawArguments(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "tally.db"))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeStdio(ctx, Options{Store: st, List: "raw", Now: fixedClock()}, inR, outW) }()
	lines := bufio.NewScanner(outR)
	send := func(s string) {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	read := func() map[string]any {
		if !lines.Scan() {
			t.Fatal("server closed its output")
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	read()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, params := range []string{`{"name":"TaskList"}`, `{"name":"TaskList","arguments":null}`, `{"name":"TaskList","arguments":""}`} {
		send(`{"jsonrpc":"2.0","id":` + string(rune('1'+i)) + `,"method":"tools/call","params":` + params + `}`)
		res, _ := read()["result"].(map[string]any)
		if res == nil || res["isError"] == true {
			t.Errorf("TaskList with %s: %v", params, res)
		}
	}
	cancel()
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return after its input closed")
	}
	outR.Close()
}

func TestPlanFirst(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "tally.db"))
	cs := connect(t, Options{Store: st, List: "p", PlanFirst: true, Now: fixedClock()})
	if a := call(t, cs, "TaskCreate", map[string]any{"subject": "draft", "description": "d"}); a.IsError {
		t.Fatal(a.Text)
	}
	a := call(t, cs, "todo_write", map[string]any{"todos": []map[string]any{{"content": "x", "status": "in_progress"}}})
	if !a.IsError || !strings.Contains(a.Text, "plan mode") {
		t.Fatalf("todo_write on a new list of a --plan server: %+v", a)
	}
	if l := liveTasks(t, st, "p"); len(l.Tasks) != 1 || l.Tasks[0].Title != "draft" {
		t.Fatalf("refused todo_write changed the list: %+v", l.Tasks)
	}
}

// In a project that keeps a plan, the server's instructions carry the
// protocol that tells the agent to write progress markers; elsewhere they
// do not ask for a plan at all.
func TestInstructions_carryThePlanProtocol(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "tally.db"))
	for _, protocol := range []string{"", plan.ProtocolIn("planning")} {
		cs := connect(t, Options{Store: st, Protocol: protocol})
		got := cs.InitializeResult().Instructions
		if !strings.HasPrefix(got, instructions) {
			t.Fatalf("instructions lost the tools' own words:\n%s", got)
		}
		has := strings.Contains(got, "## Task Management Protocol") && strings.Contains(got, "progress: T001.S1 done") &&
			strings.Contains(got, "`planning/T###-slug/task.yaml`")
		if has != (protocol != "") {
			t.Fatalf("protocol %v in the instructions, want %v:\n%s", has, protocol != "", got)
		}
	}
}
