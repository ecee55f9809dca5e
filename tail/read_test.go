package tail

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// lineDecoder makes each line a one-item snapshot titled by the line, so a
// test can see exactly which lines were folded and how often.
type lineDecoder struct{ seen *[]string }

func (d lineDecoder) Line(line []byte, off int64, emit func(tally.Event)) error {
	if bytes.HasPrefix(line, []byte("bad")) {
		return tally.Errorf(tally.CodeInvalid, "test", "bad line")
	}
	*d.seen = append(*d.seen, string(line))
	emit(tally.Event{Kind: tally.EventSnapshot, Items: []tally.Item{{Title: string(line)}}})
	return nil
}

func (lineDecoder) State() []byte { return nil }

type harness struct {
	t    *testing.T
	path string
	st   *tally.FileState
	dec  tally.Decoder
	r    *Reader
	seen []string
}

func newHarness(t *testing.T) *harness {
	h := &harness{t: t, path: filepath.Join(t.TempDir(), "s.jsonl"), r: NewReader()}
	h.st = &tally.FileState{Path: h.path}
	return h
}

func (h *harness) sync() []tally.Diagnostic {
	h.t.Helper()
	f, err := Stat(h.path, false)
	if err != nil {
		h.t.Fatal(err)
	}
	dec, _, diags, err := h.r.Sync(h.st, f, false, h.dec, func() (tally.Decoder, error) { return lineDecoder{&h.seen}, nil })
	if err != nil {
		h.t.Fatal(err)
	}
	h.dec = dec
	return diags
}

func (h *harness) write(s string, flag int) {
	h.t.Helper()
	f, err := os.OpenFile(h.path, flag|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		h.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		h.t.Fatal(err)
	}
}

func TestReader_Sync_ReadsOnlyAppendedCompleteLines(t *testing.T) {
	h := newHarness(t)
	h.write("one\ntw", os.O_TRUNC)
	h.sync()
	if strings.Join(h.seen, ",") != "one" || h.st.Offset != 4 {
		t.Fatalf("seen %v offset %d: the half-written line must wait", h.seen, h.st.Offset)
	}
	h.write("o\nthree\n", os.O_APPEND)
	h.sync()
	h.sync() // nothing new: nothing read again
	if got := strings.Join(h.seen, ","); got != "one,two,three" {
		t.Fatalf("seen %q, want each line exactly once", got)
	}
}

func TestReader_Sync_TruncatedFileResetsAndRefolds(t *testing.T) {
	h := newHarness(t)
	h.write("alpha\nbeta\n", os.O_TRUNC)
	h.sync()
	h.write("gamma\n", os.O_TRUNC)
	h.sync()
	if got := strings.Join(h.seen, ","); got != "alpha,beta,gamma" {
		t.Fatalf("seen %q", got)
	}
	if h.st.Stats.Resets != 1 || h.st.Offset != 6 {
		t.Fatalf("resets %d offset %d, want 1 and 6", h.st.Stats.Resets, h.st.Offset)
	}
	if items := h.st.Lists[""].Items(); len(items) != 1 || items[0].Title != "gamma" {
		t.Fatalf("list after reset = %+v", items)
	}
}

func TestReader_Sync_RewrittenInPlaceLongerIsNoticed(t *testing.T) {
	h := newHarness(t)
	h.write("alpha\n", os.O_TRUNC)
	h.sync()
	h.write("omega\nmore\n", os.O_TRUNC) // same inode, longer: only the head tells
	h.sync()
	if got := strings.Join(h.seen, ","); got != "alpha,omega,more" {
		t.Fatalf("seen %q: a rewritten file must be folded again from 0", got)
	}
}

