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
// it.
func ShowRequests(rec *tally.Record, shown map[string][]tally.Request) (*tally.Record, bool) {
	reqs, ok := shown[rec.ID]
	if !ok {
		return rec, false
	}
	r := *rec
	r.Requests = reqs
	return &r, true
}
