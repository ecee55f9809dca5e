package gemini

import (
	"bytes"
	"testing"

	"github.com/tallyhq/tally"
)

// synthetic repeats every line-based fixture to about 50 MB. Message ids
// repeat, so it measures the decoder on re-appended records, as the ACP
// capture has them.
func synthetic(b *testing.B) []byte {
	var one bytes.Buffer
	for _, f := range fixtureFiles(b) {
		one.Write(read(b, f.path))
	}
	var buf bytes.Buffer
	for buf.Len() < 50<<20 {
		buf.Write(one.Bytes())
	}
	return buf.Bytes()
}

func BenchmarkDecode(b *testing.B) {
	data := synthetic(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		dec, _ := newDecoder(tally.FileInfo{Path: "bench.jsonl"}, nil)
		emit := func(tally.Event) {}
		for rest := data; len(rest) > 0; {
			i := bytes.IndexByte(rest, '\n')
			if i < 0 {
				break
			}
			_ = dec.Line(rest[:i], 0, emit)
			rest = rest[i+1:]
		}
	}
}

func BenchmarkReadOnly(b *testing.B) {
	data := synthetic(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		n := 0
		for rest := data; len(rest) > 0; {
			i := bytes.IndexByte(rest, '\n')
			if i < 0 {
				break
			}
			n += i
			rest = rest[i+1:]
		}
	}
}
