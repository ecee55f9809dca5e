package cli

import (
	"sort"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/acp"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/adapter/crush"
	"github.com/tallyhq/tally/adapter/gemini"
	"github.com/tallyhq/tally/adapter/hermes"
	"github.com/tallyhq/tally/adapter/opencode"
)

// adapters builds one adapter per agent Tally reads. Adding an agent is one
// line here (and its home flag in globalOptions).
func adapters(g globalOptions) []tally.Adapter {
	return []tally.Adapter{
		claude.New(claude.Options{ConfigDir: g.ClaudeDir}),
		codex.New(codex.Options{Home: g.CodexHome}),
		gemini.New(gemini.Options{Home: g.GeminiHome}),
		hermes.New(hermes.Options{Home: g.HermesHome}),
		opencode.New(opencode.Options{DataDir: g.OpenCodeDir}),
		crush.New(crush.Options{Roots: g.CrushDirs}),
		acp.New(),
	}
}

// streamAdapters are the adapters by agent name, for the commands that read
// a stream (normalize, follow).
func streamAdapters(g globalOptions) map[string]tally.Adapter {
	m := make(map[string]tally.Adapter)
	for _, a := range adapters(g) {
		m[a.Agent().String()] = a
	}
	return m
}

// agentNames lists what --agent accepts.
func agentNames(g globalOptions) string {
	names := []string{"auto"}
	for n := range streamAdapters(g) {
		names = append(names, n)
	}
	sort.Strings(names[1:])
	return strings.Join(names, "|")
}
