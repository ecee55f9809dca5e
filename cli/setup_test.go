package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSetup(t *testing.T) {
	home := t.TempDir()
	settings := filepath.Join(home, ".claude", "settings.json")
	bin := fakeTally(t, t.TempDir())
	setup := func(args ...string) (ExitCode, string, string) {
		t.Helper()
		var out, errOut syncBuffer
		env := testEnv(nil, &out, &errOut, nil)
		env.Home = home
		code := Run(t.Context(), env, append([]string{"setup", "claude", "--tally", bin}, args...))
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

// fakeTally is an executable file named tally in dir, standing for an
// installed tally.
func fakeTally(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "tally")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// setupRun runs tally setup claude in an Env whose home is home and whose
// running program is self, with vars as its environment.
func setupRun(t *testing.T, home, self string, vars map[string]string, args ...string) (ExitCode, string, string) {
	t.Helper()
	var out, errOut syncBuffer
	env := testEnv(nil, &out, &errOut, vars)
	env.Home, env.Dir = home, home
	env.Executable = func() (string, error) { return self, nil }
	code := Run(t.Context(), env, append([]string{"setup", "claude"}, args...))
	return code, out.String(), errOut.String()
}

// TestSetup_RefusesAThrowawayBuild: the tally that go run builds lives in
// Go's build cache (from Go 1.24 on; before, and the first time, in a
// go-build work folder of the temporary folder), and so does a test
// binary. An agent set up to run it loses its hooks and its MCP server
// when Go trims the cache or the folder is cleaned, so setup refuses it,
// says how to install tally, and writes nothing; --dry-run says the same.
func TestSetup_RefusesAThrowawayBuild(t *testing.T) {
	root := t.TempDir()
	cache := filepath.Join(root, "cache", "go-build")
	hash := strings.Repeat("8d", 32)
	tmp := filepath.Join(root, "tmp")
	for name, c := range map[string]struct {
		self  string
		vars  map[string]string
		where string
	}{
		"go run's first build, in its work folder": {
			self: "/tmp/go-build1585312714/b001/exe/tally", vars: map[string]string{"TMPDIR": tmp}, where: "go run"},
		"go run's build, in the build cache GOCACHE names": {
			self: filepath.Join(root, "elsewhere", "80", hash+"-d", "tally"), vars: map[string]string{"GOCACHE": filepath.Join(root, "elsewhere"), "TMPDIR": tmp},
			where: "build cache"},
		"in the build cache at its default place": {
			self: filepath.Join(cache, "nested", "tally"), vars: map[string]string{"XDG_CACHE_HOME": filepath.Join(root, "cache"), "TMPDIR": tmp},
			where: "build cache"},
		"in the temporary folder": {
			self: fakeTally(t, filepath.Join(tmp, "x")), vars: map[string]string{"TMPDIR": tmp}, where: "temporary folder"},
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			for _, dry := range []bool{false, true} {
				args := []string{"--guard-stop"}
				if dry {
					args = append(args, "--dry-run")
				}
				code, out, errOut := setupRun(t, home, c.self, c.vars, args...)
				if code == ExitOK || !strings.Contains(errOut, c.self) || !strings.Contains(errOut, c.where) ||
					!strings.Contains(errOut, "go install ./cmd/tally") || !strings.Contains(errOut, "--tally PATH") {
					t.Errorf("dry-run %v: exit %d, stderr:\n%s", dry, code, errOut)
				}
				if strings.Contains(out, "hook claude") {
					t.Errorf("dry-run %v: it showed hooks to install anyway:\n%s", dry, out)
				}
			}
			if entries, _ := os.ReadDir(home); len(entries) != 0 {
				t.Errorf("setup wrote into the home: %v", entries)
			}
		})
	}
}

