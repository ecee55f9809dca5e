package web

import "strconv"

// eventKind names an SSE event type; the page dispatches on these words.
type eventKind uint8

const (
	eventSnapshot eventKind = iota
	eventSessionUpdated
	eventSessionRemoved
)

var eventNames = [...]string{
	eventSnapshot:       "snapshot",
	eventSessionUpdated: "session_updated",
	eventSessionRemoved: "session_removed",
}

func (k eventKind) String() string { return eventNames[k] }

// event is one frame of the stream, encoded once for every client.
type event struct {
	id    uint64
	frame []byte
}

// removed is the data of session_removed.
type removed struct {
	ID string `json:"id"`
}

// appendFrame appends one SSE frame. data is compact JSON, which holds no
// newline, so it fits one data: line.
func appendFrame(b []byte, id uint64, kind eventKind, data []byte) []byte {
	b = append(b, "id: "...)
	b = strconv.AppendUint(b, id, 10)
	b = append(b, "\nevent: "...)
	b = append(b, kind.String()...)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	return append(b, "\n\n"...)
}
