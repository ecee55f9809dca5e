package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetup(t *testing.T) {
	home := t.TempDir()
	settings := filepath.Join(home, ".claude", "settings.json")
	setup := func(args ...string) (ExitCode, string, string) {
		t.Helper()
		var out, errOut syncBuffer
		env := testEnv(nil, &out, &errOut, nil)
		env.Home = home
		code := Run(t.Context(), env, append([]string{"setup", "claude", "--tally", "/opt/tally/bin/tally"}, args...))
		return code, out.String(), errOut.String()
	}
	if code, out, errOut := setup("--guard-stop"); code != ExitOK || !strings.Contains(out, "hooks.Stop") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	first, _ := os.ReadFile(settings)
	t.Run("a second run changes nothing", func(t *testing.T) {
		code, out, _ := setup("--guard-stop")
		again, _ := os.ReadFile(settings)
		if code != ExitOK || string(again) != string(first) || strings.Count(out, "unchanged") != 2 {
			t.Errorf("exit %d, output:\n%s", code, out)
		}
	})
	t.Run("settings with a comment are left untouched, with file and line", func(t *testing.T) {
		commented := "{\n  // mine\n  \"model\": \"opus\"\n}\n"
		os.WriteFile(settings, []byte(commented), 0o600)
		code, _, errOut := setup()
		if code == ExitOK || !strings.Contains(errOut, settings+" line 2") {
			t.Errorf("exit %d, stderr %s", code, errOut)
		}
		if b, _ := os.ReadFile(settings); string(b) != commented {
			t.Errorf("the file changed:\n%s", b)
		}
	})
}
