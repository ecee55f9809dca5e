package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Codex sets up Codex, whose home is home ($CODEX_HOME, else ~/.codex):
// `tally mcp` as [mcp_servers.tally] in config.toml, and Tally's hooks in
// hooks.json beside it. Codex 0.169.0 takes Claude Code's hook JSON
// (SessionStart with source startup, resume, clear or compact, UserPromptSubmit,
// PostToolUse, Stop; it has no Notification hook), and runs a hook only
// once the user has trusted it.
func Codex(home string) Target { return codexTarget{home: home} }

type codexTarget struct{ home string }

var codexHooks = []hookSpec{
	{event: "SessionStart", matcher: sessionStarts},
	{event: "UserPromptSubmit"},
	{event: "PostToolUse"},
	{event: "Stop", args: "--guard-stop", guard: true},
	// Codex's own default timeout, said: tally hook waits for a decision
	// at most hooks.approval_wait, under it.
	{event: "PermissionRequest", approvals: true, timeout: 600},
}

// codexTrusted are the hooks setup trusts for Codex (see codextrust.go).
var codexTrusted = []hookSpec{codexHooks[4]}

func (t codexTarget) Plan(o Options) (Plan, error) {
	home := t.home
	var notes []string
	hooksPath := filepath.Join(home, "hooks.json")
	hooks, err := editJSON(hooksPath, false, "Codex", func(doc *jsonDoc, path string) ([]string, error) {
		return installHooks(doc, path, "codex", codexHooks, hookTimeout, o)
	})
	if err != nil {
		return Plan{}, err
	}
	trust := codexTrusts(hooksPath, hooks.After, codexTrusted, o)
	config, note, err := editCodexConfig(filepath.Join(home, "config.toml"), o, trust)
	if err != nil {
		return Plan{}, err
	}
	notes = append(notes, note...)
	if !o.Uninstall && hooks.Changed() {
		notes = append(notes, "Codex runs a new or changed hook only once you trust it: the next time you start codex it asks you to review Tally's hooks (or open /hooks).")
	}
	return Plan{Edits: []Edit{config, hooks}, Notes: notes}, nil
}

// codexServer is Codex's [mcp_servers.NAME] table.
type codexServer struct {
	Command string   `toml:"command"`
	Args    []string `toml:"args"`
}

// tallyTable is the header of Tally's table and its sub-tables
// ([mcp_servers.tally.env]), however the user spaced or quoted it.
var tallyTable = regexp.MustCompile(`^\s*\[\s*mcp_servers\s*\.\s*("tally"|'tally'|tally)\s*(\]|\.)`)

// editCodexConfig keeps config.toml as it is but for Tally's server
// table, appended at the end (or removed), so comments and layout stay.
func editCodexConfig(path string, o Options, trust map[string]string) (Edit, []string, error) {
	before, err := readFile(path)
	if err != nil {
		return Edit{}, nil, err
	}
	edit := func(before []byte) (Edit, []string, error) {
		e, notes, err := codexConfigEdit(path, before, o)
		if err != nil {
			return e, notes, err
		}
		after := editCodexTrust(e.After, trust, codexTallyHashes(codexTrusted, o))
		if !bytes.Equal(after, e.After) {
			var v map[string]any
			if toml.Unmarshal(after, &v) != nil {
				return Edit{}, nil, fmt.Errorf("%s: tally setup could not change its [hooks.state] tables safely; trust Tally's PermissionRequest hook in Codex's /hooks instead. Nothing was changed", path)
			}
			e.After = after
			if len(trust) > 0 {
				e.What = append(e.What, "[hooks.state]: trust Tally's PermissionRequest hook (--remote-approvals), so a decision taken on the board reaches Codex")
			} else {
				e.What = append(e.What, "[hooks.state]: removed the trust of Tally's PermissionRequest hook")
			}
		}
		return e, notes, nil
	}
	e, notes, err := edit(before)
	if err != nil {
		return Edit{}, nil, err
	}
	e.redo = func(before []byte) ([]byte, []string, error) {
		again, _, err := edit(before)
		return again.After, again.What, err
	}
	return e, notes, e.resolve()
}

