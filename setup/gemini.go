package setup

import "path/filepath"

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
	var notes []string
	edit, err := editJSON(filepath.Join(t.dir, "settings.json"), true, "Gemini CLI", func(doc *jsonDoc, path string) ([]string, error) {
		what, err := installHooks(doc, path, "gemini", geminiHooks, hookTimeoutMillis, o)
		if err != nil {
			return nil, err
		}
		mcp, err := setMCP(doc, path, server, o, &notes)
		return append(what, mcp...), err
	})
	if err != nil {
		return Plan{}, err
	}
	if !o.Uninstall {
		notes = append(notes, "Gemini CLI starts user MCP servers only in folders you trust (/permissions, or its trust prompt).",
			"Gemini CLI has no hook after a compression: after a /compress, Tally gives the unfinished items back with your next prompt (or the next tool's result); an automatic compression is not followed, since Gemini CLI announces one before every model call whether or not it compresses.")
	}
	return Plan{Edits: []Edit{edit}, Notes: notes}, nil
}
