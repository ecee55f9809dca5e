package gemini

import (
	"encoding/json"
	"errors"
	"io"

	"github.com/tallyhq/tally"
	"github.com/valyala/fastjson"
)

// maxMessage bounds one message of a legacy record, the most a read holds
// at a time: as a log's line, a message is a todo event or it is not
// worth that memory.
const maxMessage = 16 << 20

var _ tally.WholeReader = (*Decoder)(nil)

// ReadWhole decodes a legacy chat record from r: one ConversationRecord
// {sessionId, projectHash, startTime, lastUpdated, messages[], summary?,
// kind?} written whole (pretty-printed) on every change. It is read a
// message at a time (encoding/json's tokens over the messages array, each
// message parsed on its own), so a record of any size is read in the
// memory of its largest message; a message over maxMessage fails the
// record. The file is folded from scratch each time, so the decoder starts
// from scratch too.
func (d *Decoder) ReadWhole(r io.Reader, emit func(tally.Event)) error {
	d.evs = d.evs[:0]
	d.st = state{HaveTitle: d.info.List != "", Parsed: d.st.Parsed}
	if err := d.whole(r); err != nil {
		return tally.Errorf(tally.CodeInvalid, "gemini", "file: %v", err)
	}
	d.emit(emit)
	return nil
}

// record is what a legacy record says besides its messages.
type record struct {
	meta sessionMeta
	// last is whose turn the last message shows; messages tells whether
	// there was a messages array at all.
	last     tally.Signal
	lastOver bool
	messages bool
	session  bool
	ctx      string // the workspace of the session context, if any
}

func (d *Decoder) whole(r io.Reader) error {
	lim := &limited{r: r, left: maxMessage}
	dec := json.NewDecoder(lim)
	if err := delim(dec, '{', "is not a JSON object"); err != nil {
		return err
	}
	var rec record
	for dec.More() {
		lim.left = maxMessage
		t, err := dec.Token()
		if err != nil {
			return syntax(err, lim)
		}
		key, _ := t.(string)
		switch key {
		case "messages":
			rec.messages = true
			if err := d.messages(dec, lim, &rec); err != nil {
				return err
			}
		case "sessionId", "summary", "startTime", "lastUpdated", "directories":
			if err := d.field(dec, key, &rec); err != nil {
				return syntax(err, lim)
			}
		default:
			if err := skip(dec); err != nil {
				return syntax(err, lim)
			}
		}
	}
	if err := delim(dec, '}', "is not a JSON object"); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errText("has more after the record")
	}
	if !rec.session && !rec.messages {
		return errText("is not a Gemini CLI chat record (no sessionId, no messages)")
	}
	d.project(rankContext, rec.ctx)
	d.applyMeta(rec.meta)
	d.sync(0, rec.meta.updated)
	// Nothing newer than the document itself is read for activity: it is
	// taken here, from its last message.
	if !rec.meta.updated.IsZero() {
		d.add(tally.Event{Kind: tally.EventMeta, At: rec.meta.updated, Meta: tally.Meta{Signal: rec.last, TurnOver: rec.lastOver}})
	}
	return nil
}

// messages reads the messages array a message at a time.
func (d *Decoder) messages(dec *json.Decoder, lim *limited, rec *record) error {
	t, err := dec.Token()
	if err != nil {
		return syntax(err, lim)
	}
	if t == nil {
		return nil // null: no messages
	}
	if t != json.Delim('[') {
		return errText("messages is not an array")
	}
	want := !d.st.HaveTitle
	for dec.More() {
		lim.left = maxMessage
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return syntax(err, lim)
		}
		v, err := d.parse(raw)
		if err != nil {
			return errText("a message is not an object")
		}
		m, err := readMessage(v, want)
		if err != nil {
			return err
		}
		if m.prompt != "" {
			want = false
		}
		if rec.ctx == "" {
			rec.ctx = contextDir(v)
		}
		d.applyMessage(m, 0)
		rec.last, rec.lastOver = chatSignal(v)
	}
	_, err = dec.Token() // ']'
	return syntax(err, lim)
}

// field reads one of the record's own fields, each small.
func (d *Decoder) field(dec *json.Decoder, key string, rec *record) error {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	v, err := d.small(raw)
	if err != nil {
		return err
	}
	switch key {
	case "sessionId":
		rec.session = true
		rec.meta.sessionID, err = strValue(v, key)
	case "summary":
		rec.meta.summary, err = strValue(v, key)
	case "startTime":
		rec.meta.started = parseTime(v.GetStringBytes())
	case "lastUpdated":
		rec.meta.updated = parseTime(v.GetStringBytes())
	case "directories":
		if dirs, _ := v.Array(); len(dirs) > 0 {
			rec.meta.dir = string(dirs[0].GetStringBytes())
		}
	}
	return err
}

// small parses a small JSON value of the record.
func (d *Decoder) small(raw []byte) (*fastjson.Value, error) {
	v, err := d.p.ParseBytes(raw)
	if err != nil {
		return nil, errText("is not valid JSON: " + err.Error())
	}
	return v, nil
}

// strValue is str for a value rather than a field of an object.
func strValue(v *fastjson.Value, key string) (string, error) {
	if v.Type() == fastjson.TypeNull {
		return "", nil
	}
	b, err := v.StringBytes()
	if err != nil {
		return "", errText("field " + key + " is not a string")
	}
	return string(b), nil
}

// delim reads the token want, or fails with msg.
func delim(dec *json.Decoder, want json.Delim, msg string) error {
	t, err := dec.Token()
	if err != nil || t != want {
		return errText(msg)
	}
	return nil
}

// skip reads past one value without keeping it: token by token, so a big
// field the decoder does not use costs no more than its largest string.
func skip(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// limited is the record's reader, failing once a value has taken more
// than left bytes: what bounds the memory a read holds.
type limited struct {
	r    io.Reader
	left int
}

var errTooBig = errors.New("a message is over 16 MiB")

func (l *limited) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, errTooBig
	}
	n, err := l.r.Read(p[:min(len(p), l.left)])
	l.left -= n
	return n, err
}

// syntax words a decoding error for the diagnostic.
func syntax(err error, lim *limited) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errTooBig):
		return errText(errTooBig.Error() + "; the record is not read")
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errText("is cut short")
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return errText("is not valid JSON: " + se.Error())
	}
	return err
}

// chatSignal says whose turn a chat message shows: a prompt or a tool call
// means the agent works; an answer without tool calls, or a call awaiting
// approval, hands the turn to the user. Info, warning and error notes say
// nothing. A call awaiting approval is the CLI's own word (over); an
// answer without tool calls is not: Gemini CLI writes a reply first and
// writes it again with its tool calls once they are known, so the turn
// end is tentative (tally.Meta.TurnOver).
func chatSignal(m *fastjson.Value) (sig tally.Signal, over bool) {
	switch string(m.GetStringBytes("type")) {
	case "user":
		return tally.SignalWorking, false
	case "gemini":
		calls := m.GetArray("toolCalls")
		if len(calls) == 0 {
			if tally.Asks(m.GetStringBytes("content")) {
				return tally.SignalAsking, false
			}
			return tally.SignalWaiting, false
		}
		for _, c := range calls {
			if string(c.GetStringBytes("status")) == "awaiting_approval" {
				return tally.SignalAsking, true
			}
		}
		return tally.SignalWorking, false
	}
	return tally.SignalNone, false
}
