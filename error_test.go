package tally_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
)

// A line nested hundreds of levels deep makes the JSON parser's error its
// whole chain of contexts, one per level (about 14 KB). The diagnostic a
// person reads is one bounded line that still says what went wrong.
func TestError_deepNestingIsOneBoundedLine(t *testing.T) {
	deep := strings.Repeat(`{"a":[`, 400) + strings.Repeat(`]}`, 400)
	line := `{"type":"assistant","sessionId":"s","message":{"content":[{"type":"tool_use","name":"TodoWrite","input":` + deep + `}]}}` + "\n"
	dec, err := claude.New(claude.Options{}).NewDecoder(tally.FileInfo{Path: "s.jsonl"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := tally.FileState{Path: "s.jsonl"}
	_, diags := f.Feed(dec, []byte(line))
	if len(diags) != 1 {
		t.Fatalf("got %d diagnostics, want the one bad line", len(diags))
	}
	msg := diags[0].Msg
	if len(msg) > tally.MaxMessage+100 || strings.ContainsAny(msg, "\n\r") {
		t.Errorf("diagnostic is %d bytes over %d lines; want one line of at most about %d", len(msg), strings.Count(msg, "\n")+1, tally.MaxMessage)
	}
	if !strings.Contains(msg, "not valid JSON") || !strings.Contains(msg, "more bytes)") {
		t.Errorf("diagnostic %.200q… does not say what went wrong and that it was cut", msg)
	}
}

func TestError_text(t *testing.T) {
	long := strings.Repeat("é", tally.MaxMessage) // two bytes each
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"short text is kept as it is", tally.Errorf(tally.CodeInvalid, "op", "bad %s", "line"), "op: bad line"},
		{"line breaks become spaces", tally.Errorf(tally.CodeInvalid, "op", "one\ntwo\r\nthree\tfour"), "op: one two  three four"},
		{"no op, no prefix", &tally.Error{Err: errors.New("plain")}, "plain"},
		{"a long cause is cut at a character", &tally.Error{Op: "op", Err: errors.New(long)},
			"op: " + long[:tally.MaxMessage] + fmt.Sprintf("… (%d more bytes)", len(long)-tally.MaxMessage)},
		{"a nested error is bounded where it was cut, not cut again", &tally.Error{Op: "outer", Err: &tally.Error{Op: "inner", Err: errors.New(long)}},
			"outer: inner: " + long[:tally.MaxMessage] + fmt.Sprintf("… (%d more bytes)", len(long)-tally.MaxMessage)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestUserMessage: what every edge shows a person says what happened, not
// which operation of Tally's met it, however the error reached the edge.
func TestUserMessage(t *testing.T) {
	commit := tally.Errorf(tally.CodeUnavailable, "sqlite.Commit", "store /s/tally.db cannot be written")
	many := make([]error, 12)
	for i := range many {
		many[i] = fmt.Errorf("/logs/%d.jsonl: %w", i, tally.Errorf(tally.CodeNotFound, "sqlite.File", "no saved state"))
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"an operation is dropped", tally.Errorf(tally.CodeNotFound, "sqlite.Record", `no session "x"`), `no session "x"`},
		{"and every operation of a chain", &tally.Error{Op: "open store", Err: commit}, "store /s/tally.db cannot be written"},
		{"a join of one, as a scan returns it", errors.Join(nil, commit), "store /s/tally.db cannot be written"},
		{"errors joined from several files, one a line", errors.Join(commit, many[0], errors.New("/logs: permission denied")),
			"store /s/tally.db cannot be written\n/logs/0.jsonl: no saved state\n/logs: permission denied"},
		{"words around an error are kept", fmt.Errorf("reading %s: %w", "/logs/a.jsonl", commit),
			"reading /logs/a.jsonl: store /s/tally.db cannot be written"},
		{"a join inside an error", &tally.Error{Op: "scan", Err: errors.Join(commit, commit)},
			"store /s/tally.db cannot be written\nstore /s/tally.db cannot be written"},
		{"a long join is bounded", errors.Join(many...), strings.Join(func() []string {
			var l []string
			for i := range 10 {
				l = append(l, fmt.Sprintf("/logs/%d.jsonl: no saved state", i))
			}
			return append(l, "(and 2 more)")
		}(), "\n")},
		{"other errors are as they are", errors.New("permission denied"), "permission denied"},
		{"no error, no words", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tally.UserMessage(tc.err); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
