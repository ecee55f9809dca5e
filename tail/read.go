package tail

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"syscall"

	"github.com/tallyhq/tally"
)

const (
	// ReadSize is how much is read at a time, and a reader's starting
	// buffer.
	ReadSize = 1 << 20
	// MaxLine is the longest line held in memory. A longer line (a tool
	// result holding a whole file, say) is skipped and counted: it cannot
	// be a todo event worth that memory, and holding it would let one
	// line decide Tally's memory use.
	MaxLine = 16 << 20
	// headLen is how many leading bytes identify a file's content.
	headLen = 256
)

// Reader reads files for one goroutine; its buffer is reused across files.
type Reader struct {
	buf     []byte
	win     []byte
	MaxLine int
}

func NewReader() *Reader { return &Reader{buf: make([]byte, ReadSize), MaxLine: MaxLine} }

// File describes a log file on disk as Stat saw it.
type File struct {
	Path string
	Size int64
	// Identity names the file object; for a file rewritten whole it also
	// names the version (size and modification time), since such a file
	// can change without growing.
	Identity string
}

// ErrNotRegular is the error for a path that is not a regular file (a
// named pipe, a device, a socket, a directory): only regular files are
// read. Opening a named pipe for reading waits for a writer, for ever if
// none comes, and would hold up every other file with it.
var ErrNotRegular = errors.New("not a regular file")

// Stat reads what Sync needs to decide whether a file changed. A path that
// is not a regular file (after following links) is ErrNotRegular.
func Stat(path string, whole bool) (File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return File{}, err
	}
	if !fi.Mode().IsRegular() {
		return File{}, notRegular(path, fi)
	}
	id := identity(fi)
	if whole {
		id = fmt.Sprintf("%s@%d:%d", id, fi.Size(), fi.ModTime().UnixNano())
		// A database in WAL mode changes in its -wal file first, and
		// readers see a commit only once the wal-index header in -shm
		// says so, a moment later and with no notification: the version
		// read is the one that header names.
		if wal, err := os.Stat(path + "-wal"); err == nil {
			id += fmt.Sprintf("+%d:%d", wal.Size(), wal.ModTime().UnixNano())
			id += fmt.Sprintf("+%x", walIndexHeader(path+"-shm"))
		}
	}
	return File{Path: path, Size: fi.Size(), Identity: id}, nil
}

// walIndexHeaderLen is the size of SQLite's wal-index header, kept twice
// at the start of the -shm file; every commit rewrites it.
const walIndexHeaderLen = 2 * 48

// walIndexHeader is a hash of a -shm file's wal-index header, 0 if there
// is none to read.
func walIndexHeader(path string) uint64 {
	f, err := open(path) // a FIFO named like one is not waited on
	if err != nil {
		return 0
	}
	defer f.Close()
	var b [walIndexHeaderLen]byte
	n, _ := f.ReadAt(b[:], 0)
	h := fnv.New64a()
	h.Write(b[:n])
	return h.Sum64()
}

// Changed tells whether there is anything to read in f for st.
func Changed(st *tally.FileState, f File, whole bool) bool {
	if st.Identity != f.Identity {
		return true
	}
	return !whole && f.Size != st.Offset
}

// Sync brings st up to date with the file: it resets st when the file was
// replaced, truncated or rewritten, then folds the bytes appended since
// st.Offset (or, for whole files, the whole file) with dec. newDec makes a
// fresh decoder after a reset. It returns the decoder to use next time.
func (r *Reader) Sync(st *tally.FileState, f File, whole bool, dec tally.Decoder, newDec func() (tally.Decoder, error)) (tally.Decoder, bool, []tally.Diagnostic, error) {
	fh, err := open(f.Path)
	if err != nil {
		return dec, false, nil, err
	}
	defer fh.Close()
	if whole {
		return r.syncWhole(st, f, fh, newDec)
	}
	reset, err := r.replaced(st, f, fh)
	if err != nil {
		return dec, false, nil, err
	}
	if reset || dec == nil {
		if reset {
			st.Reset()
		}
		if dec, err = newDec(); err != nil {
			return nil, false, nil, err
		}
	}
	st.Identity = f.Identity
	prev := st.Offset
	changed, diags, err := r.readAppended(st, fh, f.Size, dec)
	if prev < headLen && st.Offset != prev {
		st.Head = headSum(fh, st.Offset)
	}
	return dec, changed || reset, diags, err
}

// open opens a regular file for reading without ever waiting: with
// O_NONBLOCK a named pipe opens at once instead of waiting for a writer,
// and what was opened is refused unless it is a regular file (the path may
// have been replaced since Stat). On a regular file O_NONBLOCK changes
// nothing.
func open(path string) (*os.File, error) {
	fh, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := fh.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = notRegular(path, fi)
	}
	if err != nil {
		fh.Close()
		return nil, err
	}
	return fh, nil
}

func notRegular(path string, fi os.FileInfo) error {
	return fmt.Errorf("%s: %w (%v)", path, ErrNotRegular, fi.Mode().Type())
}

