package normalize

import (
	"crypto/sha1"
	"fmt"
)

// eventID is a name-based UUID (RFC 9562 version 5 layout, SHA-1 of a name
// in Tally's own namespace string) of what makes an event unique within a
// stream — its kind, session, list and input line. The event's eventId is
// a uuid; deriving it from the input, not from a random source, makes the
// same input give the same output, which golden tests and consumers that
// deduplicate by eventId both rely on.
func eventID(kind, session, list string, line int64, n int) string {
	h := sha1.Sum(fmt.Appendf(nil, "tally/normalize\x00%s\x00%s\x00%s\x00%d\x00%d", kind, session, list, line, n))
	h[6] = h[6]&0x0f | 0x50 // version 5
	h[8] = h[8]&0x3f | 0x80 // RFC variant
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// todoID names one instance of a list: "<session>/<list>#<n>", list being
// "main" for the main agent's, n counting from 1 the times the list was
// started afresh — it begins a new instance whenever it becomes non-empty
// after having been empty (an empty list is a cleared list).
// The session is the one known when the instance began, "-" if none was yet.
func todoID(session, list string, n int) string {
	if session == "" {
		session = "-"
	}
	if list == "" {
		list = "main"
	}
	return fmt.Sprintf("%s/%s#%d", session, list, n)
}
