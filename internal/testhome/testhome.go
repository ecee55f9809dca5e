package testhome

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tallyhq/tally/agents"
)

// UserWorld are the variables through which Tally finds a user's data,
// settings or servers: the home, the XDG folders, each agent's own
// variables (those its descriptor names) and Tally's. Environ sets the
// first five into the test's home and leaves every other one out, so each
// agent is looked for in its place under that home.
var UserWorld = userWorld()

func userWorld() []string {
	names := []string{"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"}
	for _, v := range agents.Vars() {
		if !slices.Contains(names, v) {
			names = append(names, v)
		}
	}
	return append(names, "TALLY_DB", "TALLY_CONFIG", "TALLY_TOKEN", "TALLY_SERVER", "TALLY_ADDR", "TALLY_LIST")
}

// Harmless are the other variables Tally reads: how to draw and where to
// run programs from, but no user's data. Environ passes the machine's
// PATH and temporary folder on; a test sets the rest when it needs them.
var Harmless = []string{
	"PATH", "TMPDIR", "TERM", "COLORTERM", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM_PROGRAM", "TMUX",
	"COLUMNS", "USER", "GOMEMLIMIT",
	// setup's test of a throwaway build: where Go keeps its build cache
	// and its temporary folders, and the Windows temporary folders.
	"GOCACHE", "GOTMPDIR", "LocalAppData", "TEMP", "TMP",
}

// kept are the machine's variables a tally process of a test is given:
// where to find programs and the temporary folder, and a coverage build's
// output folder.
var kept = []string{"PATH", "GOCOVERDIR", "LANG", "LC_ALL", "TZ"}

// Environ is the environment of a tally process whose whole world is
// home: HOME and the XDG folders inside it, the machine's PATH and
// temporary folder, and nothing else of the machine's; then extra
// (NAME=VALUE), which win over all of it.
func Environ(home string, extra ...string) []string {
	var env []string
	for _, k := range kept {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	env = append(env,
		"TMPDIR="+os.TempDir(),
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
	)
	return override(env, extra)
}

// override is env with each NAME=VALUE of extra replacing the variable of
// that name, or added.
func override(env, extra []string) []string {
	for _, kv := range extra {
		name, _, _ := strings.Cut(kv, "=")
		out := env[:0:0]
		for _, have := range env {
			if n, _, _ := strings.Cut(have, "="); n != name {
				out = append(out, have)
			}
		}
		env = append(out, kv)
	}
	return env
}
