package claude

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

func TestAdapter_Contract(t *testing.T) {
	a := New(Options{})
	for _, f := range fixtureFiles(t) {
		t.Run(filepath.Base(f.path), func(t *testing.T) {
			adaptertest.Run(t, a, f.info, read(t, f.path))
		})
	}
}

func FuzzDecoder(f *testing.F) {
	var seeds [][]byte
	for _, lf := range fixtureFiles(f) {
		for _, l := range adaptertest.Lines(read(f, lf.path)) {
			if hasToolNeedle(l) || bytes.Contains(l, sidechainNeedle) || bytes.Contains(l, []byte("created successfully")) {
				seeds = append(seeds, append(append([]byte(nil), l...), '\n'))
			}
		}
	}
	seeds = append(seeds, read(f, "testdata/built-two-results.jsonl"))
	adaptertest.Fuzz(f, New(Options{}), tally.FileInfo{Path: "fuzz.jsonl", Session: "fuzz"}, seeds...)
}

// TestDecoder_Malformed: a line the prefilter selects but that is not
// usable, or any line not shaped like a JSON object, is reported as
// CodeInvalid and changes nothing; object-shaped junk the prefilter
// rejects is never parsed. A list call whose input cannot be read is
// reported at its result, and only if the result says it succeeded:
// Claude Code rejects such a call too, and a rejected call is no fault
// of the file.
func TestDecoder_Malformed(t *testing.T) {
	const (
		ok     = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"done"}]}}`
		failed = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","is_error":true,"content":"<tool_use_error>InputValidationError</tool_use_error>"}]}}`
	)
	tests := []struct {
		name string
		line string
		bad  bool
	}{
		{"selected but truncated JSON", `{"type":"assistant","message":{"content":[{"type":"tool_use","name":"TodoWrite"`, true},
		{"TodoWrite input without todos, then its result", `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"x","name":"TodoWrite","input":{"todo":1}}]}}` + "\n" + ok, true},
		{"TaskUpdate without taskId, then its result", `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"x","name":"TaskUpdate","input":{"status":"completed"}}]}}` + "\n" + ok, true},
		{"TaskUpdate without taskId, then its error", `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"x","name":"TaskUpdate","input":{"status":"completed"}}]}}` + "\n" + failed, false},
		{"TodoWrite input without todos and without an id", `{"type":"assistant","message":{"content":[{"type":"tool_use","name":"TodoWrite","input":{"todo":1}}]}}`, true},
		{"a JSON array, not an object", `["TodoWrite","input"]`, true},
		{"random bytes, not shaped like a JSON object", "\x89PNG\r\x1a\x00\xff", true},
		{"junk shaped like an object that the prefilter rejects", "{not json at all}", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := newDecoder(tally.FileInfo{Path: "m.jsonl"}, nil)
			d.st.HaveCwd, d.st.HaveTitle = true, true
			n := 0
			var err error
			for _, l := range strings.Split(tt.line, "\n") {
				if err = d.Line([]byte(l), 42, func(tally.Event) { n++ }); err != nil {
					break
				}
			}
			if (err != nil) != tt.bad {
				t.Fatalf("err = %v, want error: %v", err, tt.bad)
			}
			if err != nil && tally.ErrorCode(err) != tally.CodeInvalid {
				t.Errorf("code %v, want invalid", tally.ErrorCode(err))
			}
			if n != 0 {
				t.Errorf("%d events emitted from a bad line", n)
			}
		})
	}
}
