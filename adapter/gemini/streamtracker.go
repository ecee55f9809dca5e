package gemini

import (
	"cmp"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/safefile"
	"github.com/valyala/fastjson"
)

// In stream-json the tracker's calls show only their parameters, and their
// tool_results only a status: a create's new id and the tracker drawn as a
// list (the chat record's resultDisplay) are not in the stream. The
// tracker keeps every task in a file of its own,
// <home>/tmp/<projectId>/<sessionId>/tracker/<id>.json ({id, title,
// description, type, status, parentId, dependencies}), written as the call
// runs: so after each successful tracker call the tasks are read from
// there, a full resync. Where those files cannot be found (the stream is
// read away from Gemini CLI's home) the stream's own words are used: a
// create adds a task by its title, an update or a dependency edits the task
// it names — which, its id never having been seen, is an orphan.

// Bounds on what is read of a tracker's files.
const (
	maxTrackerFiles = 1000
	maxTrackerBytes = 64 << 10
)

// pendingTracker is a stream-json tracker call awaiting its result.
type pendingTracker struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Title  string `json:"title,omitempty"`
	Desc   string `json:"desc,omitempty"`
	Task   string `json:"task,omitempty"`
	Status string `json:"status,omitempty"`
	Dep    string `json:"dep,omitempty"`
}

// streamTrackerCall holds a tracker tool_use until its result.
func (d *Decoder) streamTrackerCall(v *fastjson.Value, name string) error {
	c := pendingTracker{Name: name}
	var err error
	if c.ID, err = str(v, "tool_id"); err != nil || c.ID == "" {
		return errText(name + " tool_use without tool_id")
	}
	if p := v.Get("parameters"); p != nil && p.Type() == fastjson.TypeObject {
		task := "id"
		if name == trackerDependency {
			task = "taskId"
		}
		for _, f := range [...]struct {
			key string
			dst *string
		}{{"title", &c.Title}, {"description", &c.Desc}, {"status", &c.Status}, {"dependencyId", &c.Dep}, {task, &c.Task}} {
			if *f.dst, err = str(p, f.key); err != nil {
				return err
			}
		}
	}
	d.st.Trackers = append(d.st.Trackers, c)
	if len(d.st.Trackers) > maxPending {
		d.st.Trackers = d.st.Trackers[1:]
	}
	return nil
}

// streamTracker applies a tracker call that succeeded.
func (d *Decoder) streamTracker(c pendingTracker, at time.Time) {
	if items, ok := d.trackerFiles(); ok {
		d.add(tally.Event{Kind: tally.EventTaskResync, ToolUseID: c.ID, At: at, Items: items})
		return
	}
	p := tally.TaskPatch{ID: c.Task}
	if c.Title != "" {
		p.Subject = &c.Title
	}
	if c.Desc != "" {
		p.Description = &c.Desc
	}
	if c.Status != "" {
		st, raw := tally.StatusOf(c.Status)
		p.Status, p.RawStatus = &st, raw
	}
	switch c.Name {
	case trackerCreate:
		p.ID = ""
		d.add(tally.Event{Kind: tally.EventTaskCreate, ToolUseID: c.ID, At: at, Patch: p})
	case trackerUpdate:
		d.add(tally.Event{Kind: tally.EventTaskUpdate, ToolUseID: c.ID, At: at, Patch: p})
	case trackerDependency:
		if c.Dep != "" {
			d.add(tally.Event{Kind: tally.EventTaskUpdate, ToolUseID: c.ID, At: at, Patch: tally.TaskPatch{ID: c.Task, AddBlockedBy: []string{c.Dep}}})
		}
	}
}

type trackerTask struct {
	ID           string   `json:"id"`
	Title        string   `json:"title"`
	Description  string   `json:"description"`
	Status       string   `json:"status"`
	ParentID     string   `json:"parentId"`
	Dependencies []string `json:"dependencies"`
}

// trackerFiles reads the stream session's tracker tasks in the tracker's
// own order: each task after its parent, siblings by id. ok is false when
// there is no tracker folder to read.
func (d *Decoder) trackerFiles() ([]tally.Item, bool) {
	if d.home == "" || d.st.Stream == "" || !safeID(d.st.Stream) {
		return nil, false
	}
	dirs, _ := filepath.Glob(filepath.Join(d.home, "tmp", "*", d.st.Stream, "tracker"))
	if len(dirs) == 0 {
		return nil, false
	}
	entries, err := os.ReadDir(dirs[0])
	if err != nil {
		return nil, false
	}
	var tasks []trackerTask
	for _, e := range entries {
		if len(tasks) == maxTrackerFiles {
			break
		}
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		if t, ok := readTrackerTask(filepath.Join(dirs[0], e.Name())); ok {
			tasks = append(tasks, t)
		}
	}
	return treeOrder(tasks), true
}

func readTrackerTask(path string) (trackerTask, bool) {
	var t trackerTask
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return t, false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxTrackerBytes))
	if err != nil || json.Unmarshal(b, &t) != nil || t.ID == "" {
		return t, false
	}
	return t, true
}

// treeOrder lists tasks as the tracker draws them: roots, each followed by
// its children, siblings by id. A task whose parent is not there is a root.
func treeOrder(tasks []trackerTask) []tally.Item {
	slices.SortFunc(tasks, func(a, b trackerTask) int { return cmp.Compare(a.ID, b.ID) })
	byID := make(map[string]bool, len(tasks))
	children := make(map[string][]trackerTask)
	for _, t := range tasks {
		byID[t.ID] = true
	}
	var roots []trackerTask
	for _, t := range tasks {
		if t.ParentID != "" && byID[t.ParentID] && t.ParentID != t.ID {
			children[t.ParentID] = append(children[t.ParentID], t)
		} else {
			roots = append(roots, t)
		}
	}
	out := make([]tally.Item, 0, len(tasks))
	seen := make(map[string]bool, len(tasks))
	var add func(t trackerTask)
	add = func(t trackerTask) {
		if seen[t.ID] {
			return // a cycle of parents
		}
		seen[t.ID] = true
		it := tally.Item{ID: t.ID, Title: t.Title, Description: t.Description, Source: tally.SourceTask,
			BlockedBy: append([]string(nil), t.Dependencies...)}
		it.Status, it.RawStatus = tally.StatusOf(t.Status)
		out = append(out, it)
		for _, c := range children[t.ID] {
			add(c)
		}
	}
	for _, r := range roots {
		add(r)
	}
	return out
}

// safeID tells an id that can be used as a folder name: no separators, no
// dots leading up.
func safeID(id string) bool {
	return id != "" && !strings.ContainsAny(id, `/\`) && id != "." && id != ".." && !strings.ContainsAny(id, "*?[")
}
