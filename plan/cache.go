package plan

import (
	"bytes"
	"io"
	"os"
	"sync"
)

// Cache keeps what reading a plan folder found, so that reading it again
// costs what changed since: a task file holding the bytes it held last
// time is not parsed again, and the ledger, which only grows, is read on
// from where the last read stopped. A process that reads the same folder
// again and again (the indexer applying markers, a server showing the
// plan) gives its Folder one. It is safe for concurrent use, and what it
// hands out is never changed afterwards.
type Cache struct {
	mu     sync.Mutex
	tasks  map[string]parsedTask // by task folder name
	ledger ledgerRead
}

// parsedTask is one task file as last read and parsed.
type parsedTask struct {
	data  []byte
	task  *Task
	probs Problems
}

// ledgerRead is the ledger as last read.
type ledgerRead struct {
	fi os.FileInfo // nil: nothing read
	// end is where reading stopped: the end of the last complete line.
	end int64
	// tail holds the bytes just before end, to tell the same ledger grown
	// from one rewritten in place.
	tail []byte
	// l is what was folded of it, handed out and never changed after
	// (a later read folds a copy: ledger.grow).
	l *ledger
}

// tailLen is how many bytes before the end of what was read are compared.
const tailLen = 64

// task returns the task file in folder dir parsed, from the cache when its
// bytes are those parsed before. A nil cache parses every time.
func (c *Cache) task(dir, name string, data []byte) (*Task, Problems) {
	if c != nil {
		c.mu.Lock()
		pt, ok := c.tasks[dir]
		c.mu.Unlock()
		if ok && bytes.Equal(pt.data, data) {
			return pt.task, pt.probs
		}
	}
	t, err := Parse(name, data)
	var probs Problems
	if err != nil {
		probs = err.(Problems)
	} else {
		t.Dir = dir
	}
	if c != nil {
		c.mu.Lock()
		if c.tasks == nil {
			c.tasks = map[string]parsedTask{}
		}
		c.tasks[dir] = parsedTask{data: data, task: t, probs: probs}
		c.mu.Unlock()
	}
	return t, probs
}

// keepTasks forgets the task folders that are gone.
func (c *Cache) keepTasks(present map[string]bool) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for dir := range c.tasks {
		if !present[dir] {
			delete(c.tasks, dir)
		}
	}
}

func (c *Cache) keepLedger(r ledgerRead) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.ledger = r
	c.mu.Unlock()
}

// readLedger folds the open ledger f: from where the cached read stopped,
// onto what was folded then, when f is that ledger grown; else whole.
func (c *Cache) readLedger(f *os.File, fi os.FileInfo, name string) (*ledger, error) {
	if c == nil {
		l := newLedger()
		_, err := foldLedger(f, name, l)
		return l, err
	}
	// Held while reading, so the ledger is folded in one place only.
	c.mu.Lock()
	defer c.mu.Unlock()
	prev := c.ledger
	if !prev.grownTo(f, fi) {
		prev = ledgerRead{}
	}
	if _, err := f.Seek(prev.end, io.SeekStart); err != nil {
		return nil, err
	}
	l := newLedger()
	if prev.l != nil {
		l = prev.l.grow()
	}
	size, err := foldLedger(f, name, l)
	if err != nil {
		return nil, err
	}
	next := ledgerRead{fi: fi, end: prev.end + size, l: l}
	if n := min(next.end, tailLen); n > 0 {
		next.tail = make([]byte, n)
		if _, err := f.ReadAt(next.tail, next.end-n); err != nil {
			next = ledgerRead{} // read again whole next time
		}
	}
	c.ledger = next
	return l, nil
}

// grownTo tells whether f is the ledger r read, grown or as it was.
func (r ledgerRead) grownTo(f *os.File, fi os.FileInfo) bool {
	if r.fi == nil || !os.SameFile(r.fi, fi) || fi.Size() < r.end {
		return false
	}
	if len(r.tail) == 0 {
		return r.end == 0
	}
	buf := make([]byte, len(r.tail))
	_, err := f.ReadAt(buf, r.end-int64(len(buf)))
	return err == nil && bytes.Equal(buf, r.tail)
}
