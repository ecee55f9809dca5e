package gemini

import (
	"regexp"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/valyala/fastjson"
)

// The experimental task tracker (tracker_* tools) keeps tasks with 6-hex
// ids, statuses open|in_progress|blocked|closed and dependencies in files
// of its own. Every tracker call's resultDisplay in the chat record is the
// whole tracker drawn as a todo list — "  task: Write greet.py (8dbf78)"
// with status pending|in_progress|blocked|completed — so each successful
// call is read as a full resync of the session's tasks. Dependencies are
// not drawn; they are taken from the calls that set them, and so are the
// descriptions a create or an update gives (a task set blocked says why in
// its description).

// maxDeps bounds the tasks whose dependencies are remembered.
const maxDeps = 1024

type trackerCall struct {
	id      string
	items   []tally.Item // nil: the call drew no list
	created string       // the id a create call was given
	task    string       // the task whose dependencies the call sets
	deps    []string
	addDeps bool // deps are added to, not replacing, the task's
	// desc is the description the call gave task described, "" if none.
	described, desc string
}

var (
	createdRe  = regexp.MustCompile(`^Created task ([0-9a-f]{6})\b`)
	trackerRow = regexp.MustCompile(`^\s*(?:(\w+): )?(.*?)\s*\(([0-9a-f]{6})\)$`)
)

// readTrackerCall reads a successful tracker_* call.
func readTrackerCall(c *fastjson.Value, name, callID string) (trackerCall, bool, error) {
	tc := trackerCall{id: callID}
	args := c.Get("args")
	var err error
	switch name {
	case trackerCreate:
		out := ""
		for _, r := range c.GetArray("result") {
			if b := r.GetStringBytes("functionResponse", "response", "output"); b != nil {
				out = string(b)
			}
		}
		if m := createdRe.FindStringSubmatch(out); m != nil {
			tc.created = m[1]
			tc.task = m[1]
			tc.described = m[1]
			if tc.desc, err = str(args, "description"); err != nil {
				return tc, false, err
			}
			if tc.deps, err = strs(args, "dependencies"); err != nil {
				return tc, false, err
			}
		}
	case trackerUpdate:
		if args != nil && args.Get("description") != nil {
			if tc.described, err = str(args, "id"); err != nil {
				return tc, false, err
			}
			if tc.desc, err = str(args, "description"); err != nil {
				return tc, false, err
			}
		}
		if args != nil && args.Get("dependencies") != nil {
			if tc.task, err = str(args, "id"); err != nil {
				return tc, false, err
			}
			if tc.deps, err = strs(args, "dependencies"); err != nil {
				return tc, false, err
			}
		}
	case trackerDependency:
		if args != nil {
			if tc.task, err = str(args, "taskId"); err != nil {
				return tc, false, err
			}
			dep, err := str(args, "dependencyId")
			if err != nil {
				return tc, false, err
			}
			tc.deps, tc.addDeps = []string{dep}, true
		}
	}
	if t := c.Get("resultDisplay", "todos"); t != nil {
		items, err := todoItems(t)
		if err != nil {
			return tc, false, err
		}
		tc.items = make([]tally.Item, 0, len(items))
		for _, it := range items {
			tc.items = append(tc.items, trackerItem(it))
		}
	}
	return tc, tc.items != nil || tc.task != "", nil
}

// trackerItem turns one drawn row into a task: "  epic: Greeting feature
// (976dfb)" is task 976dfb titled "Greeting feature".
func trackerItem(it tally.Item) tally.Item {
	m := trackerRow.FindStringSubmatch(it.Title)
	if m == nil {
		it.Title = strings.TrimSpace(it.Title)
		return it
	}
	it.Title, it.ID = m[2], m[3]
	return it
}

// applyTracker records a call's dependencies and resyncs the tasks.
func (d *Decoder) applyTracker(tc trackerCall, at time.Time) {
	if tc.task != "" && (len(d.st.Deps) < maxDeps || d.st.Deps[tc.task] != nil) {
		if d.st.Deps == nil {
			d.st.Deps = make(map[string][]string)
		}
		cur := d.st.Deps[tc.task]
		if !tc.addDeps {
			cur = nil
		}
		for _, dep := range tc.deps {
			if dep != "" && !contains(cur, dep) {
				cur = append(cur, dep)
			}
		}
		if len(cur) == 0 {
			delete(d.st.Deps, tc.task)
		} else {
			d.st.Deps[tc.task] = cur
		}
	}
	if tc.items == nil {
		return
	}
	items := make([]tally.Item, len(tc.items))
	for i, it := range tc.items {
		it.BlockedBy = append([]string(nil), d.st.Deps[it.ID]...)
		if it.ID == tc.described && tc.desc != "" {
			it.Description = tc.desc
		}
		items[i] = it
	}
	d.add(tally.Event{Kind: tally.EventTaskResync, ToolUseID: tc.id, At: at, Items: items})
}

func contains(set []string, s string) bool {
	for _, x := range set {
		if x == s {
			return true
		}
	}
	return false
}

// strs reads an optional array of strings.
func strs(v *fastjson.Value, key string) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	f := v.Get(key)
	if f == nil || f.Type() == fastjson.TypeNull {
		return nil, nil
	}
	arr, err := f.Array()
	if err != nil {
		return nil, errText("field " + key + " is not an array")
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		b, err := e.StringBytes()
		if err != nil {
			return nil, errText("field " + key + " holds a non-string")
		}
		out = append(out, string(b))
	}
	return out, nil
}
