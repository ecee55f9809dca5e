package cli

import (
	"maps"
	"path/filepath"
	"slices"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/acp"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/adapter/crush"
	"github.com/tallyhq/tally/adapter/gemini"
	"github.com/tallyhq/tally/adapter/hermes"
	"github.com/tallyhq/tally/adapter/opencode"
	"github.com/tallyhq/tally/normalize"
)

// agentDirs is where every agent keeps its sessions, resolved in one place
// from the flags and Env: a flag wins, then the agent's own variable, then
// its default under the home directory — each agent's own rule, so Tally
// looks where the agent writes. Adapters take the result and never read
// the environment themselves.
type agentDirs struct {
	Claude, Codex, Gemini, Hermes string
	// ClaudeUserConfig is Claude Code's user config (.claude.json, where
	// its user MCP servers are): in the config directory when one is
	// named, else in the home directory.
	ClaudeUserConfig     string
	OpenCode, OpenCodeDB string
	Crush                []string
}

func (a *app) agentDirs() agentDirs {
	e := &a.env
	// under is a directory below the home directory, "" when the home is
	// unknown: then only what a flag or variable names is read.
	under := func(elem ...string) string {
		if e.Home == "" {
			return ""
		}
		return filepath.Join(append([]string{e.Home}, elem...)...)
	}
	first := func(dirs ...string) string {
		for _, d := range dirs {
			if d != "" {
				return d
			}
		}
		return ""
	}
	joined := func(dir, elem string) string {
		if dir == "" {
			return ""
		}
		return filepath.Join(dir, elem)
	}
	d := agentDirs{
		Claude: first(a.g.ClaudeDir, e.Getenv("CLAUDE_CONFIG_DIR"), under(".claude")),
		Codex:  first(a.g.CodexHome, e.Getenv("CODEX_HOME"), under(".codex")),
		// Gemini CLI takes GEMINI_CLI_HOME as the home directory that
		// holds .gemini, not as .gemini itself.
		Gemini:     first(a.g.GeminiHome, joined(e.Getenv("GEMINI_CLI_HOME"), ".gemini"), under(".gemini")),
		Hermes:     first(a.g.HermesHome, e.Getenv("HERMES_HOME"), under(".hermes")),
		OpenCode:   first(a.g.OpenCodeDir, joined(e.Getenv("XDG_DATA_HOME"), "opencode"), under(".local", "share", "opencode")),
		OpenCodeDB: e.Getenv("OPENCODE_DB"),
	}
	d.ClaudeUserConfig = joined(first(a.g.ClaudeDir, e.Getenv("CLAUDE_CONFIG_DIR")), ".claude.json")
	if d.ClaudeUserConfig == "" {
		d.ClaudeUserConfig = under(".claude.json")
	}
	// Crush keeps one database per project and no list of projects: by
	// default the project Tally runs in, and CRUSH_DATA_DIR.
	crushDirs := a.g.CrushDirs
	if len(crushDirs) == 0 {
		crushDirs = []string{joined(e.Dir, ".crush"), e.Getenv("CRUSH_DATA_DIR")}
	}
	for _, dir := range crushDirs {
		if dir == "" {
			continue
		}
		if !filepath.IsAbs(dir) && e.Dir != "" {
			dir = filepath.Join(e.Dir, dir)
		}
		d.Crush = append(d.Crush, dir)
	}
	return d
}

// agentTitles are the agents as people name them: in the help's first
// lines and the README.
var agentTitles = map[tally.Agent]string{
	tally.AgentClaude: "Claude Code", tally.AgentCodex: "Codex", tally.AgentGemini: "Gemini CLI",
	tally.AgentHermes: "Hermes", tally.AgentOpenCode: "OpenCode", tally.AgentCrush: "Crush",
	tally.AgentACP: "ACP agents",
}

// adapters builds one adapter per agent Tally reads.
func (a *app) adapters() []tally.Adapter {
	d := a.agentDirs()
	return []tally.Adapter{
		claude.New(claude.Options{ConfigDir: d.Claude}),
		codex.New(codex.Options{Home: d.Codex}),
		gemini.New(gemini.Options{Home: d.Gemini}),
		hermes.New(hermes.Options{Home: d.Hermes}),
		opencode.New(opencode.Options{DataDir: d.OpenCode, DB: d.OpenCodeDB}),
		crush.New(crush.Options{Roots: d.Crush}),
		acp.New(),
	}
}

// streamAdapters are the adapters a pipe can be read with (normalize,
// follow), by agent name: those that read lines and can tell their format
// from a stream. An agent that keeps only a database (Crush) is not among
// them.
func (a *app) streamAdapters() map[string]tally.StreamReader {
	m := make(map[string]tally.StreamReader)
	for _, ad := range a.adapters() {
		if sr, ok := ad.(tally.StreamReader); ok {
			m[ad.Agent().String()] = sr
		}
	}
	return m
}

// streamAgents is what a stream command's --agent accepts: auto, then the
// stream adapters' names.
func (a *app) streamAgents() []string {
	return append([]string{normalize.AgentAuto}, slices.Sorted(maps.Keys(a.streamAdapters()))...)
}

// storedAgents is what sessions --agent accepts: every agent whose
// sessions the store may hold — each adapter's, and tally for the task
// lists tally mcp keeps.
func (a *app) storedAgents() []string {
	names := []string{tally.AgentTally.String()}
	for _, ad := range a.adapters() {
		names = append(names, ad.Agent().String())
	}
	slices.Sort(names)
	return names
}
