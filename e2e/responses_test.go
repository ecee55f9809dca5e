package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
)

// A scripted model for the real Codex: the OpenAI Responses API
// (POST /v1/responses, streamed) on 127.0.0.1. Agent-loop requests (those
// offering tools) get the script's turns in order, then Final; requests
// without tools (the compaction's summary) get Summary. Every request's
// input is logged.
type fakeResponses struct {
	srv     *httptest.Server
	script  script
	summary string
	mu      sync.Mutex
	log     []map[string]any
	turn    int
	ids     int
}

func newFakeResponses(t *testing.T, s script, summary string) *fakeResponses {
	f := &fakeResponses{script: s, summary: summary}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeResponses) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		w.WriteHeader(http.StatusNotFound)
		writeJSON(w, map[string]any{"error": map[string]any{"message": "not found", "type": "invalid_request_error"}})
		return
	}
	var req map[string]any
	_ = json.Unmarshal(body, &req)
	input, _ := req["input"].([]any)
	f.mu.Lock()
	f.log = append(f.log, req)
	out := f.reply(req)
	id := f.id("resp_")
	f.mu.Unlock()
	base := map[string]any{"id": id, "object": "response", "created_at": 1795460000, "model": req["model"],
		"status": "in_progress", "output": []any{}, "tools": []any{}, "usage": nil}
	final := map[string]any{}
	for k, v := range base {
		final[k] = v
	}
	final["status"], final["output"] = "completed", out
	final["usage"] = map[string]any{"input_tokens": 1000 + 50*len(input), "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": 20, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 1020 + 50*len(input)}
	w.Header().Set("content-type", "text/event-stream")
	seq := 0
	ev := func(obj map[string]any) {
		obj["sequence_number"] = seq
		seq++
		js, _ := json.Marshal(obj)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", obj["type"], js)
	}
	ev(map[string]any{"type": "response.created", "response": base})
	for i, o := range out {
		switch o["type"] {
		case "function_call":
			ev(map[string]any{"type": "response.output_item.added", "output_index": i, "item": with(o, "arguments", "")})
			ev(map[string]any{"type": "response.function_call_arguments.done", "item_id": o["id"], "output_index": i, "arguments": o["arguments"]})
		default:
			text := o["content"].([]any)[0].(map[string]any)["text"]
			ev(map[string]any{"type": "response.output_item.added", "output_index": i, "item": with(o, "content", []any{})})
			ev(map[string]any{"type": "response.output_text.delta", "item_id": o["id"], "output_index": i, "content_index": 0, "delta": text})
			ev(map[string]any{"type": "response.output_text.done", "item_id": o["id"], "output_index": i, "content_index": 0, "text": text})
		}
		ev(map[string]any{"type": "response.output_item.done", "output_index": i, "item": o})
	}
	ev(map[string]any{"type": "response.completed", "response": final})
}

func with(m map[string]any, k string, v any) map[string]any {
	c := map[string]any{"status": "in_progress"}
	for kk, vv := range m {
		c[kk] = vv
	}
	c[k] = v
	return c
}

// reply is the next answer; f.mu is held.
func (f *fakeResponses) reply(req map[string]any) []map[string]any {
	message := func(text string) map[string]any {
		return map[string]any{"type": "message", "id": f.id("msg_"), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
	}
	if tools, _ := req["tools"].([]any); len(tools) == 0 {
		return []map[string]any{message(f.summary)}
	}
	k := f.turn
	f.turn++
	if k >= len(f.script.Turns) {
		return []map[string]any{message(f.script.Final)}
	}
	var out []map[string]any
	for _, b := range f.script.Turns[k] {
		if b.Tool == "" {
			out = append(out, message(b.Text))
			continue
		}
		args, _ := json.Marshal(b.Input)
		out = append(out, map[string]any{"type": "function_call", "id": f.id("fc_"), "call_id": f.id("call_"),
			"name": b.Tool, "arguments": string(args), "status": "completed"})
	}
	return out
}

func (f *fakeResponses) id(prefix string) string {
	f.ids++
	return fmt.Sprintf("%sTALLY%08d", prefix, f.ids)
}

// inputs are the logged requests' input items, one list per request, with
// a mark of whether the request offered tools (an agent-loop request).
func (f *fakeResponses) save(t *testing.T, path string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b strings.Builder
	for _, r := range f.log {
		tools, _ := r["tools"].([]any)
		js, _ := json.Marshal(map[string]any{"model": r["model"], "agentLoop": len(tools) > 0, "input": r["input"]})
		b.Write(js)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (f *fakeResponses) requests() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []map[string]any
	for _, r := range f.log {
		tools, _ := r["tools"].([]any)
		out = append(out, map[string]any{"agentLoop": len(tools) > 0, "input": r["input"]})
	}
	return out
}
