package gemini

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

func TestAdapter_Contract(t *testing.T) {
	a := New(Options{Home: t.TempDir()})
	for _, f := range fixtureFiles(t) {
		t.Run(filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(f.path))))+"/"+filepath.Base(f.path), func(t *testing.T) {
			adaptertest.Run(t, a, f.info, read(t, f.path))
		})
	}
}

func FuzzDecoder(f *testing.F) {
	var seeds [][]byte
	for _, lf := range fixtureFiles(f) {
		for _, l := range adaptertest.Lines(read(f, lf.path)) {
			if kindOf(l) != kindMessage || mayHoldList(l) {
				seeds = append(seeds, append(append([]byte(nil), l...), '\n'))
			}
		}
	}
	seeds = append(seeds, read(f, "testdata/built-rewind.jsonl"), read(f, "testdata/built-checkpoint.jsonl"))
	adaptertest.Fuzz(f, New(Options{Home: f.TempDir()}), tally.FileInfo{Path: "fuzz.jsonl", Session: "fuzz"}, seeds...)
}

// FuzzWhole feeds arbitrary documents as a legacy whole record, read as
// a stream: it must never panic, and the stream cut anywhere (one byte at
// a time) must read as the document given whole.
func FuzzWhole(f *testing.F) {
	f.Add(read(f, "testdata/built-legacy-long.json"))
	f.Add(read(f, "testdata/built-legacy-short.json"))
	f.Add([]byte(`{"sessionId":null,"messages":null,"other":[{"deep":[1,2,{"x":"y"}]}]}`))
	a := New(Options{Home: f.TempDir()})
	fi := tally.FileInfo{Path: "fuzz.json", Session: "fuzz", Layout: tally.LayoutWhole}
	fold := func(t *testing.T, feed func(*tally.FileState, tally.WholeReader) []tally.Diagnostic) ([]byte, int) {
		st := &tally.FileState{Path: fi.Path, Agent: a.Agent(), Session: fi.Session}
		dec, err := a.NewDecoder(fi, nil)
		if err != nil {
			t.Fatal(err)
		}
		diags := feed(st, dec.(tally.WholeReader))
		js, err := json.Marshal(st)
		if err != nil {
			t.Fatalf("state does not encode: %v", err)
		}
		return js, len(diags)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		whole, wd := fold(t, func(st *tally.FileState, dec tally.WholeReader) []tally.Diagnostic {
			_, d := st.FeedWhole(dec, data)
			return d
		})
		stream, sd := fold(t, func(st *tally.FileState, dec tally.WholeReader) []tally.Diagnostic {
			_, d := st.FeedWholeFrom(dec, iotest.OneByteReader(bytes.NewReader(data)), int64(len(data)))
			return d
		})
		if !bytes.Equal(whole, stream) || wd != sd {
			t.Fatalf("read a byte at a time:\n%s (%d problems)\nread whole:\n%s (%d problems)", stream, sd, whole, wd)
		}
	})
}

// TestDecoder_Malformed: a selected line that is not usable, or any line
// not shaped like a JSON object, is reported as CodeInvalid and emits
// nothing; object-shaped junk the prefilter rejects is not parsed.
func TestDecoder_Malformed(t *testing.T) {
	tests := []struct {
		name string
		line string
		bad  bool
	}{
		{"truncated message naming write_todos", `{"id":"g1","type":"gemini","toolCalls":[{"name":"write_todos"`, true},
		{"todos not an array", `{"id":"g1","type":"gemini","toolCalls":[{"id":"w","name":"write_todos","status":"success","args":{"todos":{}}}]}`, true},
		{"rewind target not a string", `{"$rewindTo":7}`, true},
		{"checkpoint messages not an array", `{"$set":{"messages":3}}`, true},
		{"stream tool_use with bad todos", `{"type":"tool_use","tool_name":"write_todos","tool_id":"x","parameters":{"todos":[1]}}`, true},
		{"a JSON array, not an object", `["write_todos"]`, true},
		{"random bytes, not shaped like a JSON object", "\x89PNG\r\x1a\x00\xff", true},
		{"junk shaped like an object that the prefilter rejects", "{not json at all}", false},
		{"a failed call is not an error", `{"id":"g1","type":"gemini","toolCalls":[{"id":"w","name":"write_todos","status":"error","args":{"todos":7}}]}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := newDecoder(tally.FileInfo{Path: "m.jsonl"}, nil)
			d.st.HaveTitle = true
			n := 0
			err := d.Line([]byte(tt.line), 42, func(ev tally.Event) {
				if ev.Kind != tally.EventMeta {
					n++
				}
			})
			if (err != nil) != tt.bad {
				t.Fatalf("err = %v, want error: %v", err, tt.bad)
			}
			if err != nil && tally.ErrorCode(err) != tally.CodeInvalid {
				t.Errorf("code %v, want invalid", tally.ErrorCode(err))
			}
			if n != 0 {
				t.Errorf("%d list events emitted", n)
			}
		})
	}
}

// TestDecoder_PrefilterSkipsMost: most lines of a real record never reach
// the parser.
func TestDecoder_PrefilterSkipsMost(t *testing.T) {
	p := filepath.Join(captured, "write-todos/gemini_home/tmp/work/chats/session-2026-11-22T14-06-1564209c.jsonl")
	data := read(t, p)
	st := foldAll(t, New(Options{Home: t.TempDir()}), tally.FileInfo{Path: p, Session: "s"}, data)
	n := int64(bytes.Count(data, []byte("\n")))
	if st.Stats.Parsed*2 > n {
		t.Errorf("parsed %d of %d lines", st.Stats.Parsed, n)
	}
}
