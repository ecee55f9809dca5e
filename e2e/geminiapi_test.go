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

// A scripted model for the real Gemini CLI: the Gemini API
// (:streamGenerateContent?alt=sse, :generateContent, :countTokens) on
// 127.0.0.1, which Gemini CLI calls with GOOGLE_GEMINI_BASE_URL set.
// Agent-loop requests (those declaring write_todos) get reply k, k being
// the model entries in the request's contents: Turns[k], past the end
// Final. Side requests get, when they ask for JSON, an object shaped by
// their schema (Gemini's "who speaks next" check), else Summary (a
// compression's). Every agent-loop request's contents are logged.
type fakeGemini struct {
	srv     *httptest.Server
	script  script
	summary string
	mu      sync.Mutex
	log     []map[string]any
}

func newFakeGemini(t *testing.T, s script, summary string) *fakeGemini {
	f := &fakeGemini{script: s, summary: summary}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeGemini) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.Method == http.MethodGet {
		writeJSON(w, map[string]any{"models": []any{}})
		return
	}
	var req struct {
		Contents []map[string]any `json:"contents"`
		Tools    []struct {
			FunctionDeclarations []struct{ Name string } `json:"functionDeclarations"`
		} `json:"tools"`
		GenerationConfig map[string]any `json:"generationConfig"`
	}
	_ = json.Unmarshal(body, &req)
	path := r.URL.Path
	switch {
	case strings.HasSuffix(path, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 1000})
		return
	case !strings.HasSuffix(path, ":generateContent") && !strings.HasSuffix(path, ":streamGenerateContent"):
		w.WriteHeader(http.StatusNotFound)
		writeJSON(w, map[string]any{"error": map[string]any{"code": 404, "message": "not found", "status": "NOT_FOUND"}})
		return
	}
	main := false
	for _, t := range req.Tools {
		for _, d := range t.FunctionDeclarations {
			main = main || d.Name == "write_todos"
		}
	}
	turn := 0
	for _, c := range req.Contents {
		if c["role"] == "model" {
			turn++
		}
	}
	var parts []map[string]any
	switch {
	case main:
		f.mu.Lock()
		f.log = append(f.log, map[string]any{"contents": req.Contents})
		f.mu.Unlock()
		if turn >= len(f.script.Turns) {
			parts = []map[string]any{{"text": f.script.Final}}
			break
		}
		for _, b := range f.script.Turns[turn] {
			if b.Tool == "" {
				parts = append(parts, map[string]any{"text": b.Text})
			} else {
				parts = append(parts, map[string]any{"functionCall": map[string]any{"name": b.Tool, "args": b.Input}})
			}
		}
	case req.GenerationConfig["responseJsonSchema"] != nil || req.GenerationConfig["responseSchema"] != nil:
		schema := req.GenerationConfig["responseJsonSchema"]
		if schema == nil {
			schema = req.GenerationConfig["responseSchema"]
		}
		js, _ := json.Marshal(fromSchema(schema))
		parts = []map[string]any{{"text": string(js)}}
	default:
		parts = []map[string]any{{"text": f.summary}}
	}
	prompt := 1000 + 100*len(req.Contents)
	usage := map[string]any{"promptTokenCount": prompt, "candidatesTokenCount": 20, "totalTokenCount": prompt + 20}
	cand := func(ps []map[string]any, last bool) map[string]any {
		c := map[string]any{"content": map[string]any{"role": "model", "parts": ps}, "index": 0}
		if last {
			c["finishReason"] = "STOP"
		}
		return c
	}
	if strings.HasSuffix(path, ":generateContent") {
		writeJSON(w, map[string]any{"candidates": []any{cand(parts, true)}, "usageMetadata": usage, "modelVersion": "gemini-2.5-pro"})
		return
	}
	w.Header().Set("content-type", "text/event-stream")
	for i, p := range parts {
		chunk := map[string]any{"candidates": []any{cand([]map[string]any{p}, i == len(parts)-1)}, "usageMetadata": usage, "modelVersion": "gemini-2.5-pro"}
		js, _ := json.Marshal(chunk)
		fmt.Fprintf(w, "data: %s\r\n\r\n", js)
	}
}

// fromSchema is a value of the JSON schema s: the user speaks next where
// an enum allows it.
func fromSchema(s any) any {
	m, ok := s.(map[string]any)
	if !ok {
		return "ok"
	}
	if enum, ok := m["enum"].([]any); ok && len(enum) > 0 {
		for _, e := range enum {
			if e == "user" {
				return e
			}
		}
		return enum[0]
	}
	typ, _ := m["type"].(string)
	switch strings.ToLower(typ) {
	case "object", "":
		out := map[string]any{}
		props, _ := m["properties"].(map[string]any)
		for k, v := range props {
			out[k] = fromSchema(v)
		}
		return out
	case "array":
		return []any{}
	case "integer", "number":
		return 0
	case "boolean":
		return false
	}
	return "The user should speak next."
}

// requests are the agent-loop requests, in order.
func (f *fakeGemini) requests() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.log...)
}

func (f *fakeGemini) save(t *testing.T, path string) {
	var b strings.Builder
	for _, r := range f.requests() {
		js, _ := json.Marshal(r)
		b.Write(js)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Error(err)
	}
}

// lastUserParts is the text of the parts of a request's last user entry.
func lastUserParts(req map[string]any) string {
	contents, _ := req["contents"].([]any)
	if contents == nil {
		if cs, ok := req["contents"].([]map[string]any); ok {
			for _, c := range cs {
				contents = append(contents, c)
			}
		}
	}
	for i := len(contents) - 1; i >= 0; i-- {
		c, _ := contents[i].(map[string]any)
		if c["role"] != "user" {
			continue
		}
		var b strings.Builder
		parts, _ := c["parts"].([]any)
		for _, p := range parts {
			if s, ok := p.(map[string]any)["text"].(string); ok {
				b.WriteString(s + "\n")
			}
		}
		return b.String()
	}
	return ""
}
