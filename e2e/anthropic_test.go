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

// A scripted model for the real Claude Code: the Anthropic Messages API
// on 127.0.0.1, answering each agent-loop request with the next turn of a
// script and logging every request body, so a test can read what the
// model was shown.

// block is one content block of a scripted reply: text, or a tool call.
type block struct {
	Text  string
	Tool  string
	Input any
}

// script is a conversation: reply k to a request holding k assistant
// messages is Turns[k], past the end Final. A request of the conversation
// continued after a compaction is answered from After/AfterFinal instead.
type script struct {
	Turns      [][]block
	Final      string
	After      [][]block
	AfterFinal string
}

// compactionPrompt starts the request Claude Code sends to have the
// conversation summarised; continued starts the first message after.
const (
	compactionPrompt = "Your task is to create a detailed summary of the conversation"
	continued        = "This session is being continued from a previous conversation"
)

type fakeModel struct {
	srv    *httptest.Server
	script script
	mu     sync.Mutex
	log    []map[string]any
	ids    int
}

func newFakeModel(t *testing.T, s script) *fakeModel {
	f := &fakeModel{script: s}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// requests returns the agent-loop requests logged so far (those offering
// tools), in order.
func (f *fakeModel) requests() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []map[string]any
	for _, r := range f.log {
		if tools, _ := r["tools"].([]any); len(tools) > 0 {
			out = append(out, r)
		}
	}
	return out
}

// save writes the agent-loop requests, one JSON line each, with what the
// model was shown — the model, the tools' names and the messages — and
// without the system prompt and tool schemas, which are the same in
// every request.
func (f *fakeModel) save(t *testing.T, path string) {
	var b strings.Builder
	for _, r := range f.requests() {
		var names []string
		tools, _ := r["tools"].([]any)
		for _, x := range tools {
			tool, _ := x.(map[string]any)
			name, _ := tool["name"].(string)
			names = append(names, name)
		}
		js, _ := json.Marshal(map[string]any{"model": r["model"], "tools": names, "messages": r["messages"]})
		b.Write(js)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// loadRequests reads requests a save wrote.
func loadRequests(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, r)
	}
	return out
}

func (f *fakeModel) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req map[string]any
	_ = json.Unmarshal(body, &req)
	path := r.URL.Path
	switch {
	case strings.HasSuffix(path, "/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 1234})
		return
	case r.Method != http.MethodPost || !strings.HasSuffix(path, "/v1/messages"):
		writeJSON(w, map[string]any{"data": []any{}, "has_more": false})
		return
	}
	f.mu.Lock()
	f.log = append(f.log, req)
	reply := f.reply(req)
	id := f.id("msg_")
	f.mu.Unlock()
	model, _ := req["model"].(string)
	// Field order is the real API's: Claude Code keeps it in its
	// transcript, and readers of transcripts rely on it.
	msg := apiMessage{ID: id, Type: "message", Role: "assistant", Model: model, Content: reply,
		StopReason: stopReason(reply), Usage: apiUsage{InputTokens: 100, OutputTokens: 20}}
	if stream, _ := req["stream"].(bool); !stream {
		writeJSON(w, msg)
		return
	}
	w.Header().Set("content-type", "text/event-stream")
	ev := func(name string, data any) {
		js, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, js)
	}
	start := msg
	start.Content, start.StopReason = []apiBlock{}, nil
	ev("message_start", map[string]any{"type": "message_start", "message": start})
	for i, c := range reply {
		if c.Type == "text" {
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": apiBlock{Type: "text", Text: new(string)}})
			ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": *c.Text}})
		} else {
			js, _ := json.Marshal(c.Input)
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": apiBlock{Type: "tool_use", ID: c.ID, Name: c.Name, Input: map[string]any{}}})
			ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(js)}})
		}
		ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	ev("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stopReason(reply), "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 20}})
	ev("message_stop", map[string]any{"type": "message_stop"})
}

type apiMessage struct {
	ID           string     `json:"id"`
	Type         string     `json:"type"`
	Role         string     `json:"role"`
	Model        string     `json:"model"`
	Content      []apiBlock `json:"content"`
	StopReason   any        `json:"stop_reason"`
	StopSequence any        `json:"stop_sequence"`
	Usage        apiUsage   `json:"usage"`
}

type apiBlock struct {
	Type  string  `json:"type"`
	Text  *string `json:"text,omitempty"`
	ID    string  `json:"id,omitempty"`
	Name  string  `json:"name,omitempty"`
	Input any     `json:"input,omitempty"`
}

type apiUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// reply picks the scripted answer to a request; f.mu is held.
func (f *fakeModel) reply(req map[string]any) []apiBlock {
	msgs, _ := req["messages"].([]any)
	tools, _ := req["tools"].([]any)
	text := func(s string) []apiBlock { return []apiBlock{{Type: "text", Text: &s}} }
	switch {
	case len(tools) == 0:
		return text("OK") // a side request: a title, a quota probe
	case strings.Contains(lastUserText(msgs), compactionPrompt):
		return text("<summary>The user asked for greet.py, a test and a README.</summary>")
	}
	turns, final := f.script.Turns, f.script.Final
	if strings.Contains(userText(msgs, 0), continued) {
		turns, final = f.script.After, f.script.AfterFinal
	}
	k := 0
	for _, m := range msgs {
		if mm, _ := m.(map[string]any); mm["role"] == "assistant" {
			k++
		}
	}
	if k >= len(turns) {
		return text(final)
	}
	var out []apiBlock
	for _, b := range turns[k] {
		if b.Tool == "" {
			out = append(out, text(b.Text)...)
			continue
		}
		out = append(out, apiBlock{Type: "tool_use", ID: f.id("toolu_"), Name: b.Tool, Input: b.Input})
	}
	return out
}

func (f *fakeModel) id(prefix string) string {
	f.ids++
	return fmt.Sprintf("%s01TALLY%017d", prefix, f.ids)
}

func stopReason(reply []apiBlock) string {
	for _, c := range reply {
		if c.Type == "tool_use" {
			return "tool_use"
		}
	}
	return "end_turn"
}

// userText is the text of the i-th user message.
func userText(msgs []any, i int) string {
	n := 0
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] != "user" {
			continue
		}
		if n == i {
			return messageText(mm)
		}
		n++
	}
	return ""
}

func lastUserText(msgs []any) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if mm, _ := msgs[i].(map[string]any); mm["role"] == "user" {
			return messageText(mm)
		}
	}
	return ""
}

// messageText joins a message's text and tool-result text.
func messageText(m map[string]any) string {
	switch c := m["content"].(type) {
	case string:
		return c
	case []any:
		var b strings.Builder
		for _, x := range c {
			blk, _ := x.(map[string]any)
			if s, ok := blk["text"].(string); ok {
				b.WriteString(s + "\n")
			}
			if s, ok := blk["content"].(string); ok {
				b.WriteString(s + "\n")
			}
		}
		return b.String()
	}
	return ""
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("content-type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
