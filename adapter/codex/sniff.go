package codex

import (
	"strings"

	"github.com/valyala/fastjson"
)

// Sniff recognises the first line of a rollout (a session_meta line) or of
// an exec --json stream (thread.started, turn.started or an item event).
func (a *Adapter) Sniff(line []byte) bool {
	v, err := fastjson.ParseBytes(line)
	if err != nil {
		return false
	}
	typ := string(v.GetStringBytes("type"))
	switch {
	case typ == "session_meta":
		p := v.Get("payload")
		return p != nil && p.Type() == fastjson.TypeObject && v.Get("timestamp") != nil
	case typ == "thread.started":
		return v.Get("thread_id") != nil
	case typ == "turn.started":
		return true
	case strings.HasPrefix(typ, "item."):
		it := v.Get("item")
		return it != nil && it.Type() == fastjson.TypeObject
	}
	return false
}
