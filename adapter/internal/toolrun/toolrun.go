package toolrun

import (
	"bytes"
	"path"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/valyala/fastjson"
)

// Input is what a label is made of, from a call's arguments: the few
// fields tools of every agent share under one name or another.
type Input struct {
	Command, Path, Title, Pattern, URL string
}

// InputOf reads those fields from a call's arguments, a JSON object; any
// other JSON (or none) gives an empty Input.
func InputOf(args []byte) Input {
	var p fastjson.Parser
	v, err := p.ParseBytes(args)
	if err != nil || v.Type() != fastjson.TypeObject {
		return Input{}
	}
	return Input{
		Command: first(v, "command", "cmd", "script"),
		Path:    first(v, "file_path", "path", "filePath", "absolute_path", "filename", "notebook_path"),
		Title:   first(v, "description", "title", "summary"),
		Pattern: first(v, "pattern", "query", "regex", "glob"),
		URL:     first(v, "url"),
	}
}

// first is the first of keys whose value says something: a value of
// spaces alone says nothing and would make an empty label.
func first(v *fastjson.Value, keys ...string) string {
	for _, k := range keys {
		if s := v.GetStringBytes(k); len(bytes.TrimSpace(s)) > 0 {
			return string(s)
		}
	}
	return ""
}

// maxLabel bounds a label: a command can be a script.
const maxLabel = 60

// kinds names what a tool does by its name, for the agents Tally reads.
var kinds = map[string]string{
	"bash": "run", "exec": "run", "exec_command": "run", "run_shell_command": "run", "shell": "run",
	"execute": "run", "run_terminal_cmd": "run", "powershell": "run", "terminal": "run",
	"edit": "edit", "multiedit": "edit", "apply_patch": "edit", "replace": "edit", "str_replace": "edit",
	"edit_file": "edit", "notebookedit": "edit", "notebook_edit": "edit", "patch": "edit",
	"write": "write", "write_file": "write", "create": "write", "create_file": "write",
	"read": "read", "read_file": "read", "view": "read", "read_many_files": "read", "cat": "read",
	"grep": "search", "glob": "search", "grep_search": "search", "search": "search", "ls": "search",
	"list_directory": "search", "find": "search", "codebase_search": "search", "tool_search": "search",
	"webfetch": "fetch", "web_fetch": "fetch", "fetch": "fetch", "websearch": "fetch", "web_search": "fetch",
	"task": "delegate", "agent": "delegate", "sessions_spawn": "delegate",
	"todowrite": "list", "todo_write": "list", "write_todos": "list", "update_plan": "list",
	"progress_card": "list", "taskcreate": "list", "taskupdate": "list", "todo": "list", "todowrite_tool": "list",
}

// Label is a call's title (a task: "Run tests", "Edit api.go") and its
// activeForm ("Running tests", "Editing api.go"), from the tool's name and
// its arguments.
func Label(name string, in Input) (title, active string) {
	switch kinds[strings.ToLower(name)] {
	case "run":
		what := in.Title
		if what == "" {
			what = command(in.Command)
		}
		if what == "" {
			return "Run a command", "Running a command"
		}
		if in.Title != "" {
			return cut(what), cut(what)
		}
		return "Run " + cut(what), "Running " + cut(what)
	case "edit":
		return with("Edit", "Editing", base(in.Path), "files")
	case "write":
		return with("Write", "Writing", base(in.Path), "a file")
	case "read":
		return with("Read", "Reading", base(in.Path), "files")
	case "search":
		return with("Search", "Searching", in.Pattern, "the code")
	case "fetch":
		return with("Fetch", "Fetching", in.URL, "the web")
	case "delegate":
		return with("Delegate", "Delegating", in.Title, "to a sub-agent")
	case "list":
		return "Update the list", "Updating the list"
	}
	if in.Title != "" { // the call says what it does: "Insert greeting todos"
		return cut(in.Title), cut(in.Title)
	}
	if name == "" {
		name = "a tool"
	}
	return "Call " + cut(name), "Calling " + cut(name)
}

func with(verb, ing, what, otherwise string) (string, string) {
	if what == "" {
		what = otherwise
	}
	return verb + " " + cut(what), ing + " " + cut(what)
}

// command is how a command is named: "tests" for one that runs them, else
// its first line.
func command(c string) string {
	c = strings.TrimSpace(c)
	if i := strings.IndexByte(c, '\n'); i >= 0 {
		c = c[:i]
	}
	for _, w := range strings.Fields(c) {
		if w == "test" || w == "pytest" || w == "jest" || w == "vitest" || strings.HasSuffix(w, ":test") {
			return "tests"
		}
	}
	return c
}

func base(p string) string {
	p = strings.TrimRight(strings.ReplaceAll(p, `\`, "/"), "/")
	if p == "" {
		return ""
	}
	return path.Base(p)
}

func cut(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxLabel {
		return s
	}
	i := maxLabel
	for i > 0 && s[i]&0xC0 == 0x80 { // not inside a UTF-8 sequence
		i--
	}
	return s[:i] + "…"
}

// Start emits the call id of tool name, started at at: a running task of
// the runtime list. A call started again (a line read twice) changes
// nothing.
func Start(emit func(tally.Event), id, name string, in Input, at time.Time) {
	if id == "" {
		return
	}
	title, active := Label(name, in)
	st := tally.StatusInProgress
	emit(tally.Event{Kind: tally.EventTaskCreate, List: tally.RuntimeList, ToolUseID: id, At: at,
		Patch: tally.TaskPatch{ID: id, Subject: &title, ActiveForm: &active, Status: &st}})
}

// End emits that call id finished at at, failed or not.
func End(emit func(tally.Event), id string, failed bool, at time.Time) {
	if id == "" {
		return
	}
	st := tally.StatusCompleted
	if failed {
		st = tally.StatusFailed
	}
	emit(tally.Event{Kind: tally.EventTaskUpdate, List: tally.RuntimeList, At: at, Patch: tally.TaskPatch{ID: id, Status: &st}})
}
