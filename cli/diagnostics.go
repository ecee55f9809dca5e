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
// calls add from its own goroutines.
type diagnostics struct {
	mu    sync.Mutex
	shown []tally.Diagnostic
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
