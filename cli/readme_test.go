package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tallyhq/tally"
)

// readmeNames are the agents as README's table names them.
var readmeNames = map[tally.Agent]string{
	tally.AgentClaude: "Claude Code", tally.AgentCodex: "Codex", tally.AgentGemini: "Gemini CLI",
	tally.AgentHermes: "Hermes", tally.AgentOpenCode: "OpenCode", tally.AgentCrush: "Crush",
}

// TestREADME_listsEveryFlagAndAgentHome: the README is where a new user
// learns the flags and where each agent's logs are read from; a flag or an
// agent added without a line there is invisible to them.
func TestREADME_listsEveryFlagAndAgentHome(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	where := readme[strings.Index(readme, "Where things are"):]
	a := &app{env: testEnv(nil, &syncBuffer{}, &syncBuffer{}, nil)}
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		cmd.InitDefaultHelpFlag()
		cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" {
				return // "Every command has --help"
			}
			if !strings.Contains(readme, "`--"+f.Name) {
				t.Errorf("README does not list %s's --%s", cmd.CommandPath(), f.Name)
			}
		})
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	root := a.rootCommand()
	root.InitDefaultVersionFlag()
	walk(root)
	for _, ad := range a.adapters() {
		if len(ad.Roots()) == 0 {
			continue // reads streams only (acp)
		}
		name, ok := readmeNames[ad.Agent()]
		if !ok {
			t.Errorf("a new agent, %s: give it a row in README's table of where things are, and its name here", ad.Agent())
		}
		if !strings.Contains(where, "| "+name+" |") {
			t.Errorf("README's table of where things are has no row for %s", ad.Agent())
		}
	}
}
