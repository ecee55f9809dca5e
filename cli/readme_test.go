package cli

import (
	"os"
	"slices"
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

// TestREADME_commandTableNamesTheAgentsOfHookAndSetup: the table said
// `tally hook claude|codex` while `tally setup gemini` installs `tally hook
// gemini`; a new user took the table's word.
func TestREADME_commandTableNamesTheAgentsOfHookAndSetup(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for cmd, names := range map[string][]string{"hook": hookAgentNames(), "setup": setupNames()} {
		row := "| `tally " + cmd + " "
		i := strings.Index(readme, row)
		if i < 0 {
			t.Errorf("the command table has no row for tally %s", cmd)
			continue
		}
		listed, _, _ := strings.Cut(readme[i+len(row):], "`")
		got := strings.Split(strings.ReplaceAll(listed, "\\|", "|"), "|")
		slices.Sort(got)
		if !slices.Equal(got, names) {
			t.Errorf("the command table lists tally %s %v; it answers %v", cmd, got, names)
		}
	}
}

// TestREADME_saysTheGoVersionGoModNeeds: "Go 1.26" while go.mod needs
// 1.26.8 sent a user with 1.26.0 into a toolchain download.
func TestREADME_saysTheGoVersionGoModNeeds(t *testing.T) {
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(mod), "\ngo ")
	want, _, _ := strings.Cut(rest, "\n")
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "You need Go "+want+" or later") {
		t.Errorf("the README does not say go.mod's Go %s", want)
	}
}
