package marker

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tallyhq/tally"
)

func TestScan(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []tally.Marker
	}{
		// The design's own examples: each message ends with its marker.
		{"start a task", "开始实现用户认证模块。\n\n首先设计 API 结构。\n\nprogress: T001 start\n",
			[]tally.Marker{{Task: "T001", Verb: "start"}}},
		{"complete a step", "API 设计完成，文档已更新到 docs/api/auth.md。\n\nprogress: T001.S1 done",
			[]tally.Marker{{Task: "T001", Step: "S1", Verb: "done"}}},
		{"blocked with a reason", "需要 API key 才能继续。\n\nprogress: T001.S2 blocked: waiting for API key\n",
			[]tally.Marker{{Task: "T001", Step: "S2", Verb: "blocked", Reason: "waiting for API key"}}},
		{"promoted quick task", "progress: T001 promoted", []tally.Marker{{Task: "T001", Verb: "promoted"}}},
		// Several markers in one message, applied in order.
		{"several per message", "<TO_USER>\nS1 和 S2 都完成了，开始 S3。\n\nprogress: T001.S1 done\nprogress: T001.S2 done\n</TO_USER>",
			[]tally.Marker{{Task: "T001", Step: "S1", Verb: "done"}, {Task: "T001", Step: "S2", Verb: "done"}}},
		// The defining pattern has \s* after the colon and \s+ before the verb.
		{"no space after the colon", "progress:T003.S2 done", []tally.Marker{{Task: "T003", Step: "S2", Verb: "done"}}},
		{"tabs and extra spaces", "  progress:\tT003.S2 \t done  \r\n", []tally.Marker{{Task: "T003", Step: "S2", Verb: "done"}}},
		{"reason without a space", "progress: T1 blocked:disk full", []tally.Marker{{Task: "T1", Verb: "blocked", Reason: "disk full"}}},
		{"blocked without a reason", "progress: T1.S1 blocked", []tally.Marker{{Task: "T1", Step: "S1", Verb: "blocked"}}},
		// Not markers, nor meant as ones.
		{"mid-line mention", "work in progress: T001 done", nil},
		{"no id", "progress: done", nil},
		{"prose after the keyword", "Progress: all tests pass", nil},
		{"a quoted mention", "the protocol asks for `progress: T001 done` lines", nil},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Scan([]byte(tt.text))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Scan(%q) = %+v, want %+v", tt.text, got, tt.want)
			}
		})
	}
}

// TestScan_theFormsAgentsWriteAroundAMarkerAreMarkers: the protocol shows
// markers as code, agents write them as list items and capitalise the
// keyword; none of that leaves a doubt about what the line says.
func TestScan_theFormsAgentsWriteAroundAMarkerAreMarkers(t *testing.T) {
	want := []tally.Marker{{Task: "T002", Step: "S2", Verb: "done"}}
	for _, text := range []string{
		"`progress: T002.S2 done`",
		"Done.\n\n`progress: T002.S2 done`\n",
		"- progress: T002.S2 done",
		"* progress: T002.S2 done",
		"+ progress: T002.S2 done",
		"• progress: T002.S2 done",
		"1. progress: T002.S2 done",
		"2) progress: T002.S2 done",
		"- `progress: T002.S2 done`",
		"` progress: T002.S2 done `",
		"Progress: T002.S2 done",
		"PROGRESS: T002.S2 done",
		"  - Progress:T002.S2   done  ",
	} {
		if got := Scan([]byte(text)); !reflect.DeepEqual(got, want) {
			t.Errorf("Scan(%q) = %+v, want %+v", text, got, want)
		}
	}
	got := Scan([]byte("- `Progress: T1.S2 blocked: no key`"))
	if len(got) != 1 || got[0].Reason != "no key" || got[0].Verb != "blocked" {
		t.Errorf("a blocked marker in a bullet and backticks: %+v", got)
	}
}

