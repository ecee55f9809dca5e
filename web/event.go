package web

import "strconv"

// eventSnapshot is the type of the event that gives a client every live
// session at once. The other events are a session's change, typed by the
// word of its index.ChangeKind (session_updated, session_removed): the
// word tally watch --json prints as "type", defined once for both wires.
// The page dispatches on these words.
const eventSnapshot = "snapshot"

// event is one frame of the stream, encoded once for every client.
type event struct {
	id    uint64
	frame []byte
}

// removed is the data of an index.SessionRemoved event.
type removed struct {
	ID string `json:"id"`
}

// appendFrame appends one SSE frame. data is compact JSON, which holds no
// newline, so it fits one data: line.
func appendFrame(b []byte, id uint64, kind string, data []byte) []byte {
	b = append(b, "id: "...)
	b = strconv.AppendUint(b, id, 10)
	b = append(b, "\nevent: "...)
	b = append(b, kind...)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	return append(b, "\n\n"...)
}
