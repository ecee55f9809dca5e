package agentdb

import (
	"fmt"

	"github.com/tallyhq/tally"
)

// MaxDiagnostics bounds the rows one read lists: a damaged database can
// hold a bad row per message, and a hundred say as much as a million.
const MaxDiagnostics = 100

// Diags collects the rows one read of a database could not use. Every row
// is counted; the first MaxDiagnostics are kept.
type Diags struct {
	// Path is the database's path, the Path of every diagnostic.
	Path string
	list []tally.Diagnostic
	n    int
}

// Add records that a row of table could not be used. row names it for a
// person ("row 17 (session 2026…)", "of session ses_4a1b"); why says what
// was wrong and what became of the row. rowid is the row's SQLite rowid
// when the query has it, else 0; it becomes the diagnostic's Offset.
func (d *Diags) Add(rowid int64, table, row, why string) {
	d.n++
	if len(d.list) < MaxDiagnostics {
		d.list = append(d.list, tally.Diagnostic{Path: d.Path, Offset: rowid, Msg: table + " " + row + ": " + why})
	}
}

// Len is how many rows were recorded, listed or not.
func (d *Diags) Len() int { return d.n }

// List returns the diagnostics kept, and when rows went unlisted one more
// saying how many: at most MaxDiagnostics+1.
func (d *Diags) List() []tally.Diagnostic {
	if d.n <= len(d.list) {
		return d.list
	}
	more := tally.Diagnostic{Path: d.Path, Msg: fmt.Sprintf("%d more rows could not be used (%d in all); only the first %d are listed", d.n-len(d.list), d.n, len(d.list))}
	return append(d.list[:len(d.list):len(d.list)], more)
}
