package setup

import (
	"path/filepath"
	"reflect"
	"strings"

	"github.com/tailscale/hujson"
)

// hookSpec is one hook Tally installs: the event, which calls of it (the
// agent's matcher), and the flags `tally hook` gets.
type hookSpec struct {
	event, matcher string
	args           string
	// guard: installed only with Options.GuardStop.
	guard bool
	// approvals: installed only with Options.RemoteApprovals.
	approvals bool
	// timeout, in the agent's unit, replaces the hooks' own for a hook
	// that waits (a permission request waiting for its decision).
	timeout int
}

// sessionStarts is the matcher of Tally's SessionStart hook in Claude Code
// and Codex: every source both give (Codex 0.169 also gives "fork"). A
// fresh or cleared context gets the plan protocol where the project keeps a
// plan (and nothing where it keeps none); a compacted or resumed one, its
// unfinished items back.
const sessionStarts = "startup|resume|clear|compact"

// hookGroup and hookCommand are the hooks entries Claude Code and Codex
// read (settings.json "hooks", hooks.json): {matcher, hooks: [{type,
// command, timeout}]}.
type hookGroup struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []hookCommand `json:"hooks"`
}

type hookCommand struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

// hookTimeout is the timeout Tally's hooks are installed with: tally hook
// answers within a second, and the agent never waits longer than this for
// it. Claude Code and Codex take it in seconds, Gemini CLI in
// milliseconds.
const hookTimeout = 5

// hookTimeoutMillis is hookTimeout in milliseconds.
const hookTimeoutMillis = hookTimeout * 1000

// installHooks makes the "hooks" object of doc hold exactly Tally's hooks
// for agent as opts ask (none with Uninstall), each with timeout in the
// agent's unit, leaving every other hook as it is. It returns one line per
// change.
func installHooks(doc *jsonDoc, path, agent string, specs []hookSpec, timeout int, o Options) ([]string, error) {
	root := doc.object()
	_, existing := member(root, "hooks")
	if existing == nil && o.Uninstall {
		return nil, nil
	}
	hooks, err := doc.child(root, 0, "hooks", path)
	if err != nil {
		return nil, err
	}
	var what []string
	for _, s := range specs {
		want := !o.Uninstall && (!s.guard || o.GuardStop) && (!s.approvals || o.RemoteApprovals)
		t := timeout
		if s.timeout > 0 {
			t = s.timeout
		}
		group := hookGroup{Matcher: s.matcher, Hooks: []hookCommand{{Type: "command", Command: hookCmd(o.Tally, agent, s.args), Timeout: t}}}
		_, ev := member(hooks, s.event)
		if ev == nil && !want {
			continue
		}
		groups, err := doc.array(hooks, 1, s.event, path)
		if err != nil {
			return nil, err
		}
		if keepsOnly(groups, agent, group) && want {
			continue
		}
		removed := dropTally(groups, agent)
		if want {
			doc.push(groups, 2, group)
			what = append(what, "hooks."+s.event+": run `"+group.Hooks[0].Command+"`")
		} else if removed {
			what = append(what, "hooks."+s.event+": removed Tally's hook")
		}
		if len(groups.Elements) == 0 {
			remove(hooks, s.event)
		}
	}
	if len(hooks.Members) == 0 {
		remove(root, "hooks")
	}
	return what, nil
}

// keepsOnly tells whether Tally's hooks in groups are exactly want.
func keepsOnly(groups *hujson.Array, agent string, want hookGroup) bool {
	n := 0
	for _, e := range groups.Elements {
		var g hookGroup
		if decode(e, &g) != nil || !hasTally(g, agent) {
			continue
		}
		n++
		if !reflect.DeepEqual(g, want) {
			return false
		}
	}
	return n == 1
}

func hasTally(g hookGroup, agent string) bool {
	for _, h := range g.Hooks {
		if isTallyHook(h.Command, agent) {
			return true
		}
	}
	return false
}

// dropTally removes Tally's commands from groups, and groups left empty.
func dropTally(groups *hujson.Array, agent string) bool {
	removed := false
	kept := groups.Elements[:0]
	for _, e := range groups.Elements {
		var g hookGroup
		if decode(e, &g) != nil || !hasTally(g, agent) {
			kept = append(kept, e)
			continue
		}
		removed = true
		obj, _ := e.Value.(*hujson.Object)
		_, hv := member(obj, "hooks")
		arr, _ := hv.Value.(*hujson.Array)
		var cmds []hujson.Value
		for _, c := range arr.Elements {
			var h hookCommand
			if decode(c, &h) == nil && isTallyHook(h.Command, agent) {
				continue
			}
			cmds = append(cmds, c)
		}
		if len(cmds) > 0 {
			arr.Elements = cmds
			kept = append(kept, e)
		}
	}
	groups.Elements = kept
	return removed
}

// hookCmd is the command line of a hook.
func hookCmd(tally, agent, args string) string {
	cmd := shellQuote(tally) + " hook " + agent
	if args != "" {
		cmd += " " + args
	}
	return cmd
}

// isTallyHook tells whether a hook command runs `tally hook agent`.
func isTallyHook(cmd, agent string) bool {
	w := shellWords(cmd)
	return len(w) >= 3 && isTallyProgram(w[0]) && w[1] == "hook" && w[2] == agent
}

func isTallyProgram(p string) bool {
	base := filepath.Base(p)
	return base == "tally" || strings.HasPrefix(base, "tally-") || strings.HasPrefix(base, "tally.")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:=@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellWords splits a command line at spaces, honouring quotes.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}
