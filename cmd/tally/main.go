package main

import (
	"os"
	"runtime/debug"

	"github.com/tallyhq/tally/cli"
	"github.com/tallyhq/tally/store/sqlite"
)

// memoryLimit is the heap size past which the garbage collector works
// harder (a soft limit; GOMEMLIMIT overrides it). Tally runs beside the
// agents all day: what it holds is the sessions going on, and a cold scan
// of a large history should not swell it.
const memoryLimit = 40 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	os.Exit(int(cli.Main(os.Args[1:], openStore, sqlite.DefaultPath)))
}
