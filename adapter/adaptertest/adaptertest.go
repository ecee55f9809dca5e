package adaptertest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
)

// Fold decodes data, a whole file, the way the indexer does, and returns the
// state. chunk > 0 feeds it in pieces of that many bytes, carrying half
// lines over and recreating the decoder from its saved state between pieces,
// as a restart would.
func Fold(tb testing.TB, a tally.LineReader, fi tally.FileInfo, data []byte, chunk int) *tally.FileState {
	tb.Helper()
	st := &tally.FileState{Path: fi.Path, Agent: a.Agent(), Session: fi.Session}
	if chunk <= 0 {
		chunk = len(data) + 1
	}
	var dec tally.Decoder
	for int(st.Offset) < len(data) {
		if dec == nil || chunk <= len(data) {
			var err error
			dec, err = a.NewDecoder(fi, st.Decoder)
			if err != nil {
				tb.Fatalf("NewDecoder: %v", err)
			}
		}
		end := min(int(st.Offset)+chunk, len(data))
		before := st.Offset
		st.Feed(dec, data[st.Offset:end])
		if st.Offset == before {
			if end == len(data) {
				break // a last line with no newline: still being written
			}
			chunk *= 2
		}
	}
	return st
}

// Run checks the adapter's contract on one file (fi, data):
//   - replay: folding from offset 0 twice gives the same state;
//   - resume: folding in small pieces, with the decoder rebuilt from its
//     saved state at every piece, gives the state of one whole fold;
//   - duplicated lines (a catch-up re-read) change no list;
//   - malformed lines are counted and change nothing else;
//   - a byte that is not UTF-8 in an item's text keeps the list, and one
//     in the session's title keeps the title, the byte replaced and the
//     repair counted;
//   - a file cut mid-line leaves the half line unread.
func Run(t *testing.T, a tally.LineReader, fi tally.FileInfo, data []byte) {
	t.Helper()
	whole := Fold(t, a, fi, data, 0)
	t.Run("replay from 0 gives the same state", func(t *testing.T) {
		again := Fold(t, a, fi, data, 0)
		equalState(t, whole, again)
	})
	t.Run("resume from saved offsets gives the same state", func(t *testing.T) {
		for _, n := range []int{97, 4096} {
			pieces := Fold(t, a, fi, data, n)
			equalLists(t, whole, pieces)
		}
	})
	t.Run("every line read twice changes no list", func(t *testing.T) {
		var doubled bytes.Buffer
		for _, line := range bytes.SplitAfter(data, []byte("\n")) {
			doubled.Write(line)
			if bytes.HasSuffix(line, []byte("\n")) {
				doubled.Write(line)
			}
		}
		twice := Fold(t, a, fi, doubled.Bytes(), 0)
		equalLists(t, whole, twice)
	})
	t.Run("malformed lines are counted and skipped", func(t *testing.T) {
		bad := [][]byte{[]byte("{not json"), {0xff, 0xfe, '{', '"'}, []byte(`{"type":`)}
		var buf bytes.Buffer
		for _, b := range bad {
			buf.Write(b)
			buf.WriteByte('\n')
		}
		buf.Write(data)
		got := Fold(t, a, fi, buf.Bytes(), 0)
		if got.Stats.Malformed < whole.Stats.Malformed {
			t.Errorf("malformed = %d, want at least %d", got.Stats.Malformed, whole.Stats.Malformed)
		}
		equalLists(t, whole, got)
	})
	t.Run("a byte that is not UTF-8 in an item's text keeps the list", func(t *testing.T) {
		title := writtenTitle(whole, data)
		if title == "" {
			t.Skip("no item title is written as is in the file")
		}
		bad := title[:1] + "\xff" + title[2:]
		got := Fold(t, a, fi, bytes.ReplaceAll(data, []byte(title), []byte(bad)), 0)
		repaired := title[:1] + "\uFFFD" + title[2:]
		found := false
		for k, l := range whole.Lists {
			g := got.Lists[k]
			if g == nil || g.Len() != l.Len() {
				t.Fatalf("list %q lost items over one bad byte: %d of %d left", k, lenOf(g), l.Len())
			}
			for _, it := range g.Items() {
				found = found || strings.Contains(it.Title, repaired)
			}
		}
		if !found {
			t.Errorf("no item is titled %q, the bad byte replaced by U+FFFD", repaired)
		}
		if got.Stats.Repaired == 0 {
			t.Error("the repair was not counted")
		}
	})
	t.Run("a byte that is not UTF-8 in the session's title keeps the title", func(t *testing.T) {
		title := whole.Title
		if len(title) < 8 || !ascii(title) || !bytes.Contains(data, []byte(title)) {
			t.Skip("no session title is written as is in the file")
		}
		bad := title[:1] + "\xff" + title[2:]
		got := Fold(t, a, fi, bytes.ReplaceAll(data, []byte(title), []byte(bad)), 0)
		if want := title[:1] + "\uFFFD" + title[2:]; got.Title != want {
			t.Errorf("title %q, want %q: the bad byte replaced by U+FFFD", got.Title, want)
		}
		if got.Stats.Repaired == 0 {
			t.Error("the repair was not counted")
		}
	})
	t.Run("a half-written last line is left for the next read", func(t *testing.T) {
		if len(data) < 2 {
			t.Skip("file too short")
		}
		cut := bytes.LastIndexByte(data[:len(data)-1], '\n') + 1
		half := data[:cut+(len(data)-cut)/2]
		st := Fold(t, a, fi, half, 0)
		if st.Offset != int64(cut) {
			t.Errorf("offset after a cut file = %d, want %d (the start of the half line)", st.Offset, cut)
		}
	})
}

