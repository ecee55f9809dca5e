package gemini

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// The built fixtures follow Gemini CLI's chat recording format, as its
// chatRecordingService.ts writes it: message records, re-appended ids,
// $set, $rewindTo. Each step's expected
// list is what Gemini CLI's own loader would hold as the latest successful
// write_todos after that line.

var (
	listA = []want{{"Plan the change", "in_progress"}, {"Write the code", "pending"}}
	listB = []want{{"Plan the change", "completed"}, {"Write the code", "in_progress"}, {"Test it", "pending"}}
	listC = []want{{"Read the spec", "completed"}, {"Draft", "in_progress"}}
	listD = []want{{"Read the spec", "completed"}, {"Draft", "completed"}, {"Review", "in_progress"}}
	listE = []want{{"Compressed step", "in_progress"}}
	listF = []want{{"After checkpoint", "pending"}}
	listS = []want{{"Blocked on review", "blocked"}, {"Someday maybe", "someday"}, {"Done", "completed"}, {"Dropped", "cancelled"}}
	empty = []want{}
)

func TestChat_BuiltSequences(t *testing.T) {
	tests := []struct {
		file string
		// after[n] is the list after line n (1-based).
		after map[int][]want
	}{
		{"built-rewind.jsonl", map[int][]want{
			4:  listA,
			8:  listB,
			11: listA, // $rewindTo u2 removes g2: back to g1's list
			12: listA,
			14: empty, // $rewindTo u1 removes g1 too
			16: empty,
		}},
		{"built-reappend.jsonl", map[int][]want{
			3:  empty, // g1 before its tool calls are known
			5:  listA, // g1 again, with w1
			8:  listC, // g1 again, with w1 and w2: the last call wins
			11: listC, // g1 again with a failed w3: the list did not change
			13: listD, // gX with w9
			15: listC, // gX again without calls: the last record wins, g1 decides again
		}},
		{"built-checkpoint.jsonl", map[int][]want{
			3: listA,
			5: listE, // $set.messages replaces g1 with gE
			6: empty, // a checkpoint without any list
			7: listF,
			9: empty, // rewind to the checkpoint's first message
		}},
		{"built-statuses.jsonl", map[int][]want{3: listS}},
		{"built-stream-error.jsonl", map[int][]want{
			4: listA,
			6: listA, // the failed call left the list as it was
			8: listS,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			p := filepath.Join("testdata", tt.file)
			f := newFolder(t, tally.FileInfo{Path: p, Session: "s"})
			for i, line := range adaptertest.Lines(read(t, p)) {
				if d := f.Feed(line); len(d) > 0 {
					t.Fatalf("line %d: %v", i+1, d)
				}
				if exp, ok := tt.after[i+1]; ok {
					sameItems(t, tt.file+" after line "+itoa(i+1), f.List(""), exp)
				}
			}
		})
	}
}

func itoa(n int) string { return string(rune('0'+n/10)) + string(rune('0'+n%10)) }

// TestChat_StatusesKept: blocked is Gemini's own status and is kept as
// such; a word Tally does not know is shown as written, not as pending.
func TestChat_StatusesKept(t *testing.T) {
	p := "testdata/built-statuses.jsonl"
	st := foldAll(t, New(Options{Home: t.TempDir()}), tally.FileInfo{Path: p, Session: "s"}, read(t, p))
	items := st.Lists[""].Items()
	if items[0].Status != tally.StatusBlocked {
		t.Errorf("blocked item has status %v", items[0].Status)
	}
	if items[1].Status != tally.StatusUnknown || items[1].RawStatus != "someday" {
		t.Errorf("unknown word: status %v raw %q, want unknown/someday", items[1].Status, items[1].RawStatus)
	}
	p2 := tally.ProgressOf(tally.DeriveBlocked(items))
	if p2.Blocked != 1 || p2.Done != 1 || p2.Total != 3 {
		t.Errorf("progress %+v, want 1 of 3 done (cancelled not counted), 1 blocked", p2)
	}
}

