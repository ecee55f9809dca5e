package mcp

import (
	"bytes"
	"encoding/json"
	"regexp"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// checkFrame reads one line of the stdio stream as JSON-RPC 2.0: either
// msg, a message the SDK can take, or reply, the error answer to write
// (nil for a batch that holds only notifications). Per JSON-RPC 2.0:
//
//   - text that is not UTF-8 or not JSON is a parse error (-32700);
//   - valid JSON that is not a request or response object is an invalid
//     request (-32600): a scalar, null, an object without "jsonrpc":"2.0",
//     an id that is neither a string nor an integer, neither a method nor
//     a result or error;
//   - a batch (an array) gets an array of answers, one per request in it:
//     MCP no longer has batches, so each request is refused by its id;
//   - an answer carries the message's id when it can be read, else null.
func checkFrame(line []byte) (msg jsonrpc.Message, reply []byte) {
	if !utf8.Valid(line) {
		return nil, errorReply(nil, jsonrpc.CodeParseError, "the message is not UTF-8 text")
	}
	if !json.Valid(line) {
		return nil, errorReply(nil, jsonrpc.CodeParseError, "the message is not valid JSON; each message is one JSON object on one line")
	}
	switch v := bytes.TrimSpace(line); v[0] {
	case '[':
		return nil, batchReply(v)
	case '{':
		return checkObject(v)
	default:
		return nil, errorReply(nil, jsonrpc.CodeInvalidRequest, "a message is a JSON object, not "+kindOf(v[0]))
	}
}

func kindOf(first byte) string {
	switch first {
	case '"':
		return "a string"
	case 'n':
		return "null"
	case 't', 'f':
		return "true or false"
	}
	return "a number"
}

// checkObject checks a JSON object (known to be valid JSON).
func checkObject(obj []byte) (jsonrpc.Message, []byte) {
	var f map[string]json.RawMessage
	if err := json.Unmarshal(obj, &f); err != nil {
		return nil, errorReply(nil, jsonrpc.CodeInvalidRequest, "the message cannot be read (nested too deep?)")
	}
	rawID, hasID := f["id"]
	id := json.RawMessage(nil)
	if hasID {
		if !validID(rawID) {
			return nil, errorReply(nil, jsonrpc.CodeInvalidRequest, `"id" must be a string or an integer`)
		}
		id = rawID
	}
	var version string
	if json.Unmarshal(f["jsonrpc"], &version) != nil || version != "2.0" {
		return nil, errorReply(id, jsonrpc.CodeInvalidRequest, `the message must have "jsonrpc":"2.0"`)
	}
	if m, ok := f["method"]; ok {
		var method string
		if json.Unmarshal(m, &method) != nil {
			return nil, errorReply(id, jsonrpc.CodeInvalidRequest, `"method" must be a string`)
		}
	} else if _, result := f["result"]; !hasID || !result && f["error"] == nil {
		return nil, errorReply(id, jsonrpc.CodeInvalidRequest, `a message needs a "method" (a request or notification), or an "id" with a "result" or "error" (a response)`)
	}
	msg, err := jsonrpc.DecodeMessage(obj)
	if err != nil {
		return nil, errorReply(id, jsonrpc.CodeInvalidRequest, "the message cannot be read as JSON-RPC 2.0")
	}
	return msg, nil
}

// integerID is an id the SDK reads back exactly: an integer literal that
// a float64 holds without loss (it decodes numbers as float64).
var integerID = regexp.MustCompile(`^-?(0|[1-9][0-9]{0,14})$`)

func validID(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		return true // valid JSON, so a whole string
	}
	return integerID.Match(raw)
}

// batchReply answers a batch: MCP has none, so each request in it is
// refused by its id and nothing in it is handed on. Notifications are not
// answered; a member that is not a message is, with a null id. An empty
// batch gets one answer, not an array.
func batchReply(arr []byte) []byte {
	var members []json.RawMessage
	if json.Unmarshal(arr, &members) != nil {
		return errorReply(nil, jsonrpc.CodeInvalidRequest, "the batch cannot be read (nested too deep?)")
	}
	if len(members) == 0 {
		return errorReply(nil, jsonrpc.CodeInvalidRequest, "an empty batch is not a request")
	}
	var replies []json.RawMessage
	for _, m := range members {
		m = bytes.TrimSpace(m)
		var reply []byte
		switch m[0] {
		case '{':
			msg, r := checkObject(m)
			reply = r
			if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
				reply = errorReply(idJSON(req.ID), jsonrpc.CodeInvalidRequest, "batches are not accepted: send each request on a line of its own")
			}
		default:
			reply = errorReply(nil, jsonrpc.CodeInvalidRequest, "a batch holds JSON objects, not "+kindOf(m[0]))
		}
		if reply != nil {
			replies = append(replies, reply)
		}
	}
	if len(replies) == 0 {
		return nil
	}
	out, _ := json.Marshal(replies) // each is valid JSON already
	return out
}

// errorReply is a JSON-RPC error response; a nil id is null.
func errorReply(id json.RawMessage, code int, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	out, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	return out
}

// idJSON is a request id as JSON.
func idJSON(id jsonrpc.ID) json.RawMessage {
	out, _ := json.Marshal(id.Raw()) // a string or an int64
	return out
}
