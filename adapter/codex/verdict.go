package codex

import (
	"strings"

	"github.com/valyala/fastjson"
)

// verdict is what Codex answered to an update_plan call.
type verdict uint8

const (
	unknownVerdict verdict = iota
	accepted
	rejected
)

// Codex's update_plan handler answers exactly "Plan updated" when it took
// the plan. Its refusals have varied between versions; these are the ones
// known. A refusal we do not recognise is not applied either, but is
// reported, so that a change of wording is noticed rather than silently
// hiding every plan.
const acceptedText = "Plan updated"

var rejectedText = []string{
	"failed to parse function arguments", // invalid arguments (capture update-plan-edge-cases)
	"aborted",                            // the turn was interrupted before the call ran
	"unsupported",                        // tool disabled or unknown payload
	"not allowed",                        // update_plan refused in plan mode
}

// verdictOf reads a function_call_output's output: a string, or in some
// versions {content, success} or a list of content items.
func verdictOf(out *fastjson.Value) verdict {
	if out == nil {
		return rejected
	}
	var text string
	switch out.Type() {
	case fastjson.TypeString:
		text = string(out.GetStringBytes())
	case fastjson.TypeObject:
		if s := out.Get("success"); s != nil && s.Type() == fastjson.TypeFalse {
			return rejected
		}
		text = string(out.GetStringBytes("content"))
	case fastjson.TypeArray:
		var b strings.Builder
		for _, c := range out.GetArray() {
			b.Write(c.GetStringBytes("text"))
		}
		text = b.String()
	default:
		return unknownVerdict
	}
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, acceptedText) {
		return accepted
	}
	low := strings.ToLower(text)
	for _, r := range rejectedText {
		if strings.Contains(low, r) {
			return rejected
		}
	}
	return unknownVerdict
}
