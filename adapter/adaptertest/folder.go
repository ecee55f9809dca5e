package adaptertest

import (
	"bytes"
	"testing"

	"github.com/tallyhq/tally"
)

// Folder feeds a file one line at a time through FileState.Feed, so a test
// can look at the state between lines the way a live tail sees a file grow.
type Folder struct {
	T    testing.TB
	A    tally.LineReader
	Info tally.FileInfo
	St   *tally.FileState
	// Diags collects every diagnostic Feed met.
	Diags []tally.Diagnostic
	// Restart rebuilds the decoder from its saved state before every line,
	// as a restart between any two lines would.
	Restart bool
	dec     tally.Decoder
}

func NewFolder(t testing.TB, a tally.LineReader, fi tally.FileInfo) *Folder {
	return &Folder{T: t, A: a, Info: fi, St: &tally.FileState{Path: fi.Path, Agent: a.Agent(), Session: fi.Session}}
}

// Feed folds one line (without its newline) and returns its diagnostics.
func (f *Folder) Feed(line []byte) []tally.Diagnostic {
	f.T.Helper()
	if f.dec == nil || f.Restart {
		dec, err := f.A.NewDecoder(f.Info, f.St.Decoder)
		if err != nil {
			f.T.Fatalf("NewDecoder: %v", err)
		}
		f.dec = dec
	}
	_, diags := f.St.Feed(f.dec, append(append([]byte(nil), line...), '\n'))
	f.Diags = append(f.Diags, diags...)
	return diags
}

// List is the items of one list so far ("" is the main agent's).
func (f *Folder) List(name string) []tally.Item {
	if l := f.St.Lists[name]; l != nil {
		return l.Items()
	}
	return nil
}

// Lines splits a file into its non-blank lines, without newlines.
func Lines(data []byte) [][]byte {
	var out [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			out = append(out, l)
		}
	}
	return out
}
