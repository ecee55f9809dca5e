package testhome

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tallyhq/tally/agents"
)

// TestUserWorld_IsEveryVariableTallyReads: every variable Tally's own code
// reads (a literal name given to Getenv or LookupEnv outside tests, or a
// variable an agent's descriptor names) is either one through which it
// finds a user's data — then a test's tally runs without it, and
// scripts/test poisons it — or one that carries none. A variable read
// without a line here fails this test; an agent's come with its
// descriptor.
func TestUserWorld_IsEveryVariableTallyReads(t *testing.T) {
	read := map[string]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", ".agents", "node_modules", "testdata", "e2e":
				return filepath.SkipDir
			}
			// Test helpers and the tools of the tests read the
			// environment of the test, not a user's.
			if strings.HasPrefix(path, filepath.Join("..", "..", "internal")) && d.Name() != "internal" && d.Name() != "version" {
				return filepath.SkipDir
			}
			if strings.HasSuffix(path, "pgtest") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "Getenv" && sel.Sel.Name != "LookupEnv") {
				return true
			}
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				name, _ := strconv.Unquote(lit.Value)
				read[name] = fset.Position(lit.Pos()).String()
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range agents.Vars() {
		read[name] = "an agent's descriptor"
	}
	if len(read) < 10 {
		t.Fatalf("found only %d variables read: %v", len(read), read)
	}
	for name, where := range read {
		if !slices.Contains(UserWorld, name) && !slices.Contains(Harmless, name) {
			t.Errorf("%s reads $%s: add it to UserWorld (it leads to a user's data) or Harmless", where, name)
		}
	}
	// os.UserHomeDir reads HOME, and the XDG folders are the defaults
	// under it: both are in UserWorld whether or not a literal says so.
	for _, name := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"} {
		if !slices.Contains(UserWorld, name) {
			t.Errorf("UserWorld lacks %s", name)
		}
	}
}

// TestEnviron_CarriesNothingOfTheUsersWorld: with every variable of
// UserWorld set in the test's own process to the user's places, a tally
// started with Environ sees the test's home and none of them.
func TestEnviron_CarriesNothingOfTheUsersWorld(t *testing.T) {
	for _, name := range UserWorld {
		t.Setenv(name, "/home/user/"+name)
	}
	home := t.TempDir()
	env := Environ(home, "TALLY_DB=/test/tally.db", "HOME="+home+"/other")
	got := map[string]string{}
	for _, kv := range env {
		name, v, _ := strings.Cut(kv, "=")
		if _, dup := got[name]; dup {
			t.Errorf("%s twice", name)
		}
		got[name] = v
	}
	for _, name := range UserWorld {
		if strings.HasPrefix(got[name], "/home/user/") {
			t.Errorf("%s=%s: the user's", name, got[name])
		}
	}
	want := map[string]string{
		"HOME": home + "/other", "TALLY_DB": "/test/tally.db", "XDG_DATA_HOME": filepath.Join(home, ".local", "share"),
		"PATH": os.Getenv("PATH"), "TMPDIR": os.TempDir(),
	}
	for name, v := range want {
		if got[name] != v {
			t.Errorf("%s=%q, want %q", name, got[name], v)
		}
	}
	for _, name := range []string{"CODEX_HOME", "CLAUDE_CONFIG_DIR", "TALLY_TOKEN"} {
		if _, ok := got[name]; ok {
			t.Errorf("%s is set: each agent is looked for under the test's home", name)
		}
	}
}
