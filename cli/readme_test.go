package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tallyhq/tally/agents"
)

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
	for _, d := range agents.All {
		if len(d.Homes) == 0 {
			continue // reads streams only (acp)
		}
		if !strings.Contains(where, "| "+d.Label+" |") {
			t.Errorf("README's table of where things are has no row for %s (%s)", d.Label, d.Agent)
		}
		for _, v := range d.Vars() {
			if !strings.Contains(where, "$"+v) && !strings.Contains(where, "`"+v) {
				t.Errorf("README's table of where things are does not name %s's variable %s", d.Label, v)
			}
		}
	}
}

// TestHelp_FirstLinesNameEveryAgentTallyReads: what Tally is, said where a
// new user looks first — the help's opening sentence, and the README's —
// names every agent it reads, not one and "more".
func TestHelp_FirstLinesNameEveryAgentTallyReads(t *testing.T) {
	var out syncBuffer
	if code := Run(t.Context(), testEnv(nil, &out, &syncBuffer{}, nil), []string{"--help"}); code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	help := strings.Join(strings.Fields(out.String()), " ")
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := strings.Join(strings.Fields(string(b)), " ")
	readme = readme[strings.Index(readme, "Claude Code"):]
	firstSentence := func(s string) string {
		if i := strings.Index(s, ". "); i >= 0 {
			return s[:i]
		}
		return s
	}
	for _, d := range agents.All {
		name := d.Label
		if !strings.Contains(firstSentence(help), name) {
			t.Errorf("the help's first sentence does not name %s: %q", name, firstSentence(help))
		}
		if !strings.Contains(firstSentence(readme), name) {
			t.Errorf("the README's first sentence about the agents does not name %s: %q", name, firstSentence(readme))
		}
	}
}
