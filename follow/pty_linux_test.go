//go:build linux

package follow

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal of 80×24 with the kernel's own line
// discipline (so "\n" reaches the screen as "\r\n", as on a real terminal).
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	fd := int(m.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pts: %v", err)
	}
	if err := unix.IoctlSetWinsize(int(s.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: 80}); err != nil {
		t.Fatal(err)
	}
	return m, s
}

// runOnPTY runs follow with a pseudo-terminal as its output and returns
// the bytes the terminal received.
func runOnPTY(t *testing.T, in []byte) []byte {
	master, slave := openPTY(t)
	defer master.Close()
	got := make(chan []byte)
	go func() {
		var b bytes.Buffer
		io.Copy(&b, master) // ends with EIO once the slave is closed
		got <- b.Bytes()
	}()
	err := Run(context.Background(), bytes.NewReader(in), slave, Options{Stream: streamOpts(), NoColor: true})
	slave.Close()
	out := <-got
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRun_terminalDrawsOneListInPlace runs a real Codex capture, with a
// line of other output in front, through a pseudo-terminal and replays
// what the terminal received on a model screen: the list must be there
// once, in its final state, below the other output.
func TestRun_terminalDrawsOneListInPlace(t *testing.T) {
	capture, err := os.ReadFile(filepath.Join(captured, "codex-0.169.0/update-plan-resume/exec-json.stdout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	raw := runOnPTY(t, append([]byte("Reading prompt from stdin...\n"), capture...))
	if !bytes.Contains(raw, []byte("\x1b[")) {
		t.Fatal("no escape sequences: follow did not see a terminal")
	}
	screen := replay(raw)
	text := strings.Join(screen, "\n")
	if n := strings.Count(text, "Plan (codex)"); n != 1 {
		t.Fatalf("the list is on screen %d times, want once:\n%s", n, text)
	}
	want := []string{
		"Reading prompt from stdin...",
		"Plan (codex): 3/3 done",
		"✓ Write greet.py with greet(name)",
		"✓ Add a unit test",
		"✓ Run a smoke check",
	}
	if !equalTail(screen, want) {
		t.Errorf("screen ends\n%s\nwant\n%s", text, strings.Join(want, "\n"))
	}
	if strings.Contains(text, "Update README") || strings.Contains(text, "◻") {
		t.Errorf("an earlier version of the list is left on screen:\n%s", text)
	}
}

// TestRun_terminalListTallerThanTheScreen: a list of 40 items on a 24-row
// terminal is drawn in 23 rows, so erasing it never misses a row.
func TestRun_terminalListTallerThanTheScreen(t *testing.T) {
	var items []string
	for i := range 40 {
		items = append(items, fmt.Sprintf(`{"text":"step %d","completed":%v}`, i, i < 3))
	}
	list := `{"type":"item.updated","item":{"id":"item_1","type":"todo_list","items":[` + strings.Join(items, ",") + `]}}`
	first := strings.Replace(list, `"completed":true`, `"completed":false`, 3)
	screen := replay(runOnPTY(t, []byte(first+"\n"+list+"\n")))
	text := strings.Join(screen, "\n")
	if n := strings.Count(text, "Plan ("); n != 1 || len(screen) != 23 {
		t.Fatalf("%d lists in %d rows, want 1 in 23:\n%s", n, len(screen), text)
	}
	if !strings.Contains(text, "3/40 done") || !strings.Contains(text, "… 19 more") {
		t.Errorf("screen:\n%s", text)
	}
}

func equalTail(screen, want []string) bool {
	if len(screen) < len(want) {
		return false
	}
	for i, w := range want {
		if strings.TrimRight(screen[len(screen)-len(want)+i], " ") != w {
			return false
		}
	}
	return true
}

// replay is a model terminal, enough for what follow writes: text, CR, LF,
// cursor to the start of a previous line (ESC[nF), erase below (ESC[J) and
// colours (ESC[…m, ignored). It keeps every row ever written, scroll-back
// included, and returns them without the empty last row.
func replay(b []byte) []string {
	rows := [][]rune{{}}
	r, c := 0, 0
	s := []rune(string(b))
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '\r':
			c = 0
		case ch == '\n':
			r++
			if r == len(rows) {
				rows = append(rows, []rune{})
			}
		case ch == 0x1b && i+1 < len(s) && s[i+1] == '[':
			j := i + 2
			n := 0
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				n = n*10 + int(s[j]-'0')
				j++
			}
			switch s[j] {
			case 'F':
				r, c = max(r-max(n, 1), 0), 0
			case 'J':
				rows[r] = rows[r][:min(c, len(rows[r]))]
				rows = rows[:r+1]
			}
			i = j
		default:
			for len(rows[r]) < c {
				rows[r] = append(rows[r], ' ')
			}
			if c < len(rows[r]) {
				rows[r][c] = ch
			} else {
				rows[r] = append(rows[r], ch)
			}
			c++
		}
	}
	out := make([]string, 0, len(rows))
	for _, row := range rows {
		out = append(out, string(row))
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}
