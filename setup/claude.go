package setup

import (
	"encoding/json"
	"path/filepath"
	"reflect"

	"github.com/tailscale/hujson"
)

// claudeTarget sets up Claude Code: hooks and env in settings.json (plain
// JSON, checked with 2.1.330: a comment makes Claude Code ignore the whole
// file), and `tally mcp` as a user MCP server in the user config
// .claude.json, where `claude mcp add -s user` puts it.
type claudeTarget struct{}

// claudeHooks are Tally's hooks in Claude Code.
var claudeHooks = []hookSpec{
	{event: "SessionStart", matcher: "compact|resume"},
	{event: "UserPromptSubmit"},
	{event: "PostToolUse"},
	{event: "Notification", matcher: "permission_prompt|idle_prompt"},
	{event: "Stop", args: "--guard-stop", guard: true},
}

// todoToolsEnv turns Claude Code's TodoWrite and Task tools on for every
// model: from 2.1.233 on, the newest models get them only with it.
const todoToolsEnv = "CLAUDE_CODE_ENABLE_TODO_TOOLS"

func (claudeTarget) Plan(p Paths, o Options) (Plan, error) {
	settings, err := editJSON(filepath.Join(p.ClaudeDir, "settings.json"), false, "Claude Code", func(doc *jsonDoc, path string) ([]string, error) {
		what, err := installHooks(doc, path, "claude", claudeHooks, hookTimeout, o)
		if err != nil {
			return nil, err
		}
		allowed, err := allowTallyTools(doc, path, o)
		if err != nil {
			return nil, err
		}
		what = append(what, allowed...)
		if !o.EnableTodoTools {
			return what, nil
		}
		root := doc.object()
		if o.Uninstall {
			if _, env := member(root, "env"); env != nil {
				if obj, ok := env.Value.(*hujson.Object); ok && remove(obj, todoToolsEnv) {
					what = append(what, "env."+todoToolsEnv+": removed")
					if len(obj.Members) == 0 {
						remove(root, "env")
					}
				}
			}
			return what, nil
		}
		env, err := doc.child(root, 0, "env", path)
		if err != nil {
			return nil, err
		}
		var cur string
		if _, v := member(env, todoToolsEnv); v != nil && decode(*v, &cur) == nil && cur == "1" {
			return what, nil
		}
		doc.set(env, 1, todoToolsEnv, "1")
		return append(what, "env."+todoToolsEnv+" = 1"), nil
	})
	if err != nil {
		return Plan{}, err
	}
	server := struct {
		Type    string            `json:"type"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env"`
	}{"stdio", o.Tally, []string{"mcp"}, map[string]string{}}
	mcp, notes, err := editMCP(p.ClaudeUserConfig, false, "Claude Code", server, o)
	if err != nil {
		return Plan{}, err
	}
	if !o.Uninstall {
		notes = append(notes, "Claude Code reads hooks and MCP servers when a session starts: new sessions get them, running ones after a restart.")
		if o.EnableTodoTools {
			notes = append(notes, todoToolsEnv+"=1: Claude Code 2.1.233 and later offer TodoWrite and the Task tools to the newest models only with it, and a model without them keeps no list Tally can show.")
		} else {
			notes = append(notes, "Add --enable-todo-tools to set "+todoToolsEnv+"=1: Claude Code 2.1.233 and later offer TodoWrite and the Task tools to the newest models only with it (Tally's own task tools over MCP work either way).")
		}
	}
	return Plan{Edits: []Edit{settings, mcp}, Notes: notes}, nil
}

// tallyTools is Claude Code's permission rule for every tool of the MCP
// server "tally": Tally's task tools change nothing but Tally's own lists,
// and asking the user at each task update would make them useless (in
// claude -p they are refused outright).
const tallyTools = "mcp__tally"

