package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/tallyhq/tally/internal/testhome"
)

// The report: with a low limit on open files, a few hundred idle or slow
// connections from one client used up the descriptors of tally serve, and
// an authorised request was never answered. Run under `ulimit -n 160`,
// serve refuses one client's connections past its limit and closes them at
// once, so the authorised request from another address gets its answer.
func TestServe_lowFileLimitHundredsOfIdleConnectionsDoNotStarveTheToken(t *testing.T) {
	const token, n = "t0ken", 420
	home := claudeHome(t, 7)
	db := filepath.Join(t.TempDir(), "tally.db")
	cmd := exec.Command("sh", "-c", `ulimit -n 160 && exec "$0" "$@"`, tallyBin,
		"serve", "--addr", "127.0.0.1:0", "--db", db, "--claude-dir", home)
	cmd.Env = testhome.Environ(t.TempDir(), "TALLY_TOKEN="+token)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGINT)
		cmd.Wait()
	}()
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
	var url string
	select {
	case url = <-page:
	case <-time.After(30 * time.Second):
		t.Fatal("tally serve never said where it serves")
	}
	addr := url[len("http://") : len(url)-1]

	attacker := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}, Timeout: 2 * time.Second}
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range n {
		c, err := attacker.Dial("tcp", addr)
		if err != nil {
			continue // the backlog of a starved server is full: part of the attack
		}
		conns = append(conns, c)
		switch i % 3 {
		case 1:
			fmt.Fprintf(c, "GET /api/sessions HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		case 2:
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Length: 1000000\r\n\r\nx", addr)
		}
	}

	req, _ := http.NewRequest(http.MethodGet, url+"api/sessions", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("authorised request with %d connections held open: %v", len(conns), err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("authorised request: %d", resp.StatusCode)
	}
}
