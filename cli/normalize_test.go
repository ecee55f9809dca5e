package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const codexExec = "../testdata/fixtures/captured/codex-0.169.0/update-plan-resume/exec-json.stdout.jsonl"

func TestNormalize_FileArgumentFollowsTheAgentsOwnList(t *testing.T) {
	code, out, errOut := run(t, newStore(t), nil, "normalize", codexExec)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The agent's own record: the items of every todo_list item event.
	f, err := os.Open(codexExec)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var want []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev struct {
			Item struct {
				Type  string
				Items []struct {
					Text      string
					Completed bool
				}
			}
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Item.Type != "todo_list" {
			continue
		}
		var parts []string
		for _, it := range ev.Item.Items {
			parts = append(parts, it.Text+"="+map[bool]string{true: "completed", false: "pending"}[it.Completed])
		}
		if s := strings.Join(parts, ","); len(want) == 0 || want[len(want)-1] != s {
			want = append(want, s)
		}
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev struct {
			Type  string
			Items []struct{ Text, Status string }
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		if ev.Type != "todo_list" {
			continue
		}
		var parts []string
		for _, it := range ev.Items {
			parts = append(parts, it.Text+"="+it.Status)
		}
		got = append(got, strings.Join(parts, ","))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("normalized lists:\n%s\nwant (codex's own todo_list items):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestNormalize_UnknownAgentIsAUsageError(t *testing.T) {
	code, _, errOut := run(t, newStore(t), nil, "normalize", "--agent", "clippy")
	if code != ExitUsage || !strings.Contains(errOut, "clippy") || !strings.Contains(errOut, "codex") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// Crush and OpenCode keep only databases: no pipe can be read as theirs,
// so naming them is refused before any input is read, with the agents a
// stream can be.
func TestNormalize_AgentThatKeepsADatabaseIsRefusedAtOnce(t *testing.T) {
	for _, cmd := range []string{"normalize", "follow"} {
		for _, agent := range []string{"crush", "opencode"} {
			code, out, errOut := run(t, newStore(t), nil, cmd, "--agent", agent)
			if code != ExitUsage || out != "" {
				t.Errorf("%s --agent %s: exit %d, stdout %q", cmd, agent, code, out)
			}
			want := "(want auto|acp|claude|codex|gemini|hermes)"
			if !strings.Contains(errOut, want) {
				t.Errorf("%s --agent %s: stderr %q does not list %s", cmd, agent, errOut, want)
			}
		}
	}
}

func TestNormalize_AgentIsMatchedWithoutCase(t *testing.T) {
	_, want, _ := run(t, newStore(t), nil, "normalize", "--agent", "codex", codexExec)
	code, got, errOut := run(t, newStore(t), nil, "normalize", "--agent", "CODEX", codexExec)
	if code != ExitOK || got != want || want == "" {
		t.Fatalf("--agent CODEX: exit %d, stderr %q; output differs from --agent codex: %v", code, errOut, got != want)
	}
}

// TestNormalize_aFileOfWhichNoLineCouldBeReadExitsWithUsage: a script must
// not take "27 of 27 lines skipped" for success.
func TestNormalize_aFileOfWhichNoLineCouldBeReadExitsWithUsage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "garbled.jsonl")
	if err := os.WriteFile(path, []byte("{\"jsonrpc\":\n{\"jsonrpc\":\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, newStore(t), nil, "normalize", "--agent", "acp", path)
	if code != ExitUsage || !strings.Contains(errOut, "no line of the input could be read") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
