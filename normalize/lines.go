package normalize

import (
	"bufio"
	"errors"
	"io"
)

// lineReader splits a stream into lines holding at most max bytes of one
// line in memory. A longer line is read through and reported by its length.
type lineReader struct {
	r   *bufio.Reader
	buf []byte
	max int
	eof bool
}

func newLineReader(in io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(in, 64<<10), max: max}
}

// next returns the next line with its newline (one is added to a last line
// that lacks it), or, for a line over the limit, nil and its length.
func (lr *lineReader) next() (line []byte, skipped int64, err error) {
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
