package cursor

import (
	"bytes"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/tallyhq/tally/marker"
	"github.com/valyala/fastjson"
)

// decoder reads one transcript.
type decoder struct {
	path string // the file, whose modification time dates its newest line
	slug string // its project folder's slug
	p    fastjson.Parser
	// titled: the first prompt was read (its title and folder given).
	titled bool
}

var (
	_ tally.Decoder  = (*decoder)(nil)
	_ tally.Recenter = (*decoder)(nil)
)

func newDecoder(path string, state []byte) *decoder {
	return &decoder{path: path, titled: len(state) > 0}
}

func (d *decoder) State() []byte {
	if d.titled {
		return []byte("1")
	}
	return nil
}

var (
	userPrefix      = []byte(`{"role":"user"`)
	assistantPrefix = []byte(`{"role":"assistant"`)
	turnEnded       = []byte(`{"type":"turn_ended"`)
	todoWrite       = []byte(`"TodoWrite"`)
	timestampTag    = []byte("<timestamp>")
)

func (d *decoder) Line(line []byte, off int64, emit func(tally.Event)) error {
	if !jsonl.Object(line) {
		return jsonl.NotObject(Agent, off)
	}
	user := bytes.HasPrefix(line, userPrefix)
	switch {
	case user && (!d.titled || bytes.Contains(line, timestampTag)):
	case bytes.HasPrefix(line, assistantPrefix) && (bytes.Contains(line, todoWrite) || marker.Maybe(line)):
	default:
		return nil
	}
	v, err := d.p.ParseBytes(line)
	if err != nil {
		return jsonl.NotJSON(Agent, off, err)
	}
	blocks := v.GetArray("message", "content")
	if user {
		d.prompt(blocks, emit)
		return nil
	}
	var found []tally.Marker
	for _, b := range blocks {
		switch string(b.GetStringBytes("type")) {
		case "text":
			found = marker.Append(found, b.GetStringBytes("text"), off, time.Time{})
		case "tool_use":
			if string(b.GetStringBytes("name")) == "TodoWrite" {
				if ev, ok := todos(b.Get("input")); ok {
					emit(ev)
				}
			}
		}
	}
	for _, m := range found {
		emit(tally.Event{Kind: tally.EventMarker, Marker: m})
	}
	return nil
}

// todos reads TodoWrite's input: {"merge":bool,"todos":[{id,content,status}]}.
// A merge updates the items by id, a field left out kept; otherwise the
// list is replaced.
func todos(in *fastjson.Value) (tally.Event, bool) {
	arr := in.Get("todos")
	if arr == nil || arr.Type() != fastjson.TypeArray {
		return tally.Event{}, false
	}
	merge := in.GetBool("merge")
	items := make([]tally.Item, 0, len(arr.GetArray()))
	for _, t := range arr.GetArray() {
		it := tally.Item{ID: string(t.GetStringBytes("id")), Title: string(t.GetStringBytes("content")), Source: tally.SourceTodo}
		it.Status, it.RawStatus = tally.StatusOf(statusWord(string(t.GetStringBytes("status"))))
		if !merge && it.Status == tally.StatusUnknown && it.RawStatus == "" {
			it.Status = tally.StatusPending // a new item without a status
		}
		items = append(items, it)
	}
	kind := tally.EventSnapshot
	if merge {
		kind = tally.EventMerge
	}
	return tally.Event{Kind: kind, Items: items}, true
}

// statusWord reads a status as the transcripts write it ("in_progress"),
// or as Cursor's stream-json does ("TODO_STATUS_IN_PROGRESS").
func statusWord(s string) string {
	if rest, ok := strings.CutPrefix(s, "TODO_STATUS_"); ok {
		return strings.ToLower(rest)
	}
	return s
}

var (
	queryRe = regexp.MustCompile(`(?s)<user_query>\s*(.*?)\s*</user_query>`)
	stampRe = regexp.MustCompile(`<timestamp>([^<]{1,80})</timestamp>`)
)

// prompt reads a user message: its time, and, for the first, the title
// and the project folder.
func (d *decoder) prompt(blocks []*fastjson.Value, emit func(tally.Event)) {
	var text strings.Builder
	for _, b := range blocks {
		text.Write(b.GetStringBytes("text"))
	}
	s := text.String()
	var at time.Time
	if m := stampRe.FindStringSubmatch(s); m != nil {
		at = promptTime(m[1])
	}
	m := tally.Meta{}
	if !d.titled {
		d.titled = true
		q := s
		if mm := queryRe.FindStringSubmatch(s); mm != nil {
			q = mm[1]
		}
		m.Title, m.TitleWeak = tally.PromptTitle(q), true
		if d.slug != "" {
			m.Project = folderOf(d.slug, isDir)
		}
	}
	if !at.IsZero() || m != (tally.Meta{}) {
		m.Signal = tally.SignalWorking
		emit(tally.Event{Kind: tally.EventMeta, At: at, Meta: m})
	}
}

// promptTime reads "Tuesday, Jun 16, 2026, 8:41 PM (UTC-4)" (the zone
// may be "(UTC+5:30)", "(UTC)"); zero when it does not read so.
func promptTime(s string) time.Time {
	body, zone, ok := strings.Cut(s, " (UTC")
	if !ok || !strings.HasSuffix(zone, ")") {
		return time.Time{}
	}
	zone = strings.TrimSuffix(zone, ")")
	offset := 0
	if zone != "" {
		sign := 1
		switch zone[0] {
		case '+':
		case '-':
			sign = -1
		default:
			return time.Time{}
		}
		h, m, _ := strings.Cut(zone[1:], ":")
		hours, err := strconv.Atoi(h)
		if err != nil || hours > 14 {
			return time.Time{}
		}
		mins := 0
		if m != "" {
			if mins, err = strconv.Atoi(m); err != nil || mins >= 60 {
				return time.Time{}
			}
		}
		offset = sign * (hours*3600 + mins*60)
	}
	t, err := time.ParseInLocation("Monday, Jan 2, 2006, 3:04 PM", body, time.FixedZone("", offset))
	if err != nil {
		return time.Time{}
	}
	return t
}

// Recent dates the newest line by the file's modification time, and reads
// whose turn it is from it: a turn_ended line hands the turn back.
func (d *decoder) Recent(line []byte, emit func(tally.Event)) bool {
	m := tally.Meta{Signal: tally.SignalWorking}
	if bytes.HasPrefix(line, turnEnded) {
		m.Signal = tally.SignalWaiting
	}
	var at time.Time
	if d.path != "" && d.path != "-" {
		if st, err := os.Stat(d.path); err == nil && st.Mode().IsRegular() {
			at = st.ModTime()
		}
	}
	emit(tally.Event{Kind: tally.EventMeta, At: at, Meta: m})
	return true
}
