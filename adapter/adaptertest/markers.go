package adaptertest

import (
	"bytes"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/marker"
)

// MarkerText is a progress marker as an agent writes it:
// "progress: T001.S2 blocked: reason" (marker.Text).
func MarkerText(m tally.Marker) string { return marker.Text(m) }

// LineAt is the line of data that starts at off, without its newline.
func LineAt(data []byte, off int64) []byte {
	line, _, _ := bytes.Cut(data[off:], []byte("\n"))
	return line
}