// allowTallyTools puts tallyTools in permissions.allow (or takes it out).
func allowTallyTools(doc *jsonDoc, path string, o Options) ([]string, error) {
	root := doc.object()
	_, perms := member(root, "permissions")
	if perms == nil && o.Uninstall {
		return nil, nil
	}
	obj, err := doc.child(root, 0, "permissions", path)
	if err != nil {
		return nil, err
	}
	_, existing := member(obj, "allow")
	if existing == nil && o.Uninstall {
		return nil, nil
	}
	allow, err := doc.array(obj, 1, "allow", path)
	if err != nil {
		return nil, err
	}
	at := -1
	for i, e := range allow.Elements {
		var rule string
		if decode(e, &rule) == nil && rule == tallyTools {
			at = i
		}
	}
	switch {
	case o.Uninstall && at >= 0:
		allow.Elements = append(allow.Elements[:at], allow.Elements[at+1:]...)
		if len(allow.Elements) == 0 {
			remove(obj, "allow")
		}
		if len(obj.Members) == 0 {
			remove(root, "permissions")
		}
		return []string{"permissions.allow: removed " + tallyTools}, nil
	case !o.Uninstall && at < 0:
		doc.push(allow, 2, tallyTools)
		return []string{"permissions.allow: " + tallyTools + " (Tally's task tools run without a prompt)"}, nil
	}
	return nil, nil
}

// editMCP makes the user config's "mcpServers" hold server as "tally"
// (remove it with Uninstall). A "tally" server that is not Tally's stdio
// `tally mcp` — one pointing at a tally serve over HTTP, say — is the
// user's choice and is left alone, with a note.
func editMCP(path string, comments bool, agent string, server any, o Options) (Edit, []string, error) {
	var notes []string
	e, err := editJSON(path, comments, agent, func(doc *jsonDoc, path string) ([]string, error) {
		return setMCP(doc, path, server, o, &notes)
	})
	return e, notes, err
}

// setMCP is editMCP's change of an open document; notes gets what the
// user should know.
func setMCP(doc *jsonDoc, path string, server any, o Options, notes *[]string) ([]string, error) {
	{
		root := doc.object()
		_, existing := member(root, "mcpServers")
		if existing == nil && o.Uninstall {
			return nil, nil
		}
		servers, err := doc.child(root, 0, "mcpServers", path)
		if err != nil {
			return nil, err
		}
		if _, cur := member(servers, "tally"); cur != nil {
			var have map[string]any
			_ = decode(*cur, &have)
			if !isTallyServer(have) {
				*notes = append(*notes, path+": an MCP server named \"tally\" that does not run `tally mcp` is already there; it was left as it is.")
				return nil, nil
			}
			if o.Uninstall {
				remove(servers, "tally")
				if len(servers.Members) == 0 {
					remove(root, "mcpServers")
				}
				return []string{"mcpServers.tally: removed"}, nil
			}
			if sameJSON(have, server) {
				return nil, nil
			}
		} else if o.Uninstall {
			return nil, nil
		}
		doc.set(servers, 1, "tally", server)
		return []string{"mcpServers.tally: run `" + o.Tally + " mcp`"}, nil
	}
}

func isTallyServer(m map[string]any) bool {
	cmd, _ := m["command"].(string)
	args, _ := m["args"].([]any)
	return isTallyProgram(cmd) && len(args) >= 1 && args[0] == "mcp"
}

// sameJSON compares a decoded value with one setup would write.
func sameJSON(have map[string]any, want any) bool {
	var w map[string]any
	b, _ := json.Marshal(want)
	_ = json.Unmarshal(b, &w)
	return reflect.DeepEqual(have, w)
}

// editJSON plans an edit of one JSON settings file by fn.
func editJSON(path string, comments bool, agent string, fn func(doc *jsonDoc, path string) ([]string, error)) (Edit, error) {
	before, err := readFile(path)
	if err != nil {
		return Edit{}, err
	}
	doc, err := parseJSON(path, before, comments, agent)
	if err != nil {
		return Edit{}, err
	}
	what, err := fn(doc, path)
	if err != nil {
		return Edit{}, err
	}
	e := Edit{Path: path, Before: before, After: before, What: what}
	if len(what) > 0 {
		e.After = doc.bytes()
	}
	return e, nil
}
