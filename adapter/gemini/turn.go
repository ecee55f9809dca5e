package gemini

import "github.com/tallyhq/tally"

var _ tally.Turner = (*Decoder)(nil)

// turn is what a chat record line of the model holds near its start.
// Gemini CLI writes a model call's message once as it streams and again
// once its tool calls ran, so a turn that calls tools counts twice.
var turn = []byte(`"type":"gemini"`)

// Turn tells a line recording a model call: the hooks count turns by them
// (tally.Turner).
func (d *Decoder) Turn(line []byte) bool { return tally.TurnIn(line, turn) }
