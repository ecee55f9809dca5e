package gemini

import (
	"github.com/valyala/fastjson"
)

// Sniff recognises the first line of a Gemini CLI stream (a stream-json
// init event: session_id and model) or of a chat record (its header:
// sessionId and projectHash).
func (a *Adapter) Sniff(line []byte) bool {
	v, err := fastjson.ParseBytes(line)
	if err != nil || v.Type() != fastjson.TypeObject {
		return false
	}
	if string(v.GetStringBytes("type")) == streamInit {
		return v.Get("session_id") != nil && v.Get("model") != nil
	}
	return v.Get("sessionId") != nil && v.Get("projectHash") != nil
}
