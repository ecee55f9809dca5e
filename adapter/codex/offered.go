package codex

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/safefile"
)

// Codex 0.169 offers update_plan, its one list tool, only when its config
// says [tools.update_plan] enabled = true; without it a session keeps no
// plan however long it works, and its rollout does not say why (the tools
// offered are not recorded). So the fact is pieced together: a rollout
// written by Codex 0.169 or later (session_meta.cli_version) had update_plan
// exactly when the config enables it. Older versions offered it by
// default, as far as is known; their sessions say nothing either way. The
// config is read as it is now, once, when the adapter is made.

// planToolSince is the first Codex version known to need the setting.
var planToolSince = [3]int{0, 169, 0}

// maxConfigBytes bounds what is read of config.toml.
const maxConfigBytes = 1 << 20

// noPlanToolHint is how to give Codex its list tool.
const noPlanToolHint = "Codex offers update_plan only with `[tools.update_plan] enabled = true` in its config.toml; " +
	"or give it Tally's task tools with `tally mcp` (`tally setup codex` registers it)."

// planToolEnabled reads whether home's config.toml enables update_plan.
func planToolEnabled(home string) bool {
	if home == "" {
		return false
	}
	// Only a regular file is read (a link followed): a FIFO in its place
	// is never opened, so it cannot hold the adapter's construction.
	b, err := safefile.ReadRegular(filepath.Join(home, "config.toml"), maxConfigBytes)
	if err != nil {
		return false
	}
	var cfg struct {
		Tools struct {
			UpdatePlan struct {
				Enabled bool `toml:"enabled"`
			} `toml:"update_plan"`
		} `toml:"tools"`
	}
	if toml.Unmarshal(b, &cfg) != nil {
		return false
	}
	return cfg.Tools.UpdatePlan.Enabled
}

// listTools is what a rollout of Codex version says of update_plan, given
// whether the config enables it.
func listTools(version string, enabled bool) tally.Meta {
	if !atLeast(version, planToolSince) {
		return tally.Meta{}
	}
	if enabled {
		return tally.Meta{ListTools: tally.ListToolsOffered}
	}
	return tally.Meta{ListTools: tally.ListToolsNone, ListToolsHint: noPlanToolHint}
}

// atLeast compares a "major.minor.patch[-suffix]" version with v; a
// version that does not parse is not at least anything.
func atLeast(version string, v [3]int) bool {
	version, _, _ = strings.Cut(version, "-")
	parts := strings.Split(version, ".")
	if len(parts) != 3 {
		return false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return false
		}
		if n != v[i] {
			return n > v[i]
		}
	}
	return true
}
