package setup

import (
	"encoding/json"
	"path/filepath"
	"reflect"

	"github.com/tailscale/hujson"
)

// Claude sets up Claude Code (`tally mcp --no-protocol`: the SessionStart
// hook gives the plan protocol, once per context, and the server's
// instructions would repeat it): hooks and env in settings.json (plain JSON,
// checked with 2.1.330: a comment makes Claude Code ignore the whole file)
// in its config directory dir ($CLAUDE_CONFIG_DIR, else ~/.claude), and
// `tally mcp` as a user MCP server in its user config userConfig
// (.claude.json: in dir when $CLAUDE_CONFIG_DIR names it, else in the home
// directory), where `claude mcp add -s user` puts it.
func Claude(dir, userConfig string) Target { return claudeTarget{dir: dir, userConfig: userConfig} }

type claudeTarget struct{ dir, userConfig string }

// claudeHooks are Tally's hooks in Claude Code.
var claudeHooks = []hookSpec{
	{event: "SessionStart", matcher: sessionStarts},
	{event: "UserPromptSubmit"},
	{event: "PostToolUse"},
	{event: "Notification", matcher: "permission_prompt|idle_prompt"},
	{event: "Stop", args: "--guard-stop", guard: true},
	// Claude Code's own default timeout of a hook, said: tally hook waits
	// for a decision at most hooks.approval_wait, under it
	// (hook.MaxApprovalWait).
	{event: "PermissionRequest", approvals: true, timeout: 600},
}

// todoToolsEnv turns Claude Code's TodoWrite and Task tools on for every
// model: from 2.1.233 on, the newest models get them only with it.
const todoToolsEnv = "CLAUDE_CODE_ENABLE_TODO_TOOLS"

func (t claudeTarget) Plan(o Options) (Plan, error) {
	settingsPath := filepath.Join(t.dir, "settings.json")
	owned := o.Owned.of(settingsPath)
	var kept []string // what uninstall leaves, not being Tally's
	settings, err := editJSON(settingsPath, false, "Claude Code", func(doc *jsonDoc, path string) ([]string, error) {
		kept = kept[:0]
		what, err := installHooks(doc, path, "claude", claudeHooks, hookTimeout, o)
		if err != nil {
			return nil, err
		}
		allowed, err := allowTallyTools(doc, path, o, owned, &kept)
		if err != nil {
			return nil, err
		}
		what = append(what, allowed...)
		env, err := todoTools(doc, path, o, owned, &kept)
		return append(what, env...), err
	})
	if err != nil {
		return Plan{}, err
	}
	server := struct {
		Type    string            `json:"type"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env"`
	}{"stdio", o.Tally, []string{"mcp", "--no-protocol"}, map[string]string{}}
	mcp, notes, err := editMCP(t.userConfig, false, "Claude Code", server, o)
	if err != nil {
		return Plan{}, err
	}
	// Claude Code rewrites .claude.json often (every project's history is
	// in it), always holding this lock.
	mcp.agentLock = t.userConfig + ".lock"
	for _, k := range kept {
		notes = append(notes, settingsPath+": "+k+" is left as it is: tally setup did not add it (or added it before it kept a record of what it adds); remove it by hand if it should go.")
	}
	if !o.Uninstall {
		notes = append(notes, "Claude Code reads hooks and MCP servers when a session starts: new sessions get them, running ones after a restart.")
		if o.EnableTodoTools {
			notes = append(notes, todoToolsEnv+"=1: Claude Code 2.1.233 and later offer TodoWrite and the Task tools to the newest models only with it, and a model without them keeps no list Tally can show.")
		} else {
			notes = append(notes, "Add --enable-todo-tools to set "+todoToolsEnv+"=1: Claude Code 2.1.233 and later offer TodoWrite and the Task tools to the newest models only with it (Tally's own task tools over MCP work either way).")
		}
	}
	return Plan{Edits: []Edit{settings, mcp}, Notes: notes, Owned: o.Owned.with(settingsPath, owned)}, nil
}