// TestLegacy_RewrittenWhole: a legacy .json record rewritten with a longer
// and then a shorter list; each FeedWhole shows the file as it is now.
func TestLegacy_RewrittenWhole(t *testing.T) {
	home := t.TempDir()
	a := New(Options{Home: home})
	path := filepath.Join(home, "tmp", "proj", "chats", "session-2026-11-23T10-00-legacy00.json")
	fi, ok := a.Match(a.Roots()[0], path)
	if !ok || fi.Layout != tally.LayoutWhole || fi.Session != "legacy00" {
		t.Fatalf("Match = %+v, %v; want a Whole file of session legacy00", fi, ok)
	}
	st := &tally.FileState{Path: path, Agent: a.Agent(), Session: fi.Session}
	feed := func(name string) {
		t.Helper()
		dec, err := a.NewDecoder(fi, st.Decoder)
		if err != nil {
			t.Fatal(err)
		}
		if _, d := st.FeedWhole(dec, read(t, filepath.Join("testdata", name))); len(d) > 0 {
			t.Fatalf("%s: %v", name, d)
		}
	}
	feed("built-legacy-long.json")
	sameItems(t, "long", st.Lists[""].Items(), listB)
	if st.Title != "Legacy summary" || st.TitleWeak {
		t.Errorf("title %q weak=%v, want the summary", st.Title, st.TitleWeak)
	}
	if st.Signal != tally.SignalWaiting || st.LastAt.Format("15:04") != "10:04" {
		t.Errorf("signal %v at %v, want waiting at lastUpdated 10:04", st.Signal, st.LastAt)
	}
	if st.Project != "proj" {
		t.Errorf("project %q, want the project directory's name", st.Project)
	}
	feed("built-legacy-short.json")
	sameItems(t, "short", st.Lists[""].Items(), []want{{"Only step", "completed"}})
	if st.Title != "Legacy request" || !st.TitleWeak {
		t.Errorf("title %q weak=%v, want the first prompt, weak", st.Title, st.TitleWeak)
	}
	feed("built-legacy-long.json")
	sameItems(t, "long again", st.Lists[""].Items(), listB)
}

// TestChat_CheckpointSummary: a $set summary is a real title.
func TestChat_CheckpointSummary(t *testing.T) {
	p := "testdata/built-checkpoint.jsonl"
	st := foldAll(t, New(Options{Home: t.TempDir()}), tally.FileInfo{Path: p, Session: "s"}, read(t, p))
	if st.Title != "Checkpointed session" || st.TitleWeak {
		t.Errorf("title %q weak=%v", st.Title, st.TitleWeak)
	}
}

// legacyStream generates a legacy record of about size bytes, never held
// whole: filler messages, then the messages of built-legacy-long.json
// (the todo calls among them). peak is the most heap in use seen while it
// was read.
type legacyStream struct {
	parts [][]byte
	buf   []byte
	left  int
	n     int
	peak  uint64
	read  int
}

func newLegacyStream(t testing.TB, size int) *legacyStream {
	var rec struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(read(t, "testdata/built-legacy-long.json"), &rec); err != nil {
		t.Fatal(err)
	}
	s := &legacyStream{left: size}
	s.buf = []byte(`{"sessionId":"legacy00-0000-4000-8000-000000000006","startTime":"2026-11-23T10:00:00.000Z","lastUpdated":"2026-11-23T10:04:00.000Z","summary":"Legacy summary","messages":[`)
	for _, m := range rec.Messages {
		s.parts = append(s.parts, append([]byte(","), m...))
	}
	s.parts = append(s.parts, []byte("]}"))
	return s
}

func (s *legacyStream) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		switch {
		case s.left > 0:
			sep := ","
			if s.n == 0 {
				sep = ""
			}
			s.buf = fmt.Appendf(nil, `%s{"id":"filler-%d","timestamp":"2026-11-23T10:00:30.000Z","type":"gemini","content":"%s"}`, sep, s.n, strings.Repeat("lorem ipsum ", 1000))
			s.left -= len(s.buf)
			s.n++
		case len(s.parts) > 0:
			s.buf, s.parts = s.parts[0], s.parts[1:]
		default:
			return 0, io.EOF
		}
	}
	n := copy(p, s.buf)
	s.buf = s.buf[n:]
	if s.read += n; s.read > 1<<20 {
		s.read = 0
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		s.peak = max(s.peak, ms.HeapInuse)
	}
	return n, nil
}

// TestLegacy_ARecordOverTheLineLimitIsReadAsAStream: a legacy record is a
// document, not a line: one over tail.MaxLine (16 MiB) is read a message
// at a time, its memory bounded by a message, not by the file.
func TestLegacy_ARecordOverTheLineLimitIsReadAsAStream(t *testing.T) {
	const size = 24 << 20
	a := New(Options{Home: t.TempDir()})
	fi := tally.FileInfo{Path: "session-2026-11-23T10-00-legacy00.json", Session: "legacy00", Layout: tally.LayoutWhole}
	dec, err := a.NewDecoder(fi, nil)
	if err != nil {
		t.Fatal(err)
	}
	wr, ok := dec.(tally.WholeReader)
	if !ok {
		t.Fatal("the decoder of a legacy record does not read it as a stream")
	}
	runtime.GC()
	s := newLegacyStream(t, size)
	st := &tally.FileState{Path: fi.Path, Agent: a.Agent(), Session: fi.Session}
	if _, d := st.FeedWholeFrom(wr, s, size); len(d) > 0 {
		t.Fatal(d)
	}
	sameItems(t, "long", st.Lists[""].Items(), listB)
	if st.Title != "Legacy summary" {
		t.Errorf("title %q", st.Title)
	}
	if s.peak > size/2 {
		t.Errorf("%d MiB of heap in use reading a record of %d MiB: it was held whole", s.peak>>20, size>>20)
	}
	t.Logf("peak heap %.1f MiB for a %d MiB record", float64(s.peak)/(1<<20), size>>20)
}
