package claude

import (
	"bytes"
	"testing"

	"github.com/tallyhq/tally"
)

func allFixtureBytes(b *testing.B) []byte {
	var buf bytes.Buffer
	for _, f := range fixtureFiles(b) {
		buf.Write(read(b, f.path))
	}
	return buf.Bytes()
}

// synthetic repeats the fixture lines to about 50 MB. Tool ids repeat, so
// the fold dedups them: the cost measured is the decoder's, as on a real
// file.
func synthetic(b *testing.B) []byte {
	one := allFixtureBytes(b)
	var buf bytes.Buffer
	for buf.Len() < 50<<20 {
		buf.Write(one)
	}
	return buf.Bytes()
}

func benchDecode(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		dec, _ := newDecoder(tally.FileInfo{Path: "bench.jsonl"}, nil)
		n := 0
		emit := func(tally.Event) { n++ }
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

func benchRead(b *testing.B, data []byte) {
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

func BenchmarkDecode(b *testing.B) {
	b.Run("fixtures", func(b *testing.B) { benchDecode(b, allFixtureBytes(b)) })
	b.Run("50MB", func(b *testing.B) { benchDecode(b, synthetic(b)) })
}

func BenchmarkReadOnly(b *testing.B) {
	b.Run("fixtures", func(b *testing.B) { benchRead(b, allFixtureBytes(b)) })
	b.Run("50MB", func(b *testing.B) { benchRead(b, synthetic(b)) })
}

// BenchmarkCallEvents is the cost of fingerprinting every tool call of
// the fixtures, per byte of transcript.
func BenchmarkCallEvents(b *testing.B) {
	data := allFixtureBytes(b)
	lines := bytes.Split(data, []byte("\n"))
	d, _ := newDecoder(tally.FileInfo{Path: "bench.jsonl"}, nil)
	b.SetBytes(int64(len(data)))
	n := 0
	emit := func(tally.Event) { n++ }
	for b.Loop() {
		for _, l := range lines {
			if len(l) > 0 {
				d.callEvents(l, d.lookAt(l), emit)
			}
		}
	}
	b.ReportMetric(float64(n)/float64(b.N), "calls/op")
}
