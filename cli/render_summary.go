package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/tallyhq/tally/index"
)

// summaryJSON is `tally scan --json`: the scan's counts, its time in
// seconds and its throughput.
type summaryJSON struct {
	Sessions  int   `json:"sessions"`
	Files     int   `json:"files"`
	Lines     int64 `json:"lines"`
	Bytes     int64 `json:"bytes"`
	Parsed    int64 `json:"parsed"`
	Malformed int64 `json:"malformed"`
	// Unreadable counts files that could not be read at all.
	Unreadable int `json:"unreadable"`
	// Reread counts files read again from their start (they shrank or
	// were replaced); Unchanged, files with nothing new since the last
	// scan, not read.
	Reread    int     `json:"reread"`
	Unchanged int     `json:"unchanged"`
	Seconds   float64 `json:"seconds"`
	MBPerSec  float64 `json:"mbPerSec"`
}

func toSummaryJSON(s index.Summary) summaryJSON {
	secs := s.Elapsed.Seconds()
	var rate float64
	if secs > 0 {
		rate = float64(s.Bytes) / 1e6 / secs
	}
	return summaryJSON{
		Sessions: s.Sessions, Files: s.Files, Lines: s.Lines, Bytes: s.Bytes,
		Parsed: s.Parsed, Malformed: s.Malformed, Unreadable: s.Unreadable,
		Reread: s.Reread, Unchanged: s.Unchanged, Seconds: secs, MBPerSec: rate,
	}
}

// RenderSummary writes what a scan did, one fact a line. The counts are
// of what this scan read: files it found unchanged since the last one
// are said to be, so that a second scan's zeros do not read as nothing
// found.
func RenderSummary(w io.Writer, s index.Summary) error {
	j := toSummaryJSON(s)
	files := fmt.Sprint(j.Files)
	if j.Unchanged > 0 {
		files += fmt.Sprintf(" read; %d unchanged since the last scan, not read again", j.Unchanged)
	}
	_, err := fmt.Fprintf(w,
		"sessions   %d\nfiles      %s\nlines      %d\nbytes      %d (%.1f MB)\nparsed     %d lines\nmalformed  %d lines\nseconds    %.2f (%.1f MB/s)\n",
		j.Sessions, files, j.Lines, j.Bytes, float64(j.Bytes)/1e6, j.Parsed, j.Malformed, j.Seconds, j.MBPerSec)
	if err == nil && j.Reread > 0 {
		_, err = fmt.Fprintf(w, "reread     %d files (shrank or replaced: read again from the start)\n", j.Reread)
	}
	if err == nil && j.Unreadable > 0 {
		_, err = fmt.Fprintf(w, "unreadable %d files\n", j.Unreadable)
	}
	return err
}

// RenderSummaryJSON writes the summary as one JSON object.
func RenderSummaryJSON(w io.Writer, s index.Summary) error {
	return json.NewEncoder(w).Encode(toSummaryJSON(s))
}