// todoTools sets CLAUDE_CODE_ENABLE_TODO_TOOLS=1 in "env" when asked to,
// recording it in owned when it was not there; uninstall removes it only
// when owned says setup added it (kept gets it otherwise).
func todoTools(doc *jsonDoc, path string, o Options, owned map[string]bool, kept *[]string) ([]string, error) {
	root := doc.object()
	if o.Uninstall {
		_, env := member(root, "env")
		if env == nil {
			delete(owned, ownTodoEnv)
			return nil, nil
		}
		obj, ok := env.Value.(*hujson.Object)
		if !ok {
			return nil, nil
		}
		if _, v := member(obj, todoToolsEnv); v == nil {
			delete(owned, ownTodoEnv)
			return nil, nil
		}
		if !owned[ownTodoEnv] {
			*kept = append(*kept, ownTodoEnv)
			return nil, nil
		}
		delete(owned, ownTodoEnv)
		remove(obj, todoToolsEnv)
		if len(obj.Members) == 0 {
			remove(root, "env")
		}
		return []string{ownTodoEnv + ": removed"}, nil
	}
	if !o.EnableTodoTools {
		return nil, nil
	}
	env, err := doc.child(root, 0, "env", path)
	if err != nil {
		return nil, err
	}
	var cur string
	_, v := member(env, todoToolsEnv)
	if v != nil && decode(*v, &cur) == nil && cur == "1" {
		return nil, nil
	}
	// The user's own value, changed as asked, stays the user's.
	owned[ownTodoEnv] = v == nil
	doc.set(env, 1, todoToolsEnv, "1")
	return []string{ownTodoEnv + " = 1"}, nil
}

// tallyTools is Claude Code's permission rule for every tool of the MCP
// server "tally": Tally's task tools change nothing but Tally's own lists,
// and asking the user at each task update would make them useless (in
// claude -p they are refused outright).
const tallyTools = "mcp__tally"

// allowTallyTools puts tallyTools in permissions.allow, recording it in
// owned when it was not there; uninstall takes it out only when owned
// says setup put it there (kept gets it otherwise).
func allowTallyTools(doc *jsonDoc, path string, o Options, owned map[string]bool, kept *[]string) ([]string, error) {
	root := doc.object()
	_, perms := member(root, "permissions")
	if perms == nil && o.Uninstall {
		delete(owned, ownAllow)
		return nil, nil
	}
	obj, err := doc.child(root, 0, "permissions", path)
	if err != nil {
		return nil, err
	}
	_, existing := member(obj, "allow")
	if existing == nil && o.Uninstall {
		delete(owned, ownAllow)
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
	case o.Uninstall && at < 0:
		delete(owned, ownAllow)
	case o.Uninstall && !owned[ownAllow]:
		*kept = append(*kept, "permissions.allow "+tallyTools)
	case o.Uninstall:
		delete(owned, ownAllow)
		allow.Elements = append(allow.Elements[:at], allow.Elements[at+1:]...)
		if len(allow.Elements) == 0 {
			remove(obj, "allow")
		}
		if len(obj.Members) == 0 {
			remove(root, "permissions")
		}
		return []string{"permissions.allow: removed " + tallyTools}, nil
	case !o.Uninstall && at < 0:
		owned[ownAllow] = true
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

// editJSON plans an edit of one JSON settings file by fn, which Apply
// runs again on the file as it then is if another writer changed it.
func editJSON(path string, comments bool, agent string, fn func(doc *jsonDoc, path string) ([]string, error)) (Edit, error) {
	before, err := readFile(path)
	if err != nil {
		return Edit{}, err
	}
	redo := func(before []byte) ([]byte, []string, error) {
		doc, err := parseJSON(path, before, comments, agent)
		if err != nil {
			return nil, nil, err
		}
		what, err := fn(doc, path)
		if err != nil || len(what) == 0 {
			return before, what, err
		}
		return doc.bytes(), what, nil
	}
	after, what, err := redo(before)
	if err != nil {
		return Edit{}, err
	}
	e := Edit{Path: path, Before: before, After: after, What: what, redo: redo}
	return e, e.resolve()
}
