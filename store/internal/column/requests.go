package column

import (
	"encoding/json"
	"time"

	"github.com/tallyhq/tally"
)

// RequestsShownFor is how long after it was asked a request is shown on
// its session's record when a commit or a push rewrites it: past it, the
// request is kept (tally show lists it) but the card no longer carries it.
const RequestsShownFor = 7 * 24 * time.Hour

// RequestAge is how long a request is kept after it was asked.
const RequestAge = 30 * 24 * time.Hour

// Requests reads rows of (id, request JSON), newest first as the query
// orders them; a damaged one is skipped and counted.
func Requests(rows Rows, skip Skip) ([]tally.Request, error) {
	var out []tally.Request
	for rows.Next() {
		var id string
		var js []byte
		if err := rows.Scan(&id, &js); err != nil {
			return nil, err
		}
		var r tally.Request
		if err := json.Unmarshal(js, &r); err != nil {
			skip("requests", id, err)
			continue
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// BySession groups requests read newest first by their session, keeping
// tally.ShownRequests of each: what each session's record shows.
func BySession(reqs []tally.Request) map[string][]tally.Request {
	m := make(map[string][]tally.Request)
	for _, r := range reqs {
		if len(m[r.Session]) < tally.ShownRequests {
			m[r.Session] = append(m[r.Session], r)
		}
	}
	return m
}

// ShowRequests is rec showing its session's requests, and whether that
// changed it. A session this store holds no request of keeps what it
// carries: a pushed record shows the requests of the machine that pushed
// it. A pushed record (Machine set) keeps showing its machine's requests
// even when this store holds some of them (a team server that took a
// decision on one, to relay to the machine): the store's copy shows
// where it holds a decision the machine has not pushed back yet.
func ShowRequests(rec *tally.Record, shown map[string][]tally.Request) (*tally.Record, bool) {
	reqs, ok := shown[rec.ID]
	if !ok {
		return rec, false
	}
	if rec.Machine != "" {
		return overlay(rec, reqs)
	}
	r := *rec
	r.Requests = reqs
	return &r, true
}

// RecordOfRequests is the record a store writes for session when its
// newest requests (reqs, as Requests reads them, newest first) change:
// its stored record (js, found) showing them. A session with no record yet
// gets one made of its open request (tally.RequestRecord), so it shows at
// once; with none open its first record will show them. A stored record
// that does not decode is skipped (the indexer rewrites it). ok is false
// when there is nothing to write.
func RecordOfRequests(session string, js []byte, found bool, reqs []tally.Request, now time.Time, skip Skip) (*tally.Record, bool) {
	var rec tally.Record
	switch {
	case !found:
		if !reqs[0].Open(now) {
			return nil, false
		}
		rec = tally.RequestRecord(&reqs[0])
	default:
		if err := json.Unmarshal(js, &rec); err != nil {
			skip("sessions", session, err)
			return nil, false
		}
	}
	shown, _ := ShowRequests(&rec, BySession(reqs))
	return shown, true
}

// overlay is pushed record rec showing the decisions this store holds on
// its requests that it shows open.
func overlay(rec *tally.Record, held []tally.Request) (*tally.Record, bool) {
	var out []tally.Request
	for i, p := range rec.Requests {
		if p.Verdict != "" {
			continue
		}
		for _, h := range held {
			if h.ID == p.ID && h.Verdict != "" {
				if out == nil {
					out = append([]tally.Request(nil), rec.Requests...)
				}
				out[i] = h
			}
		}
	}
	if out == nil {
		return rec, false
	}
	r := *rec
	r.Requests = out
	return &r, true
}
