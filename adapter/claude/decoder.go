package claude

import (
	"encoding/json"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/valyala/fastjson"
)

// Bounds on what the decoder remembers, so a long or hostile file cannot
// grow its state without limit.
const (
	// maxPending bounds calls awaiting their result. Results come within a
	// few lines; a call whose result never came is dropped oldest first.
	maxPending = 64
	// maxSidechainUUIDs bounds the 1.0.x sidechain map. Past it, a line
	// whose parent was forgotten starts a list of its own.
	maxSidechainUUIDs = 50000
)

// callKind is which Task* tool a pending call is: it decides how its
// result is read.
type callKind uint8

const (
	callCreate callKind = iota + 1 // result gives the new task's id
	callList                       // result is a full snapshot
	callChange                     // a TodoWrite or TaskUpdate: the result says whether it counts
	callUnread                     // a list call whose input could not be read: Why
)

type pendingCall struct {
	ID   string   `json:"id"`
	Kind callKind `json:"kind"`
	List string   `json:"list,omitempty"`
	Why  string   `json:"why,omitempty"`
	// Runtime: the call is a running call of the runtime list, which its
	// result finishes (see callEvents).
	Runtime bool `json:"rt,omitempty"`
}

// state is what survives a restart (Decoder.State).
type state struct {
	Pending []pendingCall `json:"pending,omitempty"`
	// Side maps each 1.0.x sidechain line's uuid to its root's uuid.
	Side      map[string]string `json:"side,omitempty"`
	HaveCwd   bool              `json:"cwd,omitempty"`
	HaveTitle bool              `json:"title,omitempty"`
	// Started: the first line with a time was read; it is when the
	// session started.
	Started bool `json:"started,omitempty"`
	// Named: a sub-agent's file has had its name emitted.
	Named bool `json:"named,omitempty"`
	// Agents are a stream's Agent calls whose sub-agent is not named yet.
	Agents []agentCall `json:"agents,omitempty"`
	// Head counts the first lines looked at for the tools the session was
	// offered, up to toolsLines.
	Head int `json:"head,omitempty"`
	// Turn is the id of the newest model call counted (Turn).
	Turn string `json:"turn,omitempty"`
}

// parsers are shared by every decoder. A decoder lives for one file, and a
// parser of its own would grow its value cache again in every file, on
// the first long line, only to drop it when the file is done: in a cold
// scan of many files that regrowth cost more than the parsing.
var parsers fastjson.ParserPool

// Decoder reads one Claude Code file. It is not safe for concurrent use.
type Decoder struct {
	info       tally.FileInfo
	st         state
	pendingIDs [][]byte
	// ended is set by Recent when the newest line is stream-json's final
	// "result": the next timestamped line then reports SignalEnded.
	ended bool
	// evs collects a line's events so that a line found bad half-way
	// emits nothing.
	evs []tally.Event
	// sidecarRead: this read has looked for the sub-agent's sidecar.
	sidecarRead bool
	// stream: the decoder reads a stream (normalize, follow), not a file,
	// where sub-agents are named after the Agent calls that start them.
	stream bool
	// parsed counts lines the prefilter let through to a full parse.
	parsed int64
	// off is the offset of the line being decoded.
	off int64
	// callsFrom: tool calls of lines stamped before it (as text, see
	// CallsFrom) are not fingerprinted; "" fingerprints all.
	callsFrom string
	// seen is what the line being decoded showed of itself (lookAt),
	// kept here so that looking allocates nothing.
	seen look
}

var (
	_ tally.Decoder      = (*Decoder)(nil)
	_ tally.Recenter     = (*Decoder)(nil)
	_ tally.ParseCounter = (*Decoder)(nil)
	_ tally.CallWindow   = (*Decoder)(nil)
)

// Parsed is how many lines this decoder has parsed in full.
func (d *Decoder) Parsed() int64 { return d.parsed }

func newDecoder(f tally.FileInfo, saved []byte) (*Decoder, error) {
	// A stream is read with a FileInfo naming no file (tally.StreamReader).
	d := &Decoder{info: f, stream: f.Path == "-"}
	if len(saved) > 0 {
		if err := json.Unmarshal(saved, &d.st); err != nil {
			return nil, tally.Errorf(tally.CodeInvalid, "claude.NewDecoder", "saved decoder state of %s is unreadable: %v", f.Path, err)
		}
	}
	if f.List != "" {
		// A sub-agent's prompt is its parent's instruction, not the
		// session's title.
		d.st.HaveTitle = true
	}
	d.syncPending()
	return d, nil
}