// codexConfigEdit is editCodexConfig's edit of config.toml holding before.
func codexConfigEdit(path string, before []byte, o Options) (Edit, []string, error) {
	servers, err := codexServers(before)
	if err != nil {
		return Edit{}, nil, tomlError(path, err)
	}
	e := Edit{Path: path, Before: before, After: before}
	want := codexServer{Command: o.Tally, Args: []string{"mcp"}}
	have, exists := servers["tally"]
	if exists {
		var cur codexServer
		b, _ := json.Marshal(have)
		_ = json.Unmarshal(b, &cur)
		if !isTallyProgram(cur.Command) || len(cur.Args) == 0 || cur.Args[0] != "mcp" {
			return e, []string{path + ": an MCP server named \"tally\" that does not run `tally mcp` is already there; it was left as it is."}, nil
		}
		if !o.Uninstall && cur.Command == want.Command && len(cur.Args) == 1 {
			return e, nil, nil
		}
	}
	if !exists && o.Uninstall {
		return e, nil, nil
	}
	text := before
	if exists {
		var found bool
		if text, found = dropTable(before); !found {
			return e, []string{path + ": Tally's MCP server is defined inline, not as a [mcp_servers.tally] table; change it by hand."}, nil
		}
	}
	if o.Uninstall {
		e.After, e.What = text, []string{"[mcp_servers.tally]: removed"}
		return e, nil, checkCodexConfig(path, e.After, nil)
	}
	block, err := toml.Marshal(want)
	if err != nil {
		return Edit{}, nil, err
	}
	if len(text) > 0 {
		if !bytes.HasSuffix(text, []byte("\n")) {
			text = append(text, '\n')
		}
		text = append(text, '\n')
	}
	text = append(text, "[mcp_servers.tally]\n"...)
	e.After = append(text, block...)
	e.What = []string{"[mcp_servers.tally]: run `" + o.Tally + " mcp`"}
	return e, nil, checkCodexConfig(path, e.After, &want)
}

// checkCodexConfig reads an edited config.toml back: it must parse, and
// hold Tally's server as want says (nil: none). An edit that fails this is
// refused rather than written.
func checkCodexConfig(path string, data []byte, want *codexServer) error {
	servers, err := codexServers(data)
	raw, has := servers["tally"]
	var got codexServer
	if b, jerr := json.Marshal(raw); has && jerr == nil {
		_ = json.Unmarshal(b, &got)
	}
	if err == nil && has == (want != nil) && (want == nil || got.Command == want.Command) {
		return nil
	}
	return fmt.Errorf("%s: tally setup could not change this file safely (its [mcp_servers.tally] is laid out in a way it does not edit); add or remove the table by hand. Nothing was changed", path)
}

// codexServers is config.toml's mcp_servers table, its keys matched
// exactly as Codex matches them: [mCp_servers.tally] is another table, which
// Codex does not read (decoding into a struct would match it regardless of
// case).
func codexServers(data []byte) (map[string]any, error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	servers, _ := doc["mcp_servers"].(map[string]any)
	return servers, nil
}

// dropTable removes the [mcp_servers.tally] table and its sub-tables: from
// the header to the next table that is not one of them.
func dropTable(data []byte) ([]byte, bool) {
	lines := strings.SplitAfter(string(data), "\n")
	var out strings.Builder
	in, found := false, false
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "[") {
			in = tallyTable.MatchString(l)
			found = found || in
		}
		if !in {
			out.WriteString(l)
		}
	}
	return []byte(strings.TrimRight(out.String(), "\n") + "\n"), found
}

func tomlError(path string, err error) error {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Errorf("%s line %d, column %d: %v. Fix the file and run tally setup again; nothing was changed", path, row, col, de)
	}
	return fmt.Errorf("%s: %v. Fix the file and run tally setup again; nothing was changed", path, err)
}
