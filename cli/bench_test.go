package cli

import (
	"fmt"
	"io"
	"testing"

	"github.com/tallyhq/tally"
)

// BenchmarkRenderSessions is the overview's redraw: 1,000 sessions laid
// out for a terminal.
func BenchmarkRenderSessions(b *testing.B) {
	list := make([]tally.Session, 1000)
	for i := range list {
		r := exampleRecord()
		r.ID = fmt.Sprintf("%08x-0000", i)
		list[i] = r.Session(fixedNow)
	}
	o := TableOptions{Terminal: true, Width: 120, Now: fixedNow, Home: testHome}
	b.ReportAllocs()
	for b.Loop() {
		if err := RenderSessions(io.Discard, list, o); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRenderShow(b *testing.B) {
	r := exampleRecord()
	s := r.Session(fixedNow)
	o := ShowOptions{Width: 100, Now: fixedNow, Home: testHome}
	b.ReportAllocs()
	for b.Loop() {
		if err := RenderShow(io.Discard, s, o); err != nil {
			b.Fatal(err)
		}
	}
}
