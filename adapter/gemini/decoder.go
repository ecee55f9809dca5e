package gemini

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/jsonl"
	"github.com/tallyhq/tally/marker"
	"github.com/valyala/fastjson"
)

// state is what survives a restart (Decoder.State). Only what later lines
// can still need is kept, each part bounded.
type state struct {
	// The chat record's messages, as far as the todo list needs them.
	chat
	// Pending are stream-json write_todos calls awaiting their result.
	Pending []pending `json:"pending,omitempty"`
	// Trackers are stream-json tracker calls awaiting their result.
	Trackers []pendingTracker `json:"trackers,omitempty"`
	// Stream is a stream-json session's id, from its init event: where
	// the tracker keeps its files.
	Stream string `json:"stream,omitempty"`
	// Deps are the tracker's dependencies (task id -> ids it depends on):
	// the tracker's own list display does not show them.
	Deps map[string][]string `json:"deps,omitempty"`
	// HaveTitle: a title was found; no more user lines are parsed for one.
	HaveTitle bool `json:"title,omitempty"`
	// Rank is how good the project already reported is.
	Rank projectRank `json:"rank,omitempty"`
	// Reply is the stream-json reply being streamed, for its markers.
	Reply marker.Chunks `json:"reply,omitzero"`
	// Calls are the ids (hashed) of the newest tool calls fingerprinted,
	// so that a message appended again is not counted again.
	Calls []uint64 `json:"calls,omitempty"`
	// Model: the session's model was seen, and what it says of the list
	// tools reported (offered.go).
	Model bool `json:"model,omitempty"`
	// Parsed counts lines given to the JSON parser (ParseCounter).
	Parsed int64 `json:"-"`
}

// Decoder reads one Gemini CLI file: a chat record (.jsonl or legacy
// .json) or `gemini -p --output-format stream-json` output. It is not safe
// for concurrent use.
type Decoder struct {
	info tally.FileInfo
	// home is Gemini CLI's home, where a stream's tracker files are.
	home string
	// tracker, trackerKnown: see Adapter.
	tracker, trackerKnown bool
	st                    state
	p                     fastjson.Parser
	projectID             string
	projectPath           string
	// evs collects a line's events so that a line found bad half-way
	// emits nothing.
	evs []tally.Event
	// callsFrom: tool calls of lines stamped before it (as text, see
	// CallsFrom) are not fingerprinted; "" fingerprints all.
	callsFrom string
}

var (
	_ tally.Decoder      = (*Decoder)(nil)
	_ tally.Recenter     = (*Decoder)(nil)
	_ tally.ParseCounter = (*Decoder)(nil)
	_ tally.CallWindow   = (*Decoder)(nil)
)

func newDecoder(f tally.FileInfo, saved []byte) (*Decoder, error) {
	d := &Decoder{info: f}
	if len(saved) > 0 && f.Layout != tally.LayoutWhole {
		if err := json.Unmarshal(saved, &d.st); err != nil {
			return nil, tally.Errorf(tally.CodeInvalid, "gemini.NewDecoder", "saved decoder state of %s is unreadable: %v", f.Path, err)
		}
	}
	if f.List != "" {
		// A sub-agent's first prompt is its parent's instruction, not
		// the session's title.
		d.st.HaveTitle = true
	}
	return d, nil
}

// State returns the decoder's memory as JSON. A whole file is decoded from
// scratch every time, so it has none.
func (d *Decoder) State() []byte {
	if d.info.Layout == tally.LayoutWhole {
		return nil
	}
	s := &d.st
	if s.chat.empty() && len(s.Pending) == 0 && len(s.Trackers) == 0 && s.Stream == "" && len(s.Deps) == 0 && !s.HaveTitle && s.Rank == 0 && len(s.Reply.Held) == 0 && len(s.Calls) == 0 && !s.Model {
		return nil
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil
	}
	return b
}

// Parsed is how many lines this decoder has handed to the JSON parser.
func (d *Decoder) Parsed() int64 { return d.st.Parsed }

// Line decodes one line, or for a LayoutWhole file the whole document
// (see ReadWhole).
func (d *Decoder) Line(line []byte, off int64, emit func(tally.Event)) error {
	if d.info.Layout == tally.LayoutWhole {
		return d.ReadWhole(bytes.NewReader(line), emit)
	}
	d.evs = d.evs[:0]
	if err := d.line(line, off); err != nil {
		switch e := err.(type) {
		case notJSON:
			return jsonl.NotJSON(Agent, off, e.err)
		case *tally.Error: // worded already (jsonl.NotObject)
			return err
		}
		return tally.Errorf(tally.CodeInvalid, "gemini", "line at offset %d: %v", off, err)
	}
	d.emit(emit)
	return nil
}

// emit hands on what a line or document said, with what the file's place
// says of its project.
func (d *Decoder) emit(emit func(tally.Event)) {
	d.pathProject()
	for _, ev := range d.evs {
		if ev.Kind != tally.EventMeta && ev.List != tally.RuntimeList {
			ev.List = d.info.List
		}
		emit(ev)
	}
}

// line routes one line of an append log by its shape; see prefilter.go
// for what is never parsed.
func (d *Decoder) line(line []byte, off int64) error {
	if !jsonl.Object(line) {
		return jsonl.NotObject(Agent, off)
	}
	k := kindOf(line)
	if !d.st.Model && (k == kindMessage || k == kindSet) {
		d.noteModel(modelOf(line))
	}
	switch k {
	case kindMessage:
		d.messageCalls(line)
		return d.chatMessage(line, off)
	case kindOther:
		d.streamCall(line)
		fallthrough
	case kindSet, kindRewind, kindHeader:
		if !d.wanted(k, line) {
			return nil
		}
		v, err := d.parse(line)
		if err != nil {
			return err
		}
		return d.value(v, off)
	}
	return nil
}

// parse parses a selected line into an object.
func (d *Decoder) parse(b []byte) (*fastjson.Value, error) {
	d.st.Parsed++
	v, err := d.p.ParseBytes(b)
	if err != nil {
		return nil, notJSON{err}
	}
	if v.Type() != fastjson.TypeObject {
		return nil, errText("is JSON but not an object")
	}
	return v, nil
}

// value decodes a parsed line of any shape.
func (d *Decoder) value(v *fastjson.Value, off int64) error {
	switch {
	case v.Get("$rewindTo") != nil:
		return d.rewind(v, off)
	case v.Get("$set") != nil:
		return d.set(v.Get("$set"), off)
	case v.Get("id") != nil:
		m, err := readMessage(v, !d.st.HaveTitle)
		if err != nil {
			return err
		}
		d.applyMessage(m, off)
		d.sync(off, m.at)
		return nil
	case v.Get("sessionId") != nil:
		return d.header(v, off)
	case v.Get("type") != nil:
		return d.stream(v, off)
	}
	return nil
}

func (d *Decoder) add(ev tally.Event) { d.evs = append(d.evs, ev) }

type textError string

func (e textError) Error() string { return string(e) }

func errText(s string) error { return textError(s) }

// notJSON is the parser's refusal of a line, worded by the caller, who
// knows where the line is.
type notJSON struct{ err error }

func (e notJSON) Error() string { return "is not valid JSON: " + e.err.Error() }

// timeOf parses an RFC 3339 timestamp field, zero if absent or bad.
func timeOf(v *fastjson.Value, key string) time.Time {
	return parseTime(v.GetStringBytes(key))
}

// parseTime parses an RFC 3339 timestamp, zero if empty or bad.
func parseTime(b []byte) time.Time {
	if len(b) == 0 {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	if err != nil {
		return time.Time{}
	}
	return t
}
