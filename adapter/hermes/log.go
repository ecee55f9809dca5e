package hermes

import (
	"encoding/json"
	"time"

	"github.com/tallyhq/tally"
)

// logFile is a per-session JSON log, sessions/session_<id>.json
// (run_agent.py _save_session_log). Hermes rewrites it whole after every
// turn, so it is decoded whole.
type logFile struct {
	SessionID    string            `json:"session_id"`
	SessionStart string            `json:"session_start"`
	LastUpdated  string            `json:"last_updated"`
	Messages     []json.RawMessage `json:"messages"`
}

// logDecoder reads one session log, given whole as a single "line".
type logDecoder struct{ session string }

func (d *logDecoder) State() []byte { return nil }

func (d *logDecoder) Line(data []byte, _ int64, emit func(tally.Event)) error {
	var f logFile
	if err := json.Unmarshal(data, &f); err != nil {
		return tally.Errorf(tally.CodeInvalid, "hermes.log", "session log is not JSON: %v", err)
	}
	start, last := logTime(f.SessionStart), logTime(f.LastUpdated)
	id := f.SessionID
	if id == "" {
		id = d.session
	}
	emit(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{SessionID: id}, At: start})
	msgs := make([]message, 0, len(f.Messages))
	bad := 0
	for i, raw := range f.Messages {
		m, _, err := decodeMessage(raw, last)
		if err != nil {
			bad++
			continue
		}
		msgs = append(msgs, m)
		// The log is rewritten whole: a message is placed by its number.
		emitMarkers(m.markers, int64(i), emit)
	}
	evs, probs := todoEvents(msgs)
	unreadable := 0
	for _, p := range probs {
		if !p.result {
			unreadable++ // a result that falls back to good arguments is no loss
		}
	}
	for _, ev := range evs {
		emit(ev)
	}
	if n := len(msgs); n > 0 {
		emit(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{Signal: signalOf(msgs[n-1].role, msgs[n-1].hasCalls)}, At: last})
	}
	if bad+unreadable > 0 {
		return tally.Errorf(tally.CodeInvalid, "hermes.log", "%d of %d messages and %d todo calls could not be read", bad, len(f.Messages), unreadable)
	}
	return nil
}

// logTime reads Python's datetime.now().isoformat(): local time without a
// zone, since that is the clock Hermes wrote it with.
func logTime(s string) time.Time {
	for _, layout := range []string{"2006-01-02T15:04:05.999999", time.RFC3339Nano} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t
		}
	}
	return time.Time{}
}
