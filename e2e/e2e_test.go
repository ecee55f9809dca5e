package e2e

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tallyhq/tally/internal/testhome"
	"github.com/tallyhq/tally/store/postgres/pgtest"
)

var tallyBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tally-e2e")
	if err != nil {
		panic(err)
	}
	// Others may run it: tests that need a user whom file permissions
	// bind run it as nobody when they run as root.
	if err := os.Chmod(dir, 0o755); err != nil {
		panic(err)
	}
	tallyBin = filepath.Join(dir, "tally")
	build := exec.Command("go", "build", "-o", tallyBin, "../cmd/tally")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		os.RemoveAll(dir)
		panic("building tally: " + err.Error())
	}
	code := pgtest.Main(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

const fixtures = "../testdata/fixtures/"

// claudeHome makes a Claude Code config dir holding copies of the real
// captures: n files in all, under several projects, each copy its own
// session.
func claudeHome(t testing.TB, n int) string {
	t.Helper()
	var srcs []string
	old, _ := filepath.Glob(fixtures + "claude/*.jsonl")
	captured, _ := filepath.Glob(fixtures + "captured/claude-code-2.1.330/*/config/projects/*/*.jsonl")
	srcs = append(old, captured...)
	if len(srcs) == 0 {
		t.Fatal("no fixtures")
	}
	home := t.TempDir()
	for i := range n {
		src := srcs[i%len(srcs)]
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(home, "projects", "-work-p"+string(rune('a'+i%7)))
		os.MkdirAll(dir, 0o755)
		name := strings.TrimSuffix(filepath.Base(src), ".jsonl")
		if err := os.WriteFile(filepath.Join(dir, name+"-copy"+itoa(i)+".jsonl"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

func itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + string([]byte(fmtInt(i)))) }

func fmtInt(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// tally runs the binary to completion on the Claude Code config dir home
// and the store db, and returns its stdout. Its home and XDG folders are
// beside db, so nothing but home is read.
func tally(t *testing.T, home, db string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(tallyBin, append(args, "--db", db, "--claude-dir", home)...)
	cmd.Env = testhome.Environ(filepath.Join(filepath.Dir(db), "home"))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("tally %v: %v\n%s", args, err, errb.String())
	}
	return out.Bytes()
}

// startServe runs `tally serve --addr 127.0.0.1:0` with args in env,
// stops it when the test ends (showing what it said if the test failed),
// and returns the URL it says it serves.
func startServe(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(tallyBin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = env
	var errb bytes.Buffer
	cmd.Stderr = &errb
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGINT)
		cmd.Wait()
		if t.Failed() {
			t.Logf("tally serve said:\n%s", errb.String())
		}
	})
	page := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`serving (http://\S+/)`)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				page <- m[1]
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	select {
	case url := <-page:
		return url
	case <-time.After(30 * time.Second):
		t.Fatal("tally serve never said where it serves")
	}
	return ""
}
