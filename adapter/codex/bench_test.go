package codex

import (
	"bytes"
	"testing"

	"github.com/tallyhq/tally"
)

// bigRollout repeats the body of a real rollout until it is about size
// bytes: mostly large response_item lines, a few plan calls.
func bigRollout(b *testing.B, size int) ([]byte, tally.FileInfo) {
	path := captures(b, "captured/codex-0.169.0/update-plan-resume/codex_home/sessions/*/*/*/rollout-*.jsonl")[0]
	a := New(Options{Home: b.TempDir()})
	data := read(b, path)
	body := data[bytes.IndexByte(data, '\n')+1:]
	out := make([]byte, 0, size+len(data))
	out = append(out, data...)
	for len(out) < size {
		out = append(out, body...)
	}
	return out, fileInfo(b, a, path)
}

// noop is the floor: Feed splitting lines and calling a decoder that does
// nothing.
type noop struct{}

func (noop) Line([]byte, int64, func(tally.Event)) error { return nil }
func (noop) State() []byte                               { return nil }

const benchChunk = 1 << 20 // what a tailer reads at once

func benchFeed(b *testing.B, data []byte, fi tally.FileInfo, newDec func() tally.Decoder) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		st := &tally.FileState{Path: fi.Path, Session: fi.Session}
		dec := newDec()
		for int(st.Offset) < len(data) {
			end := min(int(st.Offset)+benchChunk, len(data))
			st.Feed(dec, data[st.Offset:end])
		}
	}
}

func BenchmarkDecoder_Rollout(b *testing.B) {
	data, fi := bigRollout(b, 32<<20)
	a := New(Options{Home: b.TempDir()})
	b.Run("decode", func(b *testing.B) {
		benchFeed(b, data, fi, func() tally.Decoder { d, _ := a.NewDecoder(fi, nil); return d })
	})
	b.Run("read-only", func(b *testing.B) {
		benchFeed(b, data, fi, func() tally.Decoder { return noop{} })
	})
}

func BenchmarkScan(b *testing.B) {
	data, _ := bigRollout(b, 8<<20)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		for _, line := range bytes.Split(data, []byte("\n")) {
			scan(line, nil)
		}
	}
}
