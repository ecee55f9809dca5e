package column

import (
	"encoding/json"
	"time"

	"github.com/tallyhq/tally"
)

// Resignal is a stored record (its JSON) as a hook's call at at tells of
// it: its signal sig, its last activity at least at. A record that does
// not decode is skipped (the indexer rewrites a damaged record; the mark
// waits for it): ok is false.
func Resignal(id string, js []byte, sig tally.Signal, at time.Time, skip Skip) (rec tally.Record, ok bool) {
	if err := json.Unmarshal(js, &rec); err != nil {
		skip("sessions", id, err)
		return tally.Record{}, false
	}
	rec.Signal, rec.Tentative = sig, false // a hook's word is the agent's own
	if at.After(rec.LastActivity) {
		rec.LastActivity = at
	}
	return rec, true
}

// Waiting is the needs-input rule of both stores for a record about to be
// written while its session holds a mark set at mark (a time column's
// nanoseconds): a record whose last activity is not after the mark still
// waits for the user (the indexer folded lines written before the prompt),
// and is returned as waiting; a record with newer activity ends the mark
// (ended) and is written as it is.
func Waiting(rec *tally.Record, mark int64) (waiting *tally.Record, ended bool) {
	if Time(rec.LastActivity) > mark {
		return nil, true
	}
	w := *rec
	w.Signal, w.Tentative, w.LastActivity = tally.SignalAsking, false, time.Unix(0, mark)
	return &w, false
}
