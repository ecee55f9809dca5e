package setup

import "path/filepath"

// geminiTarget sets up Gemini CLI: `tally mcp` under "mcpServers" in
// ~/.gemini/settings.json, which Gemini CLI 0.61.0 reads with comments
// stripped (and rewrites keeping them), so comments are kept here too.
//
// Gemini CLI has hooks, but of its own kinds (BeforeAgent, AfterAgent,
// AfterTool, PreCompress, …): no session start after a compression to
// give a list back at, and other output shapes. tally hook does not answer
// them yet, so none are installed.
type geminiTarget struct{}

func (geminiTarget) Plan(p Paths, o Options) (Plan, error) {
	server := struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}{o.Tally, []string{"mcp"}}
	mcp, notes, err := editMCP(filepath.Join(p.GeminiDir, "settings.json"), true, "Gemini CLI", server, o)
	if err != nil {
		return Plan{}, err
	}
	if !o.Uninstall {
		notes = append(notes, "Gemini CLI starts user MCP servers only in folders you trust (/permissions, or its trust prompt).",
			"Gemini CLI: Tally's hooks are not installed (tally hook does not answer Gemini CLI's hook events yet); the task tools over MCP are.")
	}
	return Plan{Edits: []Edit{mcp}, Notes: notes}, nil
}