// Fuzz feeds arbitrary bytes to a fresh decoder; it must never panic, and
// must always consume every complete line.
func Fuzz(f *testing.F, a tally.LineReader, fi tally.FileInfo, seeds ...[]byte) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st := Fold(t, a, fi, data, 0)
		want := int64(bytes.LastIndexByte(data, '\n') + 1)
		if st.Offset != want {
			t.Fatalf("offset %d, want %d", st.Offset, want)
		}
		if _, err := json.Marshal(st); err != nil {
			t.Fatalf("state does not encode: %v", err)
		}
	})
}

// writtenTitle is the title of an item of st that data holds as is, long
// and plain enough (ASCII) that changing its second byte changes nothing
// else; "" if there is none. The runtime list is left out: its titles are
// labels Tally makes of tool calls ("Write hello.txt"), which the file may
// hold by chance as other text.
func writtenTitle(st *tally.FileState, data []byte) string {
	keys := make([]string, 0, len(st.Lists))
	for k := range st.Lists {
		if k != tally.RuntimeList {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, it := range st.Lists[k].Items() {
			if len(it.Title) >= 8 && ascii(it.Title) && bytes.Contains(data, []byte(it.Title)) {
				return it.Title
			}
		}
	}
	return ""
}

func ascii(s string) bool {
	for i := range len(s) {
		if s[i] < 0x20 || s[i] >= 0x7f || s[i] == '"' || s[i] == '\\' {
			return false
		}
	}
	return true
}

func lenOf(l *tally.List) int {
	if l == nil {
		return 0
	}
	return l.Len()
}

func equalLists(t *testing.T, want, got *tally.FileState) {
	t.Helper()
	for k, l := range want.Lists {
		g := got.Lists[k]
		if g == nil {
			if l.Len() > 0 {
				t.Errorf("list %q missing", k)
			}
			continue
		}
		if !reflect.DeepEqual(l.Items(), g.Items()) {
			t.Errorf("list %q differs:\nwant %+v\ngot  %+v", k, l.Items(), g.Items())
		}
	}
	for k, l := range got.Lists {
		if want.Lists[k] == nil && l.Len() > 0 {
			t.Errorf("unexpected list %q: %+v", k, l.Items())
		}
	}
	if want.Project != got.Project || want.Title != got.Title || !want.LastAt.Equal(got.LastAt) {
		t.Errorf("session facts differ: want %q %q %v, got %q %q %v",
			want.Project, want.Title, want.LastAt, got.Project, got.Title, got.LastAt)
	}
}

func equalState(t *testing.T, want, got *tally.FileState) {
	t.Helper()
	w, _ := json.Marshal(want)
	g, _ := json.Marshal(got)
	if !bytes.Equal(w, g) {
		t.Errorf("states differ:\nwant %s\ngot  %s", w, g)
	}
}
