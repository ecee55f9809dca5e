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
		// Not markers.
		{"uppercase keyword", "Progress: T001 done", nil},
		{"uppercase verb", "progress: T001 DONE", nil},
		{"mid-line mention", "work in progress: T001 done", nil},
		{"unknown verb", "progress: T001 finished", nil},
		{"trailing text", "progress: T001 done.", nil},
		{"no id", "progress: done", nil},
		{"empty step", "progress: T001. done", nil},
		{"no verb", "progress: T001", nil},
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
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Maybe(data), bytes.Contains(data, keyword); got != want {
			t.Fatalf("Maybe(%q) = %v, but the keyword is there: %v", data, got, want)
		}
		for _, m := range Scan(data) {
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
