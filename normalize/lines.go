package normalize

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// lineReader splits a stream into lines holding at most max bytes of one
// line in memory. A longer line is read through and reported by its length.
//
// An input that is a JSON document rather than JSON Lines (its first line
// is a lone "{" or "[", as a pretty-printer writes it: a JSON Lines line is
// never that) is read whole, up to max bytes, and each JSON value in it —
// each element of a top-level array — becomes one line, compacted. A
// document that is not JSON is one malformed line.
type lineReader struct {
	r   *bufio.Reader
	buf []byte
	max int
	eof bool
	// begun is set once a line that is not blank was read: only the
	// first tells a document.
	begun bool
	// values are the lines a document was split into, not yet returned.
	values [][]byte
}

func newLineReader(in io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(in, 64<<10), max: max}
}

// next returns the next line with its newline (one is added to a last line
// that lacks it), or, for a line over the limit, nil and its length.
func (lr *lineReader) next() (line []byte, skipped int64, err error) {
	if len(lr.values) > 0 {
		line, lr.values = lr.values[0], lr.values[1:]
		return line, 0, nil
	}
	line, skipped, err = lr.line()
	if lr.begun || err != nil || skipped > 0 || len(bytes.TrimSpace(line)) == 0 {
		return line, skipped, err
	}
	lr.begun = true
	if t := bytes.TrimSpace(line); len(t) == 1 && (t[0] == '{' || t[0] == '[') {
		return lr.document(line)
	}
	return line, 0, nil
}

// document reads the rest of a JSON document that began with first, and
// returns its first value as a line (the others are kept in values).
func (lr *lineReader) document(first []byte) ([]byte, int64, error) {
	doc := bytes.Clone(first)
	rest, err := io.ReadAll(io.LimitReader(lr.r, int64(lr.max-len(doc)+1)))
	if err != nil {
		return nil, 0, err
	}
	doc = append(doc, rest...)
	if len(doc) > lr.max {
		n, err := io.Copy(io.Discard, lr.r)
		lr.eof = true
		return nil, int64(len(doc)) + n, err
	}
	lr.eof = true
	values, ok := splitValues(doc)
	if !ok {
		// One malformed line, on one line: its newlines would read as
		// lines of their own.
		return append(bytes.ReplaceAll(bytes.TrimSpace(doc), []byte("\n"), []byte(" ")), '\n'), 0, nil
	}
	if len(values) == 0 {
		return nil, 0, io.EOF
	}
	lr.values = values[1:]
	return values[0], 0, nil
}

// splitValues is every JSON value of doc, each element of a top-level
// array on its own, compacted to one line; false if doc is not a sequence
// of JSON values.
func splitValues(doc []byte) ([][]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	var out [][]byte
	add := func(v json.RawMessage) bool {
		var b bytes.Buffer
		if json.Compact(&b, v) != nil {
			return false
		}
		out = append(out, append(b.Bytes(), '\n'))
		return true
	}
	for {
		var v json.RawMessage
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return out, true
		}
		if err != nil {
			return nil, false
		}
		if t := bytes.TrimSpace(v); len(t) > 0 && t[0] == '[' {
			var elems []json.RawMessage
			if json.Unmarshal(t, &elems) != nil {
				return nil, false
			}
			for _, e := range elems {
				if !add(e) {
					return nil, false
				}
			}
			continue
		}
		if !add(v) {
			return nil, false
		}
	}
}

// line reads the next line of the input as it is.
func (lr *lineReader) line() (line []byte, skipped int64, err error) {
	if lr.eof {
		return nil, 0, io.EOF
	}
	if cap(lr.buf) > 1<<20 {
		lr.buf = nil // one huge line must not pin its buffer for the rest of the stream
	}
	lr.buf = lr.buf[:0]
	for {
		frag, err := lr.r.ReadSlice('\n')
		switch {
		case skipped > 0:
			skipped += int64(len(frag))
		case len(lr.buf)+len(frag) > lr.max:
			skipped = int64(len(lr.buf) + len(frag))
			lr.buf = lr.buf[:0]
		default:
			lr.buf = grow(lr.buf, len(frag), lr.max)
			lr.buf = append(lr.buf, frag...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, 0, err
		}
		if err != nil { // io.EOF: the stream ended, maybe mid-line
			lr.eof = true
			if skipped == 0 && len(lr.buf) == 0 {
				return nil, 0, io.EOF
			}
			if skipped == 0 {
				lr.buf = append(lr.buf, '\n')
			}
		}
		if skipped > 0 {
			return nil, skipped, nil
		}
		return lr.buf, 0, nil
	}
}

// grow makes room for n more bytes, doubling (append grows large slices by
// only a quarter, which would copy a long line many times over).
func grow(b []byte, n, limit int) []byte {
	if len(b)+n <= cap(b) {
		return b
	}
	nb := make([]byte, len(b), min(max(2*cap(b), len(b)+n, 4096), limit+1))
	copy(nb, b)
	return nb
}
