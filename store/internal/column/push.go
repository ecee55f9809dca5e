package column

import (
	"encoding/json"

	"github.com/tallyhq/tally"
)

// Pushed are the records a pushed batch writes, each with its JSON, and
// the ids it refuses, as both stores take a batch: a record sent twice is
// written once, the later; a record of agent tally (a machine's own task
// lists: the team's lists are the server's) is refused, and so is one
// refuse turns down (an id the database cannot hold); every other is
// stamped with the batch's machine and user. A record that cannot be
// encoded fails the batch.
func Pushed(op string, b *tally.PushBatch, refuse func(id string) bool) (recs []*tally.Record, js [][]byte, refused []string, err error) {
	last := map[string]int{}
	for i := range b.Sessions {
		last[b.Sessions[i].ID] = i
	}
	for i := range b.Sessions {
		rec := &b.Sessions[i]
		if last[rec.ID] != i {
			continue
		}
		if rec.Agent == tally.AgentTally || refuse != nil && refuse(rec.ID) {
			refused = append(refused, rec.ID)
			continue
		}
		rec.Machine, rec.User, rec.Relayed = b.Machine, b.User, b.Relays
		j, err := json.Marshal(rec)
		if err != nil {
			return nil, nil, nil, tally.Errorf(tally.CodeInvalid, op, "session %s cannot be stored (%v); nothing was written", rec.ID, err)
		}
		recs, js = append(recs, rec), append(js, j)
	}
	return recs, js, refused, nil
}
