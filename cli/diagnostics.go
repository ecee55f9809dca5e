package cli

import (
	"fmt"
	"io"
	"sync"

	"github.com/tallyhq/tally"
)

// maxShownDiagnostics bounds the problems printed: a damaged history can
// hold thousands, and the count says the rest.
const maxShownDiagnostics = 10

// diagnostics collects the indexer's reports of bad input; the indexer
// calls add from its own goroutines. Its fields are its own: everything
// else goes through its methods.
type diagnostics struct {
	mu sync.Mutex
	// shown are the problems printed, or to print, since the last flush
	// (at most maxShownDiagnostics).
	shown []tally.Diagnostic
	// total counts every problem reported.
	total int
	// live prints each diagnostic as it comes instead of at the end.
	live io.Writer
}

func (d *diagnostics) add(diag tally.Diagnostic) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.total++
	if len(d.shown) >= maxShownDiagnostics {
		return
	}
	d.shown = append(d.shown, diag)
	if d.live != nil {
		fmt.Fprintln(d.live, "tally: "+diagText(diag))
	}
}

func diagText(d tally.Diagnostic) string {
	switch {
	case d.Path == "":
		return d.Msg
	case d.Offset == 0:
		return d.Path + ": " + d.Msg
	}
	return fmt.Sprintf("%s:%d: %s", d.Path, d.Offset, d.Msg)
}

// printLive prints each problem reported from now on to w as it comes, up
// to the bound; the count of all goes on.
func (d *diagnostics) printLive(w io.Writer) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.live, d.shown = w, nil
}

// count is how many problems with the input the indexer reported.
func (d *diagnostics) count() int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return int64(d.total)
}

// flush prints what was collected (when not printed live) and how many
// more there were.
func (d *diagnostics) flush(w io.Writer) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.live == nil {
		for _, diag := range d.shown {
			fmt.Fprintln(w, "tally: "+diagText(diag))
		}
	}
	if more := d.total - len(d.shown); more > 0 {
		fmt.Fprintf(w, "tally: … and %d more problems with the input\n", more)
	}
}
