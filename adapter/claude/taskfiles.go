package claude

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/safefile"
	"github.com/valyala/fastjson"
)

// Claude Code keeps the Task tools' state in <config>/tasks/<list>/: one
// <id>.json per task, rewritten whole on every change (written to a
// temporary file and renamed over it; a new task's file is created, then
// written), removed when the task is deleted, beside a .highwatermark (the
// highest id ever given, written when a task is removed) and a .lock file.
// <list> is the session id, or CLAUDE_CODE_TASK_LIST_ID (or an agent
// team's list) with every character outside [a-zA-Z0-9_-] made "-": then
// several sessions share the list, and nothing in their transcripts names
// it.
const (
	tasksDir      = "tasks"
	highWatermark = ".highwatermark"
	taskExt       = ".json"
)

// Bounds on what one read of a list takes in, so that a hostile or broken
// directory cannot decide Tally's memory: Claude Code's task files are a
// few hundred bytes, and a list holds tens of tasks.
const (
	maxTaskFile  = 1 << 20
	maxTaskFiles = 10000
)

// decodeTaskFile turns one task file into an item. Claude Code reads its
// task files through a schema and refuses one without a string id,
// subject or status; Tally refuses the same (keys are matched exactly, as
// JavaScript does), and keeps a status word it does not know, as it does
// for every agent. A task with an empty subject is refused too: a blank
// row tells nothing.
func decodeTaskFile(data []byte) (tally.Item, error) {
	p := parsers.Get()
	defer parsers.Put(p)
	v, err := p.ParseBytes(data)
	if err != nil {
		return tally.Item{}, fmt.Errorf("not a task: %v", err)
	}
	if v.Type() != fastjson.TypeObject {
		return tally.Item{}, errors.New("not a task: JSON but not an object")
	}
	var it tally.Item
	var status string
	for _, f := range []struct {
		key      string
		dst      *string
		required bool
	}{
		{"id", &it.ID, true}, {"subject", &it.Title, true}, {"status", &status, true},
		{"description", &it.Description, false}, {"activeForm", &it.ActiveForm, false}, {"owner", &it.Owner, false},
	} {
		s, ok, err := str(v, f.key)
		switch {
		case err != nil:
			return tally.Item{}, err
		case f.required && (!ok || strings.TrimSpace(s) == ""):
			return tally.Item{}, fmt.Errorf("task has no %s", f.key)
		}
		*f.dst = s
	}
	if it.Blocks, err = ids(v, "blocks"); err != nil {
		return tally.Item{}, err
	}
	if it.BlockedBy, err = ids(v, "blockedBy"); err != nil {
		return tally.Item{}, err
	}
	it.Blocks, it.BlockedBy = nonEmpty(it.Blocks), nonEmpty(it.BlockedBy)
	it.Source = tally.SourceTask
	it.Status, it.RawStatus = tally.StatusOf(status)
	return it, nil
}

func nonEmpty(ids []string) []string {
	if len(ids) == 0 {
		return nil
	}
	return ids
}

// isTaskFile tells a task's own file (<id>.json) from the temporary files
// and lock directories Claude Code makes beside it (1.json.tmp.<hex>,
// 1.json.lock).
func isTaskFile(name string) bool {
	return strings.HasSuffix(name, taskExt) && len(name) > len(taskExt) && !strings.HasPrefix(name, ".") &&
		!strings.Contains(strings.TrimSuffix(name, taskExt), ".")
}

// ReadDirectory reads one task list whole: one resync event holding every
// task, in id order, timed at the newest file's modification, after a meta
// event timed at the oldest's naming the list. A file that cannot be used
// is reported and left out; a file still empty (created, not yet written)
// is left out silently.
func (a *Adapter) ReadDirectory(ctx context.Context, dir string) ([]tally.Event, []tally.Diagnostic, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var (
		items          []tally.Item
		diags          []tally.Diagnostic
		oldest, newest time.Time
		files          int
	)
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		name := e.Name()
		if !isTaskFile(name) || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(dir, name)
		if files++; files > maxTaskFiles {
			diags = append(diags, tally.Diagnostic{Path: dir, Msg: fmt.Sprintf("over %d task files; the rest are not read", maxTaskFiles)})
			break
		}
		it, mod, err := readTaskFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, errEmpty):
			continue // removed since the listing, or being created
		case err != nil:
			diags = append(diags, tally.Diagnostic{Path: path, Msg: err.Error()})
			continue
		}
		items = append(items, it)
		if oldest.IsZero() || mod.Before(oldest) {
			oldest = mod
		}
		if mod.After(newest) {
			newest = mod
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return idLess(items[i].ID, items[j].ID) })
	if newest.IsZero() {
		// No task now: the list is as recent as its last removal.
		if fi, err := os.Stat(filepath.Join(dir, highWatermark)); err == nil {
			oldest, newest = fi.ModTime(), fi.ModTime()
		}
	}
	name := filepath.Base(dir)
	return []tally.Event{
		{Kind: tally.EventMeta, At: oldest, Meta: tally.Meta{Title: "Task list " + name, TitleWeak: true}},
		{Kind: tally.EventTaskResync, At: newest, Items: items},
	}, diags, nil
}

var errEmpty = errors.New("empty task file")

func readTaskFile(path string) (tally.Item, time.Time, error) {
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return tally.Item{}, time.Time{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return tally.Item{}, time.Time{}, err
	}
	if !fi.Mode().IsRegular() {
		return tally.Item{}, time.Time{}, errors.New("not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTaskFile+1))
	switch {
	case err != nil:
		return tally.Item{}, time.Time{}, err
	case len(data) == 0:
		return tally.Item{}, time.Time{}, errEmpty
	case len(data) > maxTaskFile:
		return tally.Item{}, time.Time{}, fmt.Errorf("task file over %d bytes; not read", maxTaskFile)
	}
	it, err := decodeTaskFile(data)
	return it, fi.ModTime(), err
}

// idLess orders Claude Code's task ids, decimal counters, by number; any
// other id after them, by text.
func idLess(a, b string) bool {
	na, ea := strconv.ParseUint(a, 10, 64)
	nb, eb := strconv.ParseUint(b, 10, 64)
	switch {
	case ea == nil && eb == nil:
		return na < nb
	case (ea == nil) != (eb == nil):
		return ea == nil
	}
	return a < b
}
