package plan

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/tallyhq/tally/internal/safefile"
)

// EntryType is what a ledger line records.
type EntryType string

const (
	// EntryPlanCreated: the first task files were found; Tasks lists
	// their folders and Total counts them.
	EntryPlanCreated EntryType = "plan_created"
	EntryTaskActive  EntryType = "task_activated"
	EntryStepStarted EntryType = "step_started"
	EntryStepDone    EntryType = "step_completed"
	// EntryTaskDone: the task's last step was completed; Done/Total are
	// its steps.
	EntryTaskDone EntryType = "task_completed"
	// EntryAllDone: the last task was completed; Done/Total are tasks.
	EntryAllDone      EntryType = "all_complete"
	EntryStepBlocked  EntryType = "step_blocked"
	EntryTaskPromoted EntryType = "task_promoted"
	// EntryScopeChange: task folders appeared or went away; From/To are
	// the counts, Added/Removed the folders.
	EntryScopeChange EntryType = "scope_change"
	// EntryQuickTask is work done without a task file. Tally reads these
	// (and counts them) but does not write them: no marker says so.
	EntryQuickTask EntryType = "quick_task"
	// The verdicts on markers that changed nothing. Each carries the
	// marker's key, so a marker read again is recognised and not judged
	// twice.
	EntryRejected  EntryType = "marker_rejected"
	EntrySkipped   EntryType = "marker_skipped"
	EntryUnchanged EntryType = "marker_unchanged"
)

// Entry is one line of ledger.jsonl. Fields a type does not use are left
// out of the line.
type Entry struct {
	Type EntryType `json:"type"`
	At   time.Time `json:"at"`
	Task string    `json:"task,omitempty"`
	Step string    `json:"step,omitempty"`
	// Reason: why a step is blocked, a marker rejected or skipped, the
	// scope changed.
	Reason string `json:"reason,omitempty"`
	// Marker is the marker as written, on the entries of rejected,
	// skipped and unchanged markers.
	Marker string `json:"marker,omitempty"`
	// Key identifies the marker the entry came from (see Key); By is the
	// session that wrote it.
	Key         string   `json:"key,omitempty"`
	By          string   `json:"by,omitempty"`
	Done        int      `json:"done,omitempty"`
	Total       int      `json:"total,omitempty"`
	From        int      `json:"from,omitempty"`
	To          int      `json:"to,omitempty"`
	Tasks       []string `json:"tasks,omitempty"`
	Added       []string `json:"added,omitempty"`
	Removed     []string `json:"removed,omitempty"`
	Description string   `json:"description,omitempty"`
}

// MaxLedgerLine bounds one ledger line; a longer one is a problem, not a
// reason to hold the file in memory.
const MaxLedgerLine = 64 << 10

// readLedger reads the ledger. A missing ledger is empty. A line that is
// not an entry is a problem and is skipped; a last line with no newline is
// a write in progress (or one cut short by a crash) and is ignored. With a
// cache, only what was appended since the last read is read.
func readLedger(d *safefile.Dir, name string, c *Cache) ([]Entry, Problems, error) {
	f, err := d.OpenOwn(name)
	if errors.Is(err, fs.ErrNotExist) {
		c.keepLedger(ledgerRead{})
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	return c.readLedger(f, fi, name)
}

// ledgerChunk is what one read of the ledger found: the entries and
// problems of its complete lines, how many bytes those lines take and how
// many lines they are.
type ledgerChunk struct {
	entries []Entry
	probs   Problems
	size    int64
	lines   int
}

// decodeLedger reads ledger lines from in, numbering them from line+1;
// see readLedger.
func decodeLedger(in io.Reader, name string, line int) (ledgerChunk, error) {
	var c ledgerChunk
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		b, n, long, err := readLine(r)
		if err == io.EOF {
			return c, nil
		}
		if err != nil {
			return ledgerChunk{}, err
		}
		line++
		c.lines++
		c.size += n
		if long {
			c.probs = append(c.probs, Problem{Path: name, Line: line, Msg: fmt.Sprintf("line longer than %d bytes", MaxLedgerLine)})
			continue
		}
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(b, &e); err != nil || e.Type == "" {
			c.probs = append(c.probs, Problem{Path: name, Line: line, Msg: "not a ledger entry"})
			continue
		}
		c.entries = append(c.entries, e)
	}
}

// readLine returns the next complete line and its length in bytes,
// newline included. A line longer than MaxLedgerLine is read past and
// reported as long; an unterminated last line is io.EOF.
func readLine(r *bufio.Reader) (line []byte, n int64, long bool, err error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		n += int64(len(chunk))
		if len(buf)+len(chunk) <= MaxLedgerLine {
			buf = append(buf, chunk...)
		} else {
			long = true
		}
		switch {
		case err == nil:
			return buf, n, long, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return nil, 0, false, err
		}
	}
}

// appendLedger appends entries to the ledger in d in one write and syncs
// it. If the ledger's last line was cut short by a crash, the new entries
// start on a line of their own. A ledger that is not a regular file of the
// user's with one name is refused (safefile.Dir.Append): appending would
// write through it.
func appendLedger(d *safefile.Dir, entries []Entry) error {
	if len(entries) == 0 {
		return nil
	}
	var buf bytes.Buffer
	for _, e := range entries {
		e.At = e.At.UTC()
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	f, err := d.Append(LedgerFile, 0o644)
	if err != nil {
		return err
	}
	out := buf.Bytes()
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			out = append([]byte{'\n'}, out...)
		}
	}
	if _, err := f.Write(out); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
