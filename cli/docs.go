package cli

import (
	"github.com/spf13/cobra"
)

// Command is tally's whole command tree as its documentation shows it —
// man pages and shell completion scripts are generated from it — with the
// completion command cobra adds when tally runs, and every default that
// comes from the process (the store's path, the settings file) left
// unset, so that what is generated is the same on every machine.
func Command() *cobra.Command {
	a := &app{env: Env{Getenv: func(string) string { return "" }}}
	root := a.rootCommand()
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	root.InitDefaultVersionFlag()
	return root
}
