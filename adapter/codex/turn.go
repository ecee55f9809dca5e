package codex

import "github.com/tallyhq/tally"

var _ tally.Turner = (*decoder)(nil)

// turn is what a rollout line recording one model call holds near its
// start: the token count of the call.
var turn = []byte(`"type":"token_usage_record"`)

// Turn tells a line recording a model call: the hooks count turns by them
// (tally.Turner).
func (d *decoder) Turn(line []byte) bool { return tally.TurnIn(line, turn) }