func TestReader_Sync_ReplacedFileIsNoticed(t *testing.T) {
	h := newHarness(t)
	h.write("alpha\n", os.O_TRUNC)
	h.sync()
	other := h.path + ".new"
	if err := os.WriteFile(other, []byte("alpha\nbeta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, h.path); err != nil {
		t.Fatal(err)
	}
	h.sync()
	if h.st.Stats.Resets != 1 {
		t.Fatalf("resets = %d: a file replaced under the same name must refold", h.st.Stats.Resets)
	}
	if got := strings.Join(h.seen, ","); got != "alpha,alpha,beta" {
		t.Fatalf("seen %q", got)
	}
}

func TestReader_Sync_OverlongLineIsSkippedAndCounted(t *testing.T) {
	h := newHarness(t)
	h.r = &Reader{buf: make([]byte, 64), MaxLine: 256}
	h.write("a\n"+strings.Repeat("x", 1000)+"\nb\n", os.O_TRUNC)
	diags := h.sync()
	if got := strings.Join(h.seen, ","); got != "a,b" {
		t.Fatalf("seen %q", got)
	}
	if h.st.Stats.Malformed != 1 || len(diags) != 1 || !strings.Contains(diags[0].Msg, "limit") {
		t.Fatalf("malformed %d diags %v", h.st.Stats.Malformed, diags)
	}
	if h.st.Offset != int64(2+1001+2) {
		t.Fatalf("offset %d", h.st.Offset)
	}
	if len(h.r.buf) > 256 {
		t.Fatalf("buffer grew to %d past MaxLine", len(h.r.buf))
	}
}

func TestReader_Sync_MalformedLinesAreCountedNotFatal(t *testing.T) {
	h := newHarness(t)
	h.write("a\nbad one\nb\n", os.O_TRUNC)
	diags := h.sync()
	if got := strings.Join(h.seen, ","); got != "a,b" || h.st.Stats.Malformed != 1 || len(diags) != 1 || diags[0].Offset != 2 {
		t.Fatalf("seen %q malformed %d diags %+v", got, h.st.Stats.Malformed, diags)
	}
}

func BenchmarkReader_Sync(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "big.jsonl")
	line := `{"type":"assistant","message":{"content":[{"type":"text","text":"` + strings.Repeat("lorem ipsum ", 40) + `"}]}}` + "\n"
	data := []byte(strings.Repeat(line, 100000))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	r := NewReader()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		st := &tally.FileState{Path: path}
		f, _ := Stat(path, false)
		if _, _, _, err := r.Sync(st, f, false, nopDecoder{}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

type nopDecoder struct{}

func (nopDecoder) Line([]byte, int64, func(tally.Event)) error { return nil }
func (nopDecoder) State() []byte                               { return nil }

// TestReader_Sync_APipeIsNeverOpenedForReading: opening a named pipe for
// reading waits for a writer, for ever if none comes. Stat refuses
// anything but a regular file, and Sync, handed a path that became a pipe
// after Stat, returns at once.
func TestReader_Sync_APipeIsNeverOpenedForReading(t *testing.T) {
	h := newHarness(t)
	h.write("one\n", os.O_TRUNC)
	f, err := Stat(h.path, false)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(h.path)
	if err := syscall.Mkfifo(h.path, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // a reader stuck in open goes when a writer comes
		if w, err := os.OpenFile(h.path, os.O_RDWR, 0); err == nil {
			w.Close()
		}
	})
	if _, err := Stat(h.path, false); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Stat of a pipe: %v, want ErrNotRegular", err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, _, err := h.r.Sync(h.st, f, false, nil, func() (tally.Decoder, error) { return lineDecoder{&h.seen}, nil })
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("Sync of a pipe: %v, want ErrNotRegular", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Sync is waiting in open for a writer to the pipe")
	}
}

// streamDecoder reads a whole document as a stream, counting its bytes.
type streamDecoder struct{ read *int }

func (streamDecoder) Line([]byte, int64, func(tally.Event)) error { return errors.New("given whole") }
func (streamDecoder) State() []byte                               { return nil }
func (d streamDecoder) ReadWhole(r io.Reader, emit func(tally.Event)) error {
	n, err := io.Copy(io.Discard, r)
	*d.read = int(n)
	emit(tally.Event{Kind: tally.EventSnapshot, Items: []tally.Item{{Title: "read"}}})
	return err
}

// TestReader_Sync_AWholeDocumentOverTheLineLimitIsStreamed: a file
// rewritten whole is a document, not a line: a decoder that reads it as a
// stream is handed the file, whatever its size.
func TestReader_Sync_AWholeDocumentOverTheLineLimitIsStreamed(t *testing.T) {
	h := newHarness(t)
	h.r = &Reader{buf: make([]byte, 64), MaxLine: 256}
	h.write(strings.Repeat("x", 1000), os.O_TRUNC)
	f, err := Stat(h.path, true)
	if err != nil {
		t.Fatal(err)
	}
	var read int
	_, _, diags, err := h.r.Sync(h.st, f, true, nil, func() (tally.Decoder, error) { return streamDecoder{&read}, nil })
	if err != nil || len(diags) > 0 {
		t.Fatalf("err %v, diagnostics %v", err, diags)
	}
	if read != 1000 || h.st.Lists[""].Len() != 1 || h.st.Stats.Malformed != 0 {
		t.Errorf("read %d bytes, list %v, malformed %d: the document was not handed whole", read, h.st.Lists[""], h.st.Stats.Malformed)
	}
}
