package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// Codex 0.169 offers update_plan only with [tools.update_plan] enabled =
// true in its config. Each capture is read with the config it ran with
// (its harness/config.toml) as CODEX_HOME's: the one run without the
// setting had no list tool; the runs with it had one.
func TestRollout_ListToolsFollowTheConfig(t *testing.T) {
	for _, p := range rollouts(t) {
		scen := strings.TrimPrefix(p, fixtures+"/captured/codex-0.169.0/")
		scen, _, _ = strings.Cut(scen, "/")
		home := t.TempDir()
		cfg := read(t, filepath.Join(fixtures, "captured/codex-0.169.0", scen, "harness/config.toml"))
		if err := os.WriteFile(filepath.Join(home, "config.toml"), cfg, 0o644); err != nil {
			t.Fatal(err)
		}
		a := New(Options{Home: home})
		st := adaptertest.Fold(t, a, fileInfo(t, a, p), read(t, p), 0)
		want := tally.ListToolsOffered
		if !strings.Contains(string(cfg), "[tools.update_plan]") {
			want = tally.ListToolsNone
		}
		if st.ListTools != want {
			t.Errorf("%s: list tools %q, want %q", scen, st.ListTools, want)
		}
		if want == tally.ListToolsNone && !strings.Contains(st.ListToolsHint, "[tools.update_plan] enabled = true") {
			t.Errorf("%s: hint %q", scen, st.ListToolsHint)
		}
	}
}

func TestAtLeast(t *testing.T) {
	for v, want := range map[string]bool{"0.169.0": true, "0.170.2": true, "1.0.0": true, "0.168.9": false, "0.169.0-alpha.1": true, "": false, "x.y": false} {
		if got := atLeast(v, planToolSince); got != want {
			t.Errorf("atLeast(%q) = %v", v, got)
		}
	}
}