// replaced reports whether the bytes st was folded from are gone: another
// file now has the name, the file is shorter than the offset, or its first
// bytes differ (rewritten in place).
func (r *Reader) replaced(st *tally.FileState, f File, fh *os.File) (bool, error) {
	if st.Offset == 0 {
		return false, nil
	}
	if st.Identity != "" && st.Identity != f.Identity || f.Size < st.Offset {
		return true, nil
	}
	return headSum(fh, st.Offset) != st.Head, nil
}

func headSum(fh *os.File, offset int64) uint64 {
	n := min(offset, headLen)
	b := make([]byte, n)
	if _, err := fh.ReadAt(b, 0); err != nil && !errors.Is(err, io.EOF) {
		return 0
	}
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64() | 1 // never 0: 0 means "not taken"
}

func (r *Reader) readAppended(st *tally.FileState, fh *os.File, size int64, dec tally.Decoder) (changed bool, diags []tally.Diagnostic, err error) {
	defer r.shrink()
	from := st.Offset
	defer func() {
		if st.Offset > from && err == nil {
			settled, more := r.settle(st, fh, dec)
			changed = settled || changed
			diags = append(diags, more...)
		}
	}()
	carry := 0
	pos := st.Offset
	for pos < size {
		if carry == len(r.buf) {
			if len(r.buf) < r.MaxLine {
				r.grow()
				continue
			}
			skipped, found, err := skipLine(fh, st.Offset, size, r.buf)
			if err != nil || !found {
				return changed, diags, err // a huge line still being written
			}
			diags = append(diags, st.SkipLine(skipped))
			carry, pos = 0, st.Offset
			continue
		}
		want := min(int64(len(r.buf)-carry), size-pos)
		n, err := fh.ReadAt(r.buf[carry:carry+int(want)], pos)
		if n == 0 && err != nil {
			if errors.Is(err, io.EOF) {
				break // truncated while reading: the next Sync resets
			}
			return changed, diags, err
		}
		pos += int64(n)
		data := r.buf[:carry+n]
		start := st.Offset
		ch, d := st.FeedLines(dec, data)
		changed = changed || ch
		diags = append(diags, d...)
		rest := data[st.Offset-start:]
		carry = copy(r.buf, rest)
	}
	return changed, diags, nil
}

// skipLine finds the end of the line starting at off without holding it,
// and returns its length including the newline.
func skipLine(fh *os.File, off, size int64, buf []byte) (int64, bool, error) {
	for pos := off; pos < size; {
		n, err := fh.ReadAt(buf[:min(int64(len(buf)), size-pos)], pos)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return pos + int64(i) + 1 - off, true, nil
		}
		pos += int64(n)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, false, err
		}
		if n == 0 {
			break
		}
	}
	return 0, false, nil
}

// settleWindow is how far back from the offset settle looks for the
// newest lines.
const settleWindow = 64 << 10

// settle ends a read: the newest whole lines before the offset go to the
// decoder's Recent, and its state is saved.
func (r *Reader) settle(st *tally.FileState, fh *os.File, dec tally.Decoder) (bool, []tally.Diagnostic) {
	start := max(st.Offset-settleWindow, 0)
	if cap(r.win) < settleWindow {
		r.win = make([]byte, settleWindow)
	}
	buf := r.win[:st.Offset-start]
	if _, err := fh.ReadAt(buf, start); err != nil && !errors.Is(err, io.EOF) {
		return false, nil
	}
	if start > 0 {
		// The window's first line is cut: skip it.
		i := bytes.IndexByte(buf, '\n')
		buf = buf[i+1:]
	}
	return st.Settle(dec, buf)
}

func (r *Reader) grow() {
	nb := make([]byte, min(len(r.buf)*2, r.MaxLine))
	copy(nb, r.buf)
	r.buf = nb
}

func (r *Reader) shrink() {
	if len(r.buf) > 4*ReadSize {
		r.buf = make([]byte, ReadSize)
	}
}

// syncWhole folds a file rewritten whole. A decoder that reads the
// document from a stream (tally.WholeReader) is handed the file, whatever
// its size; another is given the file's bytes, up to MaxLine.
func (r *Reader) syncWhole(st *tally.FileState, f File, fh *os.File, newDec func() (tally.Decoder, error)) (tally.Decoder, bool, []tally.Diagnostic, error) {
	dec, err := newDec()
	if err != nil {
		return nil, false, nil, err
	}
	if wr, ok := dec.(tally.WholeReader); ok {
		changed, diags := st.FeedWholeFrom(wr, bufio.NewReaderSize(fh, 64<<10), f.Size)
		st.Identity = f.Identity
		return nil, changed, diags, nil
	}
	if f.Size > int64(r.MaxLine) {
		st.Reset()
		st.Identity = f.Identity
		return nil, true, []tally.Diagnostic{st.SkipLine(f.Size)}, nil
	}
	data, err := io.ReadAll(io.LimitReader(fh, int64(r.MaxLine)+1))
	if err != nil {
		return nil, false, nil, err
	}
	changed, diags := st.FeedWhole(dec, data)
	st.Identity = f.Identity
	return nil, changed, diags, nil
}

func (f File) String() string { return fmt.Sprintf("%s (%d bytes)", f.Path, f.Size) }