// TestScan_aLineMeantAsAMarkerThatIsNotOneIsUnrecognised: a line that
// begins with the keyword (after markup, in any case) and names a task,
// but is not a marker, is returned as unrecognised, with the line as
// written and why, so the plan's timeline can say why it did not move.
func TestScan_aLineMeantAsAMarkerThatIsNotOneIsUnrecognised(t *testing.T) {
	for _, tt := range []struct{ text, line, why string }{
		{"progress: T001 finished", "progress: T001 finished", `"finished" is not an action`},
		{"progress: T001 DONE", "progress: T001 DONE", `"DONE" is not an action`},
		{"progress: T001 done.", "progress: T001 done.", `text after the action: "."`},
		{"progress: T001. done", "progress: T001. done", "no step id after T001."},
		{"progress: T001", "progress: T001", "no action"},
		{"  **Progress:** T002.S2 done  ", "**Progress:** T002.S2 done", "it does not begin with progress:"},
		{"> progress: T002.S2 done", "> progress: T002.S2 done", "it does not begin with progress:"},
		{"`progress: T002.S2 done`.", "`progress: T002.S2 done`.", "it does not begin with progress:"},
		{"progress: T002 step 2 done", "progress: T002 step 2 done", `"step" is not an action`},
	} {
		got := Scan([]byte("Some prose.\n" + tt.text + "\n"))
		if len(got) != 1 || !got[0].Unrecognised() || got[0].Line != tt.line || !strings.Contains(got[0].Reason, tt.why) ||
			got[0].Task != "" || got[0].Verb != "" {
			t.Errorf("Scan(%q) = %+v, want one unrecognised marker %q saying %q", tt.text, got, tt.line, tt.why)
		}
	}
}

// TestMaybe_findsTheKeywordInAnyCase: the cheap check lets through every
// line Scan could find a marker in.
func TestMaybe_findsTheKeywordInAnyCase(t *testing.T) {
	for _, line := range []string{`{"text":"Progress: T1 done"}`, `{"text":"PROGRESS: T1 done"}`, `{"text":"- progress: T1 done"}`} {
		if !Maybe([]byte(line)) {
			t.Errorf("Maybe(%s) = false", line)
		}
	}
	for _, line := range []string{`{"progress":1}`, `{"text":"progres: T1 done"}`, `{"text":"pr0gress: T1"}`} {
		if Maybe([]byte(line)) {
			t.Errorf("Maybe(%s) = true", line)
		}
	}
}

// asciiLower lowers the ASCII letters of b, and nothing else.
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

func TestScan_longReasonIsCut(t *testing.T) {
	got := Scan([]byte("progress: T1 blocked: " + strings.Repeat("x", 10*MaxReason)))
	if len(got) != 1 || len(got[0].Reason) != MaxReason {
		t.Fatalf("got %d markers, reason %d bytes; want 1 marker with a %d-byte reason", len(got), len(got[0].Reason), MaxReason)
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"progress: T001.S1 done\nprogress: T001.S2 blocked: waiting for API key",
		"progress:T1 start", "progress: T1 promoted\r\n", "\xff\xfeprogress: T\xff done",
		"progress:", "progres:s:", `{"progress":1,"text":"xprogress:"}`, "::::progress",
		"- `Progress: T2.S1 done`", "**PROGRESS:** T1 done.", "1) progress: T1 finished", "• progress: T1",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Maybe(data), bytes.Contains(asciiLower(data), keyword); got != want {
			t.Fatalf("Maybe(%q) = %v, but the keyword is there: %v", data, got, want)
		}
		for _, m := range Scan(data) {
			if m.Unrecognised() {
				if m.Task != "" || m.Verb != "" || m.Reason == "" || !utf8.ValidString(m.Line) || len(m.Line) > 3*MaxReason {
					t.Fatalf("bad unrecognised marker %+v", m)
				}
				continue
			}
			if m.Task == "" || len(m.Task) > MaxID || len(m.Step) > MaxID {
				t.Fatalf("bad id in %+v", m)
			}
			if _, ok := ParseVerb(m.Verb); !ok {
				t.Fatalf("bad verb in %+v", m)
			}
			if !utf8.ValidString(m.Reason) || len(m.Reason) > 3*MaxReason {
				t.Fatalf("bad reason in %+v", m)
			}
			if !bytes.Contains(data, []byte(m.Task)) {
				t.Fatalf("task %q not in input", m.Task)
			}
		}
	})
}

func BenchmarkScan(b *testing.B) {
	msg := []byte(strings.Repeat("Some assistant prose about the change, with progress words.\n", 30) +
		"progress: T001.S1 done\nprogress: T001.S2 blocked: waiting for API key\n")
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		Scan(msg)
	}
}
