package tally

import (
	"bytes"
	"fmt"
	"io"
)

// MaxRecentLines bounds how many of the newest lines Feed offers a Recenter.
const MaxRecentLines = 64

// MaxDiagnostics bounds the diagnostics one Feed call returns; all problems
// are counted in Stats whatever this bound.
const MaxDiagnostics = 16

// Feed folds the complete lines of chunk into f using dec. chunk holds the
// file's bytes from f.Offset on. Feed consumes up to and including the last
// newline and advances f.Offset by that much; bytes after it are a line
// still being written, left for the next read. It is the one loop every
// reader of logs uses — the indexer, normalize, and the adapter test suite.
//
// Feed ends a read: it gives the newest lines to a Recenter and saves the
// decoder's state. A reader with more chunks to come calls FeedLines for
// all but the last, so that work is done once per read, not per chunk.
func (f *FileState) Feed(dec Decoder, chunk []byte) (changed bool, diags []Diagnostic) {
	changed, diags = f.FeedLines(dec, chunk)
	settled, more := f.Settle(dec, chunk)
	return settled || changed, append(diags, more...)
}

// Settle ends a read that FeedLines did in pieces: newest holds the last
// lines folded, whole, the newest last. It gives the newest lines to a
// Recenter and saves the decoder's state. What the fold repaired in the
// Recenter's events is reported at the offset the read ended.
func (f *FileState) Settle(dec Decoder, newest []byte) (changed bool, diags []Diagnostic) {
	if rc, ok := dec.(Recenter); ok {
		if end := bytes.LastIndexByte(newest, '\n'); end >= 0 {
			recent(rc, newest[:end+1], func(ev Event) {
				if f.Apply(ev) {
					changed = true
				}
			})
		}
		if d, ok := f.TakeRepairs(f.Offset); ok {
			diags = append(diags, d)
		}
	}
	f.Decoder = dec.State()
	return changed, diags
}

// FeedLines is Feed without the end of a read.
func (f *FileState) FeedLines(dec Decoder, chunk []byte) (changed bool, diags []Diagnostic) {
	end := bytes.LastIndexByte(chunk, '\n')
	if end < 0 {
		return false, nil
	}
	data := chunk[:end+1]
	if pc, ok := dec.(ParseCounter); ok {
		before := pc.Parsed()
		defer func() { f.Stats.Parsed += pc.Parsed() - before }()
	}
	turner, _ := dec.(Turner)
	emit := func(ev Event) {
		if f.Apply(ev) {
			changed = true
		}
	}
	for pos := 0; pos < len(data); {
		nl := bytes.IndexByte(data[pos:], '\n')
		line := data[pos : pos+nl]
		off := f.Offset + int64(pos)
		pos += nl + 1
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		f.Stats.Lines++
		if turner != nil && turner.Turn(line) {
			f.Turns++
		}
		if err := dec.Line(line, off, emit); err != nil {
			f.Stats.Malformed++
			if len(diags) < MaxDiagnostics {
				diags = append(diags, Diagnostic{Path: f.Path, Offset: off, Msg: err.Error()})
			}
		}
		if d, ok := f.TakeRepairs(off); ok && len(diags) < MaxDiagnostics {
			diags = append(diags, d)
		}
	}
	f.Offset += int64(len(data))
	f.Stats.Bytes += int64(len(data))
	return changed, diags
}

func recent(rc Recenter, data []byte, emit func(Event)) {
	end := len(data) - 1 // the final newline
	for n := 0; n < MaxRecentLines && end > 0; n++ {
		start := bytes.LastIndexByte(data[:end], '\n') + 1
		line := bytes.TrimRight(data[start:end], "\r")
		if len(line) > 0 && rc.Recent(line, emit) {
			return
		}
		end = start - 1
	}
}

// SkipLine records a line of length bytes (newline included) at f.Offset
// that the reader refused to hold in memory, being longer than its limit. It
// is counted like any malformed line and reading goes on after it.
func (f *FileState) SkipLine(length int64) Diagnostic {
	off := f.Offset
	f.Offset += length
	f.Stats.Lines++
	f.Stats.Malformed++
	f.Stats.Bytes += length
	return Diagnostic{Path: f.Path, Offset: off, Msg: fmt.Sprintf("line of %d bytes is over the line limit; skipped", length)}
}

// FeedWhole folds a file that is rewritten rather than appended to (laid
// out as LayoutWhole): the state is reset and data, the whole file, is
// given to the decoder as one "line" at offset 0.
func (f *FileState) FeedWhole(dec Decoder, data []byte) (changed bool, diags []Diagnostic) {
	return f.feedWhole(dec, int64(len(data)), func(emit func(Event)) error { return dec.Line(data, 0, emit) })
}

// FeedWholeFrom is FeedWhole for a decoder that reads the document from r
// itself, a part at a time; size is the document's length.
func (f *FileState) FeedWholeFrom(dec WholeReader, r io.Reader, size int64) (changed bool, diags []Diagnostic) {
	return f.feedWhole(dec, size, func(emit func(Event)) error { return dec.ReadWhole(r, emit) })
}

func (f *FileState) feedWhole(dec Decoder, size int64, read func(emit func(Event)) error) (changed bool, diags []Diagnostic) {
	stats := f.Stats
	f.Reset()
	f.Stats = Stats{Resets: stats.Resets}
	f.Stats.Lines = 1
	emit := func(ev Event) {
		if f.Apply(ev) {
			changed = true
		}
	}
	if err := read(emit); err != nil {
		f.Stats.Malformed++
		diags = append(diags, Diagnostic{Path: f.Path, Msg: err.Error()})
	}
	if d, ok := f.TakeRepairs(0); ok {
		diags = append(diags, d)
	}
	f.Offset = size
	f.Stats.Bytes = size
	f.Decoder = dec.State()
	return true, diags
}
