package claude

import (
	"bytes"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/valyala/fastjson"
)

// lineParsed is Line without the prefilter: every line shaped like an
// object is parsed, and each reason to read it is decided from the parsed
// line instead of guessed from its bytes. It is the reference the
// prefilter is held to: whatever the prefilter passes over, this reads.
// (Tool-call fingerprints, taken from the bytes alone, are left out: they
// are held to encoding/json by TestDecoder_toolCallsAsParsed.)
func (d *Decoder) lineParsed(line []byte, off int64, emit func(tally.Event)) error {
	d.ended, d.sidecarRead = false, false
	if !jsonl.Object(line) {
		return jsonl.NotObject(tally.AgentClaude, off)
	}
	p := parsers.Get()
	defer parsers.Put(p)
	v, err := p.ParseBytes(line)
	if err != nil {
		return jsonl.NotJSON(tally.AgentClaude, off, err)
	}
	if v.Type() != fastjson.TypeObject {
		return fmt.Errorf("line at offset %d is JSON but not an object", off)
	}
	d.parsed++
	// Every reason the decoder has to read a line, each as the decoder
	// itself checks it once the line is parsed; only those that change
	// what a line means (the start, a sidechain's list) are decided here.
	sel := selTool | selResult | selMeta | selMarker
	if !d.st.Started {
		sel |= selStart
	}
	if d.info.List == "" && d.st.Head < toolsLines {
		d.st.Head++
		sel |= selTools
	}
	if d.stream {
		sel |= selAgent
	}
	if d.info.List == "" && v.GetBool("isSidechain") && v.Get("agentId") == nil {
		sel |= selSidechain
	}
	d.evs = d.evs[:0]
	d.off = off
	l := lineOf(v)
	list := d.listOf(l, sel&selSidechain != 0)
	if err := d.decode(l, list, sel); err != nil {
		return err
	}
	for _, ev := range d.evs {
		emit(ev)
	}
	return nil
}

// claudeLogs are every real Claude Code log the repository holds: the
// transcripts and streams of fixtureFiles, the plan capture with its
// progress markers, the session that looped on one call, and the
// transcripts and streams recorded for the hooks (a permission prompt's
// answer, compactions, resumes, a stop guard).
func claudeLogs(t testing.TB) []logFile {
	files := fixtureFiles(t)
	hooks, _ := filepath.Glob("../../hook/testdata/claude-2.1.330/*/*.jsonl")
	e2e, _ := filepath.Glob("../../hook/testdata/e2e/claude-*/*.jsonl")
	for _, p := range append(hooks, e2e...) {
		if filepath.Base(p) == "requests.jsonl" {
			continue // the model's API requests, not Claude Code's log
		}
		files = append(files, logFile{path: p, info: tally.FileInfo{Path: p, Session: "hook"}})
	}
	if len(hooks) == 0 || len(e2e) == 0 {
		t.Fatal("no hook captures under ../../hook/testdata")
	}
	logs, _ := filepath.Glob(planCapture + "/config/projects/*/*.jsonl")
	streams, _ := filepath.Glob(planCapture + "/*stream-json.stdout.jsonl")
	for _, p := range append(logs, streams...) {
		files = append(files, logFile{path: p, info: tally.FileInfo{Path: p, Session: "plan"}})
	}
	if len(logs) == 0 || len(streams) == 0 {
		t.Fatalf("no plan capture under %s", planCapture)
	}
	return append(files, logFile{path: loopCapture, info: tally.FileInfo{Path: loopCapture, Session: "loop"}})
}

// TestPrefilter_losesNothing: on every real capture, the lines the byte
// prefilter passes over unparsed are lines that say nothing: decoding
// with it gives, line for line, the events that parsing every line gives.
// It also says how many lines the prefilter spares the parser.
func TestPrefilter_losesNothing(t *testing.T) {
	var lines, parsed int
	kinds := map[tally.EventKind]int{}
	for _, lf := range claudeLogs(t) {
		fi := lf.info
		if strings.HasSuffix(fi.Path, "stream-json.stdout.jsonl") || strings.HasSuffix(fi.Path, ".stream.jsonl") {
			fi.Path = "-" // read as a stream, as normalize and follow read it
		}
		fast, err := newDecoder(fi, nil)
		if err != nil {
			t.Fatal(err)
		}
		slow, _ := newDecoder(fi, nil)
		for n, l := range bytes.Split(read(t, lf.path), []byte("\n")) {
			if len(bytes.TrimSpace(l)) == 0 {
				continue
			}
			lines++
			var got, want []tally.Event
			_ = fast.Line(l, int64(n), func(ev tally.Event) {
				if ev.Kind != tally.EventToolCall {
					got = append(got, ev)
				}
			})
			if err := slow.lineParsed(l, int64(n), func(ev tally.Event) { want = append(want, ev) }); err != nil {
				t.Errorf("%s:%d: a real line does not decode: %v", lf.path, n+1, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s:%d: the prefilter gives\n%+v\nparsing the line gives\n%+v", lf.path, n+1, got, want)
			}
			for _, ev := range want {
				kinds[ev.Kind]++
			}
		}
		parsed += int(fast.parsed)
	}
	// The captures must say each kind of thing the prefilter selects for,
	// or the comparison proves nothing of it.
	for _, k := range []tally.EventKind{tally.EventSnapshot, tally.EventTaskCreate, tally.EventTaskAssign, tally.EventTaskUpdate,
		tally.EventTaskResync, tally.EventMeta, tally.EventMarker} {
		if kinds[k] == 0 {
			t.Errorf("no %v event in the captures", k)
		}
	}
	t.Logf("%d lines, %d parsed (%.1f%% never parsed); events %v", lines, parsed, 100*float64(lines-parsed)/float64(lines), kinds)
}
