package openclaw

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"
	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/internal/agentdb"
)

// Transcripts are read only at their two ends: the head (the session
// header with its cwd, and the first prompt) and the tail (whose turn it
// is, and a stall notice in the newest prompt). A transcript is every
// message of a session; reading it whole on every change of the database
// would cost what the session weighs.
const (
	headEvents = 8
	tailEvents = 6
)

// maxEvent bounds one decoded event: OpenClaw stores at most 4 MiB
// (event_utf8_bytes).
const maxEvent = 4 << 20

var (
	zstdOnce sync.Once
	zstdDec  *zstd.Decoder
)

// unzstd decodes an event OpenClaw stored compressed (event_zstd, for the
// larger events), refusing more than maxEvent bytes.
func unzstd(b []byte) ([]byte, error) {
	zstdOnce.Do(func() {
		zstdDec, _ = zstd.NewReader(nil, zstd.WithDecoderMaxMemory(maxEvent), zstd.WithDecoderConcurrency(1))
	})
	out, err := zstdDec.DecodeAll(b, nil)
	if err != nil {
		return nil, err
	}
	if len(out) > maxEvent {
		return nil, errors.New("decodes to over 4 MiB")
	}
	return out, nil
}

func (st *dbState) readTranscripts(ctx context.Context, tx *sql.Tx, diags *agentdb.Diags) error {
	have, err := agentdb.Columns(ctx, tx, "transcript_events")
	if err != nil || !have["event_json"] || !have["seq"] {
		return err
	}
	zcol := "NULL"
	if have["event_zstd"] {
		zcol = "event_zstd"
	}
	last := make(map[string]int64)
	rs, err := tx.QueryContext(ctx, `SELECT session_id, MAX(seq) FROM transcript_events GROUP BY session_id`)
	if err != nil {
		return err
	}
	for rs.Next() {
		var sid string
		var seq int64
		if err := rs.Scan(&sid, &seq); err != nil {
			rs.Close()
			return err
		}
		last[sid] = seq
	}
	if err := rs.Close(); err != nil {
		return err
	}
	q, err := tx.PrepareContext(ctx, `SELECT rowid, seq, CAST(event_json AS BLOB), `+zcol+` FROM transcript_events
		WHERE session_id = ? AND (seq < ? OR seq > ?) ORDER BY seq`)
	if err != nil {
		return err
	}
	defer q.Close()
	for _, id := range st.order {
		w := st.windows[id]
		max, ok := last[id]
		if !ok {
			continue
		}
		if err := w.readTranscript(ctx, q, max, diags); err != nil {
			return err
		}
	}
	return nil
}

func (w *window) readTranscript(ctx context.Context, q *sql.Stmt, max int64, diags *agentdb.Diags) error {
	rs, err := q.QueryContext(ctx, w.id, headEvents, max-tailEvents)
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
		var rowid, seq int64
		var raw, z []byte
		if err := rs.Scan(&rowid, &seq, &raw, &z); err != nil {
			return err
		}
		if raw == nil && z != nil {
			if raw, err = unzstd(z); err != nil {
				diags.Add(rowid, "transcript_events", fmt.Sprintf("%d of session %q", seq, w.id), "event_zstd "+err.Error()+"; the event is left out")
				continue
			}
		}
		if err := w.event(raw); err != nil {
			diags.Add(rowid, "transcript_events", fmt.Sprintf("%d of session %q", seq, w.id), err.Error()+"; the event is left out")
		}
	}
	return rs.Err()
}

// tevent is what Tally reads of a transcript event (Pi session format v4).
type tevent struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Cwd       string `json:"cwd"`
	Message   *struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		StopReason string          `json:"stopReason"`
		Provenance *struct {
			Kind string `json:"kind"`
		} `json:"provenance"`
	} `json:"message"`
}

// event folds one transcript event into the window: the header's cwd, the
// first prompt (a weak title), whose turn the newest message leaves it, and
// a stall notice in a prompt.
func (w *window) event(raw []byte) error {
	if !utf8.Valid(raw) {
		w.repair = tally.RepairNotUTF8
	}
	var ev tevent
	if err := json.Unmarshal(raw, &ev); err != nil {
		return fmt.Errorf("is not JSON (%v)", err)
	}
	at := isoTime(ev.Timestamp)
	switch ev.Type {
	case "session":
		if ev.Cwd != "" {
			w.cwd = ev.Cwd
		}
		return nil
	case "message":
	default:
		return nil
	}
	m := ev.Message
	if m == nil {
		return nil
	}
	if at.After(w.lastAt) {
		w.lastAt = at
	}
	text, calls := content(m.Content)
	switch m.Role {
	case "user":
		w.signal = tally.SignalWorking
		relayed := m.Provenance != nil && m.Provenance.Kind != ""
		if w.prompt == "" && !relayed && !strings.HasPrefix(text, "[Subagent Context]") {
			w.prompt = tally.PromptTitle(text)
		}
		if isStallNotice(text) {
			w.stalls = append(w.stalls, at)
		}
	case "assistant":
		switch {
		case calls:
			w.signal = tally.SignalWorking
		case tally.Asks([]byte(text)):
			w.signal = tally.SignalAsking
		default:
			w.signal = tally.SignalWaiting
		}
	case "toolResult", "custom":
		w.signal = tally.SignalWorking
	}
	return nil
}

// content is a message's text and whether it calls a tool: a string, or
// blocks of type text and toolCall.
func content(raw json.RawMessage) (text string, calls bool) {
	if len(raw) == 0 {
		return "", false
	}
	if raw[0] == '"' {
		_ = json.Unmarshal(raw, &text)
		return text, false
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return "", false
	}
	var b strings.Builder
	for _, bl := range blocks {
		switch bl.Type {
		case "text":
			b.WriteString(bl.Text)
		case "toolCall":
			calls = true
		}
	}
	return b.String(), calls
}
