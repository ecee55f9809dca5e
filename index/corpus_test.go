package index_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A Claude-like history, built from the lines of real Claude Code
// transcripts (the captures under testdata, the plan capture with its
// progress markers, the session that looped on one call): sessions that
// start as Claude Code's do (the prompt, the attachments and request logs
// of a session's first lines, from a real session's head), then work —
// the real captures' prose, tool calls and tool results in their order —
// with a todo call and its result every todoEvery lines, an assistant
// reply holding a progress marker every markerEvery, and a line of a
// Claude Code 1.0 sub-agent (a sidechain in the main file, which 2.x
// writes to files of their own) every sidechainEvery. Each session's lines
// carry its own id and a clock of its own; sessions follow each other,
// and the last few run together up to the corpus's end (corpusEnd), so
// that a scan at that time finds them live. Sizes vary as a history's
// do: most sessions small, a few of several megabytes. The same sources
// and parameters give the same bytes.
const (
	todoEvery      = 60
	markerEvery    = 400
	sidechainEvery = 100
	// liveSessions are the sessions still going at corpusEnd.
	liveSessions = 10
)

// corpusEnd is when the corpus's last line was written.
var corpusEnd = time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)

// corpusLines are the real lines a corpus is made of.
type corpusLines struct {
	heads     [][][]byte // each main session's first lines, up to its first reply
	plain     [][]byte   // every other line, in the order of their sessions
	todo      [][][]byte // todo and task calls, each with the lines answering it
	markers   [][]byte   // assistant replies holding a progress marker
	sidechain [][]byte   // 1.0's sub-agents' lines in the main file
}

func readCorpusLines(tb testing.TB) *corpusLines {
	tb.Helper()
	var srcs []string
	for _, g := range []string{
		"../testdata/fixtures/claude/*.jsonl",
		captured + "*/config/projects/*/*.jsonl",
		"../plan/testdata/claude-code-2.1.330-plan-markers/config/projects/*/*.jsonl",
		"../detect/testdata/claude-loop/session.jsonl",
	} {
		m, _ := filepath.Glob(g)
		srcs = append(srcs, m...)
	}
	if len(srcs) < 10 {
		tb.Fatalf("only %d sources for the corpus", len(srcs))
	}
	c := &corpusLines{}
	for _, src := range srcs {
		data, err := os.ReadFile(src)
		if err != nil {
			tb.Fatal(err)
		}
		todoIDs := map[string]int{} // a call's id: its exchange in c.todo
		inHead := true
		var head [][]byte
		for _, l := range bytes.SplitAfter(data, []byte("\n")) {
			if len(bytes.TrimSpace(l)) == 0 {
				continue
			}
			if inHead && bytes.Contains(l, []byte(`"role":"assistant"`)) {
				inHead = false
			}
			switch {
			case inHead:
				head = append(head, l)
			case todoExchange(c, l, todoIDs):
			case bytes.Contains(l, []byte(`"isSidechain":true`)):
				c.sidechain = append(c.sidechain, l)
			case bytes.Contains(l, []byte(`"role":"assistant"`)) && bytes.Contains(l, []byte(`progress: T`)):
				c.markers = append(c.markers, l)
			default:
				c.plain = append(c.plain, l)
			}
		}
		if len(head) > 0 {
			c.heads = append(c.heads, head)
		}
	}
	if len(c.todo) == 0 || len(c.markers) == 0 || len(c.heads) == 0 || len(c.sidechain) == 0 {
		tb.Fatalf("sources without todo traffic, markers, heads or sidechains: %d %d %d %d", len(c.todo), len(c.markers), len(c.heads), len(c.sidechain))
	}
	return c
}

