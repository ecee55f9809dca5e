package claude

import "github.com/tallyhq/tally"

var _ tally.Turner = (*Decoder)(nil)

// turn is what a transcript line recording one model call starts with.
var turn = []byte(`{"type":"api-request"`)

// Turn marks the lines recording a model call: the hooks count turns by
// them (tally.Turner).
func (d *Decoder) Turn() []byte { return turn }
