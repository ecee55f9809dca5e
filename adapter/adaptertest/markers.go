package adaptertest

import (
	"bytes"

	"github.com/tallyhq/tally"
)

// MarkerText is a progress marker as an agent writes it:
// "progress: T001.S2 blocked: reason".
func MarkerText(m tally.Marker) string {
	s := "progress: " + m.Task
	if m.Step != "" {
		s += "." + m.Step
	}
	s += " " + m.Verb
	if m.Reason != "" {
		s += ": " + m.Reason
	}
	return s
}

// LineAt is the line of data that starts at off, without its newline.
func LineAt(data []byte, off int64) []byte {
	line, _, _ := bytes.Cut(data[off:], []byte("\n"))
	return line
}
