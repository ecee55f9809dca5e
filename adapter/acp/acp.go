package acp

import (
	"bytes"

	"github.com/tallyhq/tally"
	"github.com/valyala/fastjson"
)

var (
	_ tally.StreamReader = (*Adapter)(nil)
)

// Adapter reads ACP agent output.
type Adapter struct{}

// New returns the ACP adapter. It has no options: ACP has no files to find.
func New() *Adapter { return &Adapter{} }

func (a *Adapter) Agent() tally.Agent { return Agent }

// Roots is empty: ACP is a stream between two processes, never a log in a
// known directory.
func (a *Adapter) Roots() []string { return nil }

// Match never matches: with no roots there is nothing to match against.
func (a *Adapter) Match(root, path string) (tally.FileInfo, bool) { return tally.FileInfo{}, false }

// NewDecoder returns a decoder resuming from state.
func (a *Adapter) NewDecoder(f tally.FileInfo, state []byte) (tally.Decoder, error) {
	return newDecoder(state)
}

// Sniff recognises a JSON-RPC 2.0 message.
func (a *Adapter) Sniff(line []byte) bool {
	if !bytes.Contains(line, []byte(`"jsonrpc"`)) {
		return false
	}
	v, err := fastjson.ParseBytes(line)
	if err != nil || v.Type() != fastjson.TypeObject {
		return false
	}
	return string(v.GetStringBytes("jsonrpc")) == "2.0"
}

// Text returns the assistant text an agent_message_chunk line carries, for
// surfaces that show the agent's words (tally follow).
func (a *Adapter) Text(line []byte) (string, bool) {
	if !bytes.Contains(line, []byte(`agent_message_chunk`)) {
		return "", false
	}
	v, err := fastjson.ParseBytes(line)
	if err != nil {
		return "", false
	}
	u := v.Get("params", "update")
	if u == nil || string(u.GetStringBytes("sessionUpdate")) != updAgentMessage {
		return "", false
	}
	return string(u.GetStringBytes("content", "text")), true
}
