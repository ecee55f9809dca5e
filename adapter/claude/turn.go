package claude

import (
	"bytes"

	"github.com/tallyhq/tally"
)

var _ tally.Turner = (*Decoder)(nil)

// turn is what a transcript line recording one model call starts with.
var turn = []byte(`{"type":"api-request"`)

// Turn tells a line recording a model call: the hooks count turns by them
// (tally.Turner).
func (d *Decoder) Turn(line []byte) bool { return bytes.HasPrefix(line, turn) }
