package setup

import (
	"path/filepath"

	"github.com/tailscale/hujson"
)

// Gemini sets up Gemini CLI, whose .gemini directory is dir: `tally mcp`
// under "mcpServers" and Tally's hooks under "hooks" in its settings.json, which Gemini CLI
// 0.61.0 reads with comments stripped (and rewrites keeping them), so
// comments are kept here too. Its hooks take the same {matcher, hooks:
// [{type, command, timeout}]} groups as Claude Code's, the timeout in
// milliseconds, and a lifecycle matcher is an exact string, not a pattern.
func Gemini(dir string) Target { return geminiTarget{dir: dir} }

type geminiTarget struct{ dir string }

// geminiHooks are Tally's hooks in Gemini CLI 0.61.0. It has no hook after
// a compression; PreCompress is announced before one, and only the
// /compress the user asks for (trigger "manual") is sure to follow: an
// "auto" one is announced before every model call. The lists come back at
// the next BeforeAgent (a prompt) or AfterTool (a tool's result); so do
// they after SessionStart (resume), as Gemini CLI writes the resumed
// conversation back to its record only after that hook ran.
var geminiHooks = []hookSpec{
	{event: "SessionStart", matcher: "resume"},
	{event: "PreCompress", matcher: "manual"},
	{event: "BeforeAgent"},
	{event: "AfterTool"},
	{event: "Notification"},
	{event: "AfterAgent", args: "--guard-stop", guard: true},
}

func (t geminiTarget) Plan(o Options) (Plan, error) {
	server := struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}{o.Tally, []string{"mcp"}}
	var notes, kept []string
	settingsPath := filepath.Join(t.dir, "settings.json")
	owned := o.Owned.of(settingsPath)
	edit, err := editJSON(settingsPath, true, "Gemini CLI", func(doc *jsonDoc, path string) ([]string, error) {
		kept = kept[:0]
		what, err := installHooks(doc, path, "gemini", geminiHooks, hookTimeoutMillis, o)
		if err != nil {
			return nil, err
		}
		mcp, err := setMCP(doc, path, server, o, &notes)
		if err != nil {
			return nil, err
		}
		tracker, err := taskTracker(doc, path, o, owned, &kept)
		return append(append(what, mcp...), tracker...), err
	})
	if err != nil {
		return Plan{}, err
	}
	for _, k := range kept {
		notes = append(notes, settingsPath+": "+k+" is left as it is: tally setup did not add it; remove it by hand if it should go.")
	}
	if !o.Uninstall {
		notes = append(notes, "Gemini CLI starts user MCP servers only in folders you trust (/permissions, or its trust prompt).",
			"Gemini CLI has no hook after a compression: after a /compress, Tally gives the unfinished items back with your next prompt (or the next tool's result); an automatic compression is not followed, since Gemini CLI announces one before every model call whether or not it compresses.")
		if o.EnableTaskTracker {
			notes = append(notes, ownTracker+" = true: Gemini CLI offers write_todos only to Gemini 2.x models that are not previews; its task tracker (the tracker_* tools) is the list every model keeps then, write_todos left out.")
		} else {
			notes = append(notes, "Add --enable-task-tracker to set "+ownTracker+": Gemini CLI offers write_todos only to Gemini 2.x models that are not previews, so a Gemini 3 model keeps no list without its task tracker (Tally's own task tools over MCP work either way).")
		}
	}
	return Plan{Edits: []Edit{edit}, Notes: notes, Owned: o.Owned.with(settingsPath, owned)}, nil
}

// taskTracker sets experimental.taskTracker to true when asked to,
// recording it in owned when it was not already on; uninstall turns it
// back off only when owned says setup turned it on (kept gets it
// otherwise).
func taskTracker(doc *jsonDoc, path string, o Options, owned map[string]bool, kept *[]string) ([]string, error) {
	root := doc.object()
	if o.Uninstall {
		_, exp := member(root, "experimental")
		var obj *hujson.Object
		if exp != nil {
			obj, _ = exp.Value.(*hujson.Object)
		}
		if obj == nil {
			delete(owned, ownTracker)
			return nil, nil
		}
		if _, v := member(obj, "taskTracker"); v == nil {
			delete(owned, ownTracker)
			return nil, nil
		}
		if !owned[ownTracker] {
			*kept = append(*kept, ownTracker)
			return nil, nil
		}
		delete(owned, ownTracker)
		remove(obj, "taskTracker")
		if len(obj.Members) == 0 {
			remove(root, "experimental")
		}
		return []string{ownTracker + ": removed"}, nil
	}
	if !o.EnableTaskTracker {
		return nil, nil
	}
	exp, err := doc.child(root, 0, "experimental", path)
	if err != nil {
		return nil, err
	}
	var cur bool
	_, v := member(exp, "taskTracker")
	if v != nil && decode(*v, &cur) == nil && cur {
		return nil, nil
	}
	// A value the user had, changed as asked, stays the user's.
	owned[ownTracker] = v == nil
	doc.set(exp, 1, "taskTracker", true)
	return []string{ownTracker + " = true"}, nil
}