// TestSetup_InstalledCommandsNameAnExecutableAbsolutePath: an agent runs
// its hooks with its own working directory and PATH, so every command
// setup installs names the tally by an absolute path, checked to be an
// executable file when setup runs.
func TestSetup_InstalledCommandsNameAnExecutableAbsolutePath(t *testing.T) {
	root := t.TempDir()
	vars := map[string]string{"TMPDIR": filepath.Join(root, "tmp")}
	installed := fakeTally(t, filepath.Join(root, "opt", "tally", "bin"))
	settings := func(home string) string {
		b, _ := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
		return string(b)
	}
	t.Run("the running tally, installed", func(t *testing.T) {
		home := t.TempDir()
		code, out, errOut := setupRun(t, home, installed, vars)
		if code != ExitOK || !strings.Contains(settings(home), `"`+installed+` hook claude`) {
			t.Errorf("exit %d\n%s%s\nsettings: %s", code, out, errOut, settings(home))
		}
	})
	t.Run("the running tally, by the link on PATH that survives an upgrade", func(t *testing.T) {
		home := t.TempDir()
		binDir := filepath.Join(root, "usr", "bin")
		os.MkdirAll(binDir, 0o755)
		link := filepath.Join(binDir, "tally")
		if err := os.Symlink(installed, link); err != nil {
			t.Fatal(err)
		}
		withPath := map[string]string{"TMPDIR": vars["TMPDIR"], "PATH": "relative:" + binDir}
		code, out, errOut := setupRun(t, home, installed, withPath)
		if code != ExitOK || !strings.Contains(settings(home), `"`+link+` hook claude`) {
			t.Errorf("exit %d\n%s%s\nsettings: %s", code, out, errOut, settings(home))
		}
	})
	t.Run("--tally relative to the working directory, or a name on PATH", func(t *testing.T) {
		for _, arg := range []string{"opt/tally/bin/tally", "./opt/tally/bin/tally", "tally"} {
			home := t.TempDir() // the working directory too
			here := fakeTally(t, filepath.Join(home, "opt", "tally", "bin"))
			withPath := map[string]string{"TMPDIR": vars["TMPDIR"], "PATH": filepath.Join(home, "nothing") + ":" + filepath.Dir(here)}
			code, out, errOut := setupRun(t, home, "/tmp/go-build1/b001/exe/tally", withPath, "--tally", arg)
			if code != ExitOK || !strings.Contains(settings(home), `"`+here+` hook claude`) {
				t.Errorf("--tally %s: exit %d\n%s%s\nsettings: %s", arg, code, out, errOut, settings(home))
			}
		}
	})
	t.Run("--tally that is not an executable file is refused, and nothing is written", func(t *testing.T) {
		plain := filepath.Join(root, "plain")
		os.WriteFile(plain, []byte("not a program"), 0o644)
		for arg, why := range map[string]string{
			plain:                            "not executable",
			filepath.Join(root, "missing"):   "no such file",
			filepath.Join(root, "opt"):       "not a file",
			"no-such-tally-anywhere-on-path": "not found on PATH",
		} {
			home := t.TempDir()
			code, _, errOut := setupRun(t, home, installed, vars, "--tally", arg)
			if code != ExitUsage || !strings.Contains(errOut, why) {
				t.Errorf("--tally %s: exit %d, stderr %s", arg, code, errOut)
			}
			if entries, _ := os.ReadDir(home); len(entries) != 0 {
				t.Errorf("--tally %s: setup wrote %v", arg, entries)
			}
		}
	})
	t.Run("--tally in a temporary folder is the user's choice, with a note", func(t *testing.T) {
		home := t.TempDir()
		tmpBin := fakeTally(t, filepath.Join(vars["TMPDIR"], "b"))
		code, out, errOut := setupRun(t, home, installed, vars, "--tally", tmpBin)
		if code != ExitOK || !strings.Contains(out, "note: "+tmpBin+" is in a temporary folder") {
			t.Errorf("exit %d\n%s%s", code, out, errOut)
		}
	})
	t.Run("uninstalling takes any tally", func(t *testing.T) {
		home := t.TempDir()
		if code, out, errOut := setupRun(t, home, installed, vars); code != ExitOK {
			t.Fatalf("exit %d\n%s%s", code, out, errOut)
		}
		code, out, errOut := setupRun(t, home, "/tmp/go-build1/b001/exe/tally", vars, "--uninstall")
		if code != ExitOK || strings.Contains(settings(home), "hook claude") {
			t.Errorf("exit %d\n%s%s\nsettings: %s", code, out, errOut, settings(home))
		}
	})
}

// A settings file that is a FIFO (or a device) is refused at once, named,
// and left as it is: reading it would wait for a writer for ever, and no
// signal but the last would end the wait.
func TestSetup_fifoSettingsEndsAtOnce(t *testing.T) {
	bin := fakeTally(t, t.TempDir())
	for _, file := range []string{".claude/settings.json", ".claude.json"} {
		t.Run(file, func(t *testing.T) {
			home := t.TempDir()
			path := filepath.Join(home, file)
			os.MkdirAll(filepath.Dir(path), 0o755)
			fifo(t, path)
			type result struct {
				code        ExitCode
				out, errOut string
			}
			done := make(chan result, 1)
			go func() {
				code, out, errOut := setupRun(t, home, bin, nil, "--tally", bin)
				done <- result{code, out, errOut}
			}()
			select {
			case r := <-done:
				if r.code == ExitOK || !strings.Contains(r.errOut, path+" is a named pipe") {
					t.Fatalf("exit %d\n%s\n%s", r.code, r.out, r.errOut)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("tally setup is still waiting on the FIFO")
			}
			if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
				t.Fatalf("the FIFO was replaced: %v %v", fi.Mode(), err)
			}
		})
	}
}

// Tally's own settings file as a FIFO: every command would freeze reading
// it; instead it says so and ends.
func TestConfig_fifoSettingsEndsAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	fifo(t, path)
	code, _, errOut := runBounded(t, newStore(t), map[string]string{"TALLY_CONFIG": path}, "", "task", "--project", t.TempDir())
	if code == ExitOK || !strings.Contains(errOut, "named pipe") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// A settings file a dotfiles manager links is changed through the link,
// and both --dry-run and the run say so, naming the file that changes.
func TestSetup_aLinkedSettingsFileSaysWhereTheChangeGoes(t *testing.T) {
	home := t.TempDir()
	bin := fakeTally(t, t.TempDir())
	real := filepath.Join(t.TempDir(), "dotfiles", "settings.json")
	os.MkdirAll(filepath.Dir(real), 0o700)
	os.WriteFile(real, []byte("{}\n"), 0o600)
	os.MkdirAll(filepath.Join(home, ".claude"), 0o700)
	link := filepath.Join(home, ".claude", "settings.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"XDG_STATE_HOME": t.TempDir()}
	want := link + " is a link to " + real + ": the change is written there, through the link, which stays"
	code, out, errOut := setupRun(t, home, bin, vars, "--tally", bin, "--dry-run")
	if code != ExitOK || !strings.Contains(out, want) {
		t.Fatalf("dry run: exit %d\n%s%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(real); string(b) != "{}\n" {
		t.Fatalf("the dry run wrote: %s", b)
	}
	code, out, errOut = setupRun(t, home, bin, vars, "--tally", bin)
	if code != ExitOK || !strings.Contains(out, want) {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is gone: %v", err)
	}
	if b, _ := os.ReadFile(real); !strings.Contains(string(b), "hook claude") {
		t.Fatalf("the target: %s", b)
	}
}
