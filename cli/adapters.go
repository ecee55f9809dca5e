package cli

import (
	"maps"
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

// adapters builds one adapter per agent Tally reads.
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

// streamAdapters are the adapters a pipe can be read with (normalize,
// follow), by agent name: those that read lines and can tell their format
// from a stream. An agent that keeps only a database (Crush) is not among
// them.
func streamAdapters(g globalOptions) map[string]tally.StreamReader {
	m := make(map[string]tally.StreamReader)
	for _, a := range adapters(g) {
		if sr, ok := a.(tally.StreamReader); ok {
			m[a.Agent().String()] = sr
		}
	}
	return m
}

// streamAgents is what a stream command's --agent accepts: auto, then the
// stream adapters' names.
func streamAgents(g globalOptions) []string {
	return append([]string{normalize.AgentAuto}, slices.Sorted(maps.Keys(streamAdapters(g)))...)
}

// storedAgents is what sessions --agent accepts: every agent whose
// sessions the store may hold — each adapter's, and tally for the task
// lists tally mcp keeps.
func storedAgents(g globalOptions) []string {
	names := []string{tally.AgentTally.String()}
	for _, a := range adapters(g) {
		names = append(names, a.Agent().String())
	}
	slices.Sort(names)
	return names
}
