package geminitest

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// LegacyTodos are the items of the list a record LegacyRecord writes ends
// with, in order, as Gemini CLI's write_todos gave them.
var LegacyTodos = []string{"Plan the change", "Write the code"}

// LegacyMarker is the progress marker the model's last message of a
// LegacyRecord holds.
const LegacyMarker = "progress: T001 start"

// LegacyRecord writes at path a legacy Gemini CLI record (the JSON
// document rewritten whole of Gemini CLI before 2026-04) of session of at
// least size bytes: filler messages of the model, then one calling
// write_todos with LegacyTodos and saying LegacyMarker. It is written a
// message at a time, never held whole.
func LegacyRecord(path, session string, size int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, `{"sessionId":%q,"startTime":"2026-11-23T10:00:00.000Z","lastUpdated":"2026-11-23T10:04:00.000Z","messages":[`, session)
	fmt.Fprint(w, `{"id":"u1","timestamp":"2026-11-23T10:00:10.000Z","type":"user","content":[{"text":"A long session"}]}`)
	filler := strings.Repeat("lorem ipsum ", 1000)
	for n, written := 0, 0; written < size; n++ {
		k, _ := fmt.Fprintf(w, `,{"id":"filler-%d","timestamp":"2026-11-23T10:00:30.000Z","type":"gemini","content":%q}`, n, filler)
		written += k
	}
	fmt.Fprintf(w, `,{"id":"g1","timestamp":"2026-11-23T10:02:00.000Z","type":"gemini","content":"Planned.\n%s","model":"gemini-2.5-pro",`+
		`"toolCalls":[{"id":"w1","name":"write_todos","args":{"todos":[{"description":%q,"status":"in_progress"},{"description":%q,"status":"pending"}]},`+
		`"status":"success","timestamp":"2026-11-23T10:02:00.000Z"}]}]}`, LegacyMarker, LegacyTodos[0], LegacyTodos[1])
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
