package claude

import (
	"bytes"

	"github.com/tallyhq/tally"
)

var _ tally.Turner = (*Decoder)(nil)

var (
	// messageKey opens an assistant line's message, which names its id
	// first: Claude Code writes a message's content blocks one line each,
	// all with the message's id, every version (1.0.x's lines hold
	// userType, cwd, sessionId, version and gitBranch before it, 2.1.x's
	// do not). The role follows the id.
	messageKey  = []byte(`"message":{"id":"`)
	messageOpen = []byte(`"message":{`)
	sidechain   = []byte(`"isSidechain":true`)
)

// turnHead is how far into a line its envelope opens the message: 1.0.x's
// holds the working directory before it.
const turnHead = 1024

// roleAfterID is how far after the message's id its role is.
const roleAfterID = 64

// Turn tells a line recording a model call: the first line of the main
// agent's assistant message, by its id (the hooks count turns by them,
// tally.Turner). Every Claude Code version writes these; the api-request
// lines 2.1.x also writes, one per call, 1.0.x never did. The id of the
// newest call counted is kept in the decoder's state, so a message read
// across two reads is counted once. Most lines are told apart by their
// first bytes (2.1.x's many lines of other types say their type first);
// the rest are looked at up to their message's opening.
func (d *Decoder) Turn(line []byte) bool {
	if bytes.HasPrefix(line, typeFirst) && !bytes.HasPrefix(line, assistantType) {
		return false
	}
	h := line[:min(len(line), turnHead)]
	i := bytes.Index(h, messageOpen)
	if i < 0 || !bytes.HasPrefix(h[i:], messageKey) || bytes.Contains(h[:i], sidechain) {
		return false
	}
	id := line[i+len(messageKey):]
	j := bytes.IndexByte(id[:min(len(id), 200)], '"')
	if j <= 0 {
		return false
	}
	if rest := id[j:]; !bytes.Contains(rest[:min(len(rest), roleAfterID)], assistantRole) {
		return false
	}
	id = id[:j]
	if string(id) == d.st.Turn {
		return false
	}
	d.st.Turn = string(id)
	return true
}
