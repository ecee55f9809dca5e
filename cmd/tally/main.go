// Command tally shows the live progress of coding agents' todo lists. It
// only wires: the commands are package cli, the store is store/sqlite.
package main

import (
	"os"

	"github.com/tallyhq/tally/cli"
	"github.com/tallyhq/tally/store/sqlite"
)

func main() {
	os.Exit(int(cli.Main(os.Args[1:], openSQLite, sqlite.DefaultPath)))
}