// todoExchange adds to c.todo a line calling a todo or task tool, as an
// exchange of its own, or answering such a call, to the call's exchange
// (ids remembers the calls). It tells whether l was either.
func todoExchange(c *corpusLines, l []byte, ids map[string]int) bool {
	var line struct {
		Message struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(l, &line) != nil {
		return false
	}
	var blocks []struct {
		Type, ID, Name string
		ToolUseID      string `json:"tool_use_id"`
	}
	if json.Unmarshal(line.Message.Content, &blocks) != nil {
		return false
	}
	for _, b := range blocks {
		switch {
		case b.Type == "tool_use" && strings.Contains("TodoWrite TaskCreate TaskUpdate TaskList", b.Name):
			c.todo = append(c.todo, [][]byte{l})
			for _, b := range blocks {
				ids[b.ID] = len(c.todo) - 1
			}
			return true
		case b.Type == "tool_result":
			if x, ok := ids[b.ToolUseID]; ok {
				c.todo[x] = append(c.todo[x], l)
				return true
			}
		}
	}
	return false
}

// corpus is a Claude Code config directory holding a history.
type corpus struct {
	home  string
	paths []string
	bytes int64
}

// buildCorpus writes about total bytes of history in files sessions under
// home/projects.
func buildCorpus(tb testing.TB, home string, files int, total int64) corpus {
	tb.Helper()
	src := readCorpusLines(tb)
	rng := rand.New(rand.NewPCG(25, 1))
	c := corpus{home: home}
	mean := float64(total) / float64(files)
	var plain, todo, marker, side int
	for i := range files {
		// Sizes from 0.1 to 3.7 times the mean, most of them small.
		u := rng.Float64()
		size := int((0.1 + 3.6*u*u*u) * mean)
		sid := fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", rng.Uint32(), i, i%0xfff, rng.IntN(0xfff), rng.Uint64()&0xffffffffffff)
		// Sessions follow each other back from the corpus's end, 45
		// minutes apart; the live ones started 20 minutes before it.
		start := corpusEnd.Add(-time.Duration(files-i) * 45 * time.Minute)
		if i >= files-liveSessions {
			start = corpusEnd.Add(-20 * time.Minute)
		}
		var buf bytes.Buffer
		w := sessionWriter{buf: &buf, sid: sid, at: start}
		for _, l := range src.heads[i%len(src.heads)] {
			w.line(l)
		}
		for n := 0; buf.Len() < size; n++ {
			switch {
			case n%markerEvery == markerEvery-1:
				w.line(src.markers[marker%len(src.markers)])
				marker++
			case n%sidechainEvery == sidechainEvery/2:
				w.line(src.sidechain[side%len(src.sidechain)])
				side++
			case n%todoEvery == todoEvery-1:
				// A call and its answer come together.
				for _, l := range src.todo[todo%len(src.todo)] {
					w.line(l)
				}
				todo++
			default:
				w.line(src.plain[plain%len(src.plain)])
				plain++
			}
		}
		dir := filepath.Join(home, "projects", fmt.Sprintf("-home-me-src-p%d", i%40))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tb.Fatal(err)
		}
		path := filepath.Join(dir, sid+".jsonl")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			tb.Fatal(err)
		}
		c.paths = append(c.paths, path)
		c.bytes += int64(buf.Len())
	}
	return c
}

// sessionWriter writes one session's lines: each line's session id is the
// session's, and each timestamp the session's clock, a few seconds on
// from the line before.
type sessionWriter struct {
	buf *bytes.Buffer
	sid string
	at  time.Time
}

var (
	stampKey   = []byte(`"timestamp":"`)
	sessionKey = []byte(`"sessionId":"`)
)

func (w *sessionWriter) line(l []byte) {
	start := w.buf.Len()
	w.buf.Write(l)
	out := w.buf.Bytes()[start:]
	w.at = w.at.Add(2 * time.Second)
	stamp := w.at.Format("2006-01-02T15:04:05.000Z")
	overwrite(out, stampKey, stamp)
	overwrite(out, sessionKey, w.sid)
}

// overwrite replaces, in place, each value of key in l that has the
// length of value.
func overwrite(l, key []byte, value string) {
	for i := 0; ; {
		j := bytes.Index(l[i:], key)
		if j < 0 {
			return
		}
		i += j + len(key)
		if end := bytes.IndexByte(l[i:], '"'); end == len(value) {
			copy(l[i:], value)
		}
	}
}

// corpusManifest names a built corpus, so that a directory holding one is
// used again.
const corpusManifest = "tally-corpus.json"

type manifest struct {
	Version int
	Files   int
	Total   int64
	Bytes   int64
	Paths   []string
}

// corpusVersion changes whenever the corpus's recipe does.
const corpusVersion = 3

// corpusIn returns the corpus in dir, building it there first unless dir
// holds one built by this recipe.
func corpusIn(tb testing.TB, dir string, files int, total int64) corpus {
	tb.Helper()
	if b, err := os.ReadFile(filepath.Join(dir, corpusManifest)); err == nil {
		var m manifest
		if json.Unmarshal(b, &m) == nil && m.Version == corpusVersion && m.Files == files && m.Total == total {
			return corpus{home: dir, paths: m.Paths, bytes: m.Bytes}
		}
	}
	if err := os.RemoveAll(filepath.Join(dir, "projects")); err != nil {
		tb.Fatal(err)
	}
	start := time.Now()
	c := buildCorpus(tb, dir, files, total)
	b, _ := json.Marshal(manifest{Version: corpusVersion, Files: files, Total: total, Bytes: c.bytes, Paths: c.paths})
	if err := os.WriteFile(filepath.Join(dir, corpusManifest), b, 0o644); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("built %d files, %d MB, in %v", files, c.bytes>>20, time.Since(start).Round(time.Millisecond))
	return c
}

// warm reads every file of c once, so that the page cache holds it.
func (c corpus) warm(tb testing.TB) {
	buf := make([]byte, 1<<20)
	for _, p := range c.paths {
		f, err := os.Open(p)
		if err != nil {
			tb.Fatal(err)
		}
		for {
			if _, err := f.Read(buf); err != nil {
				break
			}
		}
		f.Close()
	}
}