// State returns the decoder's memory as JSON.
func (d *Decoder) State() []byte {
	if len(d.st.Pending) == 0 && len(d.st.Side) == 0 && !d.st.HaveCwd && !d.st.HaveTitle && !d.st.Started &&
		!d.st.Named && len(d.st.Agents) == 0 && d.st.Head == 0 && d.st.Turn == "" {
		return nil
	}
	b, err := json.Marshal(&d.st)
	if err != nil {
		return nil
	}
	return b
}

// Line decodes one line. See the package doc for what is read.
func (d *Decoder) Line(line []byte, off int64, emit func(tally.Event)) error {
	d.ended, d.sidecarRead = false, false
	if !jsonl.Object(line) {
		return jsonl.NotObject(Agent, off)
	}
	lk := d.lookAt(line)
	d.callEvents(line, lk, emit)
	sel := d.selectLine(line, lk)
	if sel == 0 || sel == selResult && d.succeeded(line, emit) {
		return nil
	}
	d.parsed++
	p := parsers.Get()
	defer parsers.Put(p)
	v, err := p.ParseBytes(line)
	if err != nil {
		return jsonl.NotJSON(Agent, off, err)
	}
	if v.Type() != fastjson.TypeObject {
		return tally.Errorf(tally.CodeInvalid, "claude", "line at offset %d is JSON but not an object", off)
	}
	d.evs = d.evs[:0]
	d.off = off
	l := lineOf(v)
	list := d.listOf(l, sel&selSidechain != 0)
	if err := d.decode(l, list, sel); err != nil {
		return tally.Errorf(tally.CodeInvalid, "claude", "line at offset %d: %v", off, err)
	}
	for _, ev := range d.evs {
		emit(ev)
	}
	return nil
}

func (d *Decoder) decode(l line, list string, sel selection) error {
	if sel&selStart != 0 {
		// The session started when its first line was written: later
		// lines (the first todo, the newest ones) would shorten it.
		if at := l.at(); !at.IsZero() {
			d.st.Started = true
			d.add(tally.Event{Kind: tally.EventMeta, At: at})
		}
	}
	if sel&selMeta != 0 {
		if err := d.meta(l, list); err != nil {
			return err
		}
	}
	if sel&selAgent != 0 {
		d.nameSubAgent(l, list)
	}
	if sel&selTools != 0 {
		d.offeredTools(l)
	}
	switch string(l.typ) {
	case "assistant":
		if sel&selMarker != 0 {
			d.markers(l, list)
		}
		if sel&selTool != 0 {
			return d.toolCalls(l, list)
		}
	case "user":
		if sel&selResult != 0 {
			return d.results(l)
		}
	case "summary":
		return d.title(l.v.GetStringBytes("summary"))
	case "ai-title":
		return d.title(l.v.GetStringBytes("aiTitle"))
	case "custom-title":
		return d.title(l.v.GetStringBytes("customTitle"))
	}
	return nil
}

// line is the envelope of a parsed line, keyed either way: on-disk
// camelCase or stream-json snake_case.
type line struct {
	v   *fastjson.Value
	typ []byte
}

func lineOf(v *fastjson.Value) line { return line{v: v, typ: v.GetStringBytes("type")} }

// at is the line's timestamp, zero if it has none or it does not parse.
func (l line) at() time.Time {
	ts := l.v.GetStringBytes("timestamp")
	if len(ts) == 0 {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, string(ts))
	if err != nil {
		return time.Time{}
	}
	return t
}

// toolUseResult is the structured output beside a tool_result.
func (l line) toolUseResult() *fastjson.Value {
	if r := l.v.Get("toolUseResult"); r != nil {
		return r
	}
	return l.v.Get("tool_use_result")
}

// listOf names the list a line belongs to: the sub-agent file's own id,
// else the line's agentId (stream-json: agent_id), else for a 1.0.x
// sidechain line the uuid of its root, else the main list "".
func (d *Decoder) listOf(l line, sidechain bool) string {
	if d.info.List != "" {
		return d.info.List
	}
	for _, k := range [...]string{"agentId", "agent_id"} {
		if id := l.v.GetStringBytes(k); len(id) > 0 {
			return string(id)
		}
	}
	if sidechain {
		return d.sidechainRoot(l)
	}
	return ""
}

func (d *Decoder) add(ev tally.Event) { d.evs = append(d.evs, ev) }

// str copies a JSON string field. Text that is not valid UTF-8 is kept as
// it is: the fold repairs it and says so, and the rest of the line stands.
func str(v *fastjson.Value, key string) (s string, present bool, err error) {
	f := v.Get(key)
	if f == nil || f.Type() == fastjson.TypeNull {
		return "", false, nil
	}
	b, err := f.StringBytes()
	if err != nil {
		return "", false, errField(key, "is not a string")
	}
	return string(b), true, nil
}

type fieldError struct{ key, msg string }

func (e *fieldError) Error() string { return "field " + e.key + " " + e.msg }

func errField(key, msg string) error { return &fieldError{key, msg} }
