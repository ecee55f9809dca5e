package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/index"
)

// A sub-agent is shown by its description (agent-<id>.meta.json), not its
// hex id, in show and in watch's lines; --json has both. The capture's
// task files are left out: they hold the sub-agent's task in its parent's
// list (Claude Code keeps one list per session), so the sub-agent's own
// list is the one its log folds, as when those files are gone.
func TestRun_subAgentIsShownByName(t *testing.T) {
	const name = "Audit string helpers" // the capture's meta.json
	st := newStore(t)
	config := t.TempDir()
	copyTree(t, filepath.Join(config, "projects"), filepath.Join(captured, "tasks-subagent/config/projects"))
	dir := map[string]string{"CLAUDE_CONFIG_DIR": config}
	if code, _, errOut := run(t, st, dir, "scan"); code != ExitOK {
		t.Fatalf("scan: exit %d: %s", code, errOut)
	}
	_, out, _ := run(t, st, nil, "sessions", "--json")
	var list []tally.Session
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 {
		t.Fatalf("sessions --json: %v\n%s", err, out)
	}
	subs := list[0].SubAgents
	if len(subs) != 1 || subs[0].Name != name || subs[0].ID != "a1930ad882c0f656e" {
		t.Fatalf("subAgents %+v, want a1930ad882c0f656e named %q", subs, name)
	}
	_, out, _ = run(t, st, nil, "show", list[0].ID, "--full")
	if !strings.Contains(out, "Sub-agent "+name+" 1/1") || strings.Contains(out, "a1930ad") {
		t.Errorf("show names the sub-agent by its id, not %q:\n%s", name, out)
	}

	// watch: a change in the sub-agent's list is prefixed by its name.
	rec, err := st.Record(t.Context(), list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	before := rec
	before.Lists = map[string][]tally.Item{"": rec.Lists[""]}
	prev := before.Session(fixedNow)
	var b strings.Builder
	if err := RenderChange(&b, index.Change{Kind: index.SessionUpdated, ID: rec.ID, Record: rec}, LineOptions{Now: fixedNow, Previous: &prev}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), name+": ✓") {
		t.Errorf("watch line %q does not name the sub-agent %q", b.String(), name)
	}
}
