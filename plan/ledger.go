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

	"github.com/valyala/fastjson"

	"github.com/tallyhq/tally/internal/safefile"
)

// EntryType is what a ledger line records.
type EntryType string

const (
	// EntryPlanCreated: the first task files were found; Tasks lists
	// their folders and Total counts them.
	EntryPlanCreated EntryType = "plan_created"
	EntryTaskActive  EntryType = "task_activated"
	// EntryTaskPaused: another task was activated, so this one went
	// back to planned, its steps as they were (one task is active at a
	// time); Reason says which.
	EntryTaskPaused  EntryType = "task_paused"
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
	// EntryQuickTask is work done without a task file: Description says
	// what, By who. The marker "progress: quick done: what was done"
	// writes it (QuickTask).
	EntryQuickTask EntryType = "quick_task"
	// The verdicts on markers that changed nothing. Each carries the
	// marker's key, so a marker read again is recognised and not judged
	// twice.
	EntryRejected  EntryType = "marker_rejected"
	EntrySkipped   EntryType = "marker_skipped"
	EntryUnchanged EntryType = "marker_unchanged"
	// EntryUnrecognised: a line meant as a marker that is not one
	// ("progress: T001.S1 finished"); Marker is the line, Reason why.
	EntryUnrecognised EntryType = "marker_unrecognised"
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

// readLedger folds the ledger in d (see ledger). A missing ledger is
// empty. A line that is not an entry is a problem and is skipped; a last
// line with no newline is a write in progress (or one cut short by a
// crash) and is ignored. With a cache, only what was appended since the
// last read is read, and folded onto what was folded then.
func readLedger(d *safefile.Dir, name string, c *Cache) (*ledger, error) {
	f, err := d.OpenOwn(name)
	if errors.Is(err, fs.ErrNotExist) {
		c.keepLedger(ledgerRead{})
		return newLedger(), nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return c.readLedger(f, fi, name)
}

// foldLedger folds the ledger lines in into l, numbering them from
// l.lines+1, and returns how many bytes of complete lines it read.
func foldLedger(in io.Reader, name string, l *ledger) (int64, error) {
	var p fastjson.Parser
	var size int64
	err := eachLine(in, func(b []byte, n int64, long bool) {
		l.lines++
		size += n
		switch {
		case long:
			l.problem(Problem{Path: name, Line: l.lines, Msg: fmt.Sprintf("line longer than %d bytes", MaxLedgerLine)})
			return
		case len(b) == 0:
			return
		}
		v, err := p.ParseBytes(b)
		if err != nil || v.Type() != fastjson.TypeObject || !l.add(v) {
			l.problem(Problem{Path: name, Line: l.lines, Msg: "not a ledger entry"})
		}
	})
	return size, err
}

// eachLine calls fn with each complete line of in, trimmed, and its
// length in bytes (newline included); a line longer than MaxLedgerLine is
// read past and given as long. The line is valid only during the call.
func eachLine(in io.Reader, fn func(line []byte, n int64, long bool)) error {
	r := bufio.NewReaderSize(in, 64<<10)
	var buf []byte
	for {
		b, n, long, err := readLine(r, &buf)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		fn(bytes.TrimSpace(b), n, long)
	}
}

// readLine returns the next complete line and its length in bytes,
// newline included, using buf for a line the reader's buffer does not
// hold whole. A line longer than MaxLedgerLine is read past and reported
// as long; an unterminated last line is io.EOF.
func readLine(r *bufio.Reader, buf *[]byte) (line []byte, n int64, long bool, err error) {
	chunk, err := r.ReadSlice('\n')
	if err == nil {
		return chunk, int64(len(chunk)), false, nil
	}
	*buf = (*buf)[:0]
	for {
		n += int64(len(chunk))
		if len(*buf)+len(chunk) <= MaxLedgerLine {
			*buf = append(*buf, chunk...)
		} else {
			long = true
		}
		switch {
		case err == nil:
			return *buf, n, long, nil
		case errors.Is(err, bufio.ErrBufferFull):
			chunk, err = r.ReadSlice('\n')
		default:
			return nil, 0, false, err
		}
	}
}

// Entries reads the ledger's entries, in order, with the problems of the
// lines that are not entries: what shows the whole history (the
// timeline). The plan's views need only what Load folds of it.
func (f Folder) Entries() ([]Entry, Problems, error) {
	var out []Entry
	probs, err := f.eachEntry(func(e Entry) bool { out = append(out, e); return true })
	return out, probs, err
}

// Judged is, for each marker key the ledger holds, its first entry: the
// verdict the marker was given. One read of the ledger answers them all.
func (f Folder) Judged(keys ...string) (map[string]Entry, error) {
	want := map[string]bool{}
	for _, k := range keys {
		want[k] = true
	}
	found := map[string]Entry{}
	_, err := f.eachEntry(func(e Entry) bool {
		if want[e.Key] {
			if _, dup := found[e.Key]; !dup {
				found[e.Key] = e
			}
		}
		return len(found) < len(want)
	})
	return found, err
}

// eachEntry streams the ledger's entries to fn until it returns false.
func (f Folder) eachEntry(fn func(Entry) bool) (Problems, error) {
	d, err := f.open(false)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	in, err := d.OpenOwn(LedgerFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, refusal("read ledger", err)
	}
	defer in.Close()
	l := newLedger() // for its bounded problems
	more := true
	line := 0
	err = eachLine(in, func(b []byte, _ int64, long bool) {
		line++
		switch {
		case !more, len(b) == 0 && !long:
			return
		case long:
			l.problem(Problem{Path: LedgerFile, Line: line, Msg: fmt.Sprintf("line longer than %d bytes", MaxLedgerLine)})
			return
		}
		var e Entry
		if err := json.Unmarshal(b, &e); err != nil || e.Type == "" {
			l.problem(Problem{Path: LedgerFile, Line: line, Msg: "not a ledger entry"})
			return
		}
		more = fn(e)
	})
	return l.problems(LedgerFile), err
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
