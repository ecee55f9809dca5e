package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tallyhq/tally/internal/servetest"
	"github.com/tallyhq/tally/internal/testhome"
	"github.com/tallyhq/tally/store/postgres/pgtest"
)

// proxy is a TCP forwarder the test controls: it stands for the network
// between a developer's machine and the team's load balancer. Cut closes
// every connection and refuses new ones until Restore; Target sends new
// connections elsewhere (a load balancer taking a dead replica out).
type proxy struct {
	ln net.Listener

	mu     sync.Mutex
	target string
	down   bool
	conns  map[net.Conn]bool
	cuts   int
}

func newProxy(t *testing.T, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target, conns: map[net.Conn]bool{}}
	go p.serve()
	t.Cleanup(func() { ln.Close(); p.Cut() })
	return p
}

func (p *proxy) URL() string { return "http://" + p.ln.Addr().String() + "/" }

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		down, target := p.down, p.target
		if !down {
			p.conns[c] = true
		}
		p.mu.Unlock()
		if down {
			c.Close()
			continue
		}
		go p.pipe(c, target)
	}
}

func (p *proxy) pipe(c net.Conn, target string) {
	defer func() {
		p.mu.Lock()
		delete(p.conns, c)
		p.mu.Unlock()
		c.Close()
	}()
	up, err := net.DialTimeout("tcp", target, 5*time.Second)
	if err != nil {
		return
	}
	p.mu.Lock()
	p.conns[up] = true
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.conns, up)
		p.mu.Unlock()
		up.Close()
	}()
	done := make(chan struct{}, 2)
	go func() { io.Copy(up, c); done <- struct{}{} }()
	go func() { io.Copy(c, up); done <- struct{}{} }()
	<-done
}

// Cut closes every connection through the proxy, in the middle of
// whatever they carry, and refuses new ones.
func (p *proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	p.cuts++
	for c := range p.conns {
		c.Close()
	}
}

func (p *proxy) Restore() {
	p.mu.Lock()
	p.down = false
	p.mu.Unlock()
}

func (p *proxy) Target(addr string) {
	p.mu.Lock()
	p.target = addr
	p.mu.Unlock()
}

func hostOf(t *testing.T, u string) string {
	t.Helper()
	return strings.TrimSuffix(strings.TrimPrefix(u, "http://"), "/")
}

// tokenFor creates a token of scope on the database and returns it (the
// last line tally token create prints); more are tally token create's
// other flags (a push token's --machine). A push token is named after its
// machine; no two tokens share a name.
func tokenFor(t testing.TB, db, scope string, more ...string) string {
	t.Helper()
	args := []string{"token", "create", "--scope", scope, "--db", db}
	if scope != "push" {
		args = append(args, "--name", scope+"-e2e")
	}
	args = append(args, more...)
	cmd := exec.Command(tallyBin, args...)
	cmd.Env = testhome.Environ(t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tally token create: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}

// growingHome is a Claude Code home whose sessions are real captures
// written a part at a time, as an agent writes them.
type growingHome struct {
	dir   string
	files []string   // where each session is written
	rest  [][][]byte // the lines each has yet to get
}

// newGrowingHome writes n copies of real captures, each its own session,
// with the first half of their lines.
func newGrowingHome(t testing.TB, n int) *growingHome {
	t.Helper()
	old, _ := filepath.Glob(fixtures + "claude/*.jsonl")
	captured, _ := filepath.Glob(fixtures + "captured/claude-code-2.1.330/*/config/projects/*/*.jsonl")
	srcs := append(old, captured...)
	h := &growingHome{dir: t.TempDir()}
	for i := range n {
		data, err := os.ReadFile(srcs[i%len(srcs)])
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		half := len(lines) / 2
		dir := filepath.Join(h.dir, "projects", fmt.Sprintf("-work-team%d", i%3))
		os.MkdirAll(dir, 0o755)
		path := filepath.Join(dir, fmt.Sprintf("%s-team%d.jsonl", strings.TrimSuffix(filepath.Base(srcs[i%len(srcs)]), ".jsonl"), i))
		if err := os.WriteFile(path, bytes.Join(lines[:half], nil), 0o644); err != nil {
			t.Fatal(err)
		}
		h.files = append(h.files, path)
		h.rest = append(h.rest, lines[half:])
	}
	return h
}

// grow appends up to k more lines to every session; it reports whether
// any line was left to write.
func (h *growingHome) grow(t testing.TB, k int) bool {
	t.Helper()
	more := false
	for i, path := range h.files {
		take := min(k, len(h.rest[i]))
		if take == 0 {
			continue
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.Write(bytes.Join(h.rest[i][:take], nil))
		f.Close()
		h.rest[i] = h.rest[i][take:]
		more = more || len(h.rest[i]) > 0
	}
	return more
}

// pusher runs `tally push` as a developer's machine would, in a home of
// its own (no other agent's logs, its own state folder).
type pusher struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	stderr strings.Builder
	exited chan struct{}
}

func startPush(t *testing.T, server, token, claudeDir, machine string) *pusher {
	t.Helper()
	return startPushIn(t, t.TempDir(), server, token, claudeDir, machine)
}

// startPushIn is startPush in home: its store is home/local.db.
func startPushIn(t *testing.T, home, server, token, claudeDir, machine string) *pusher {
	t.Helper()
	cmd := exec.Command(tallyBin, "push", "--server", server, "--machine", machine, "--user", "dev-"+machine,
		"--claude-dir", claudeDir, "--db", filepath.Join(home, "local.db"))
	cmd.Env = testhome.Environ(home, "TALLY_TOKEN="+token, "XDG_STATE_HOME="+filepath.Join(home, "state"))
	p := &pusher{cmd: cmd, exited: make(chan struct{})}
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			p.mu.Lock()
			p.stderr.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
		}
		cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-p.exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

func (p *pusher) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// teamSession is what the comparison looks at of a session: its facts and
// its lists, not what depends on the clock.
type teamSession struct {
	ID, Agent, Project, Title string
	StartedAt, LastActivity   time.Time
	Machine, User             string
	Items                     []teamItem
	SubAgents                 []struct {
		ID    string
		Items []teamItem
	}
}

type teamItem struct{ ID, Title, Status string }

// serverSessions lists the sessions of machine on the server at base.
func serverSessions(t *testing.T, base, token, machine string) ([]teamSession, error) {
	req, _ := http.NewRequest(http.MethodGet, base+"api/sessions?limit=10000&machine="+machine, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %sapi/sessions: %s", base, resp.Status)
	}
	var list struct{ Sessions []teamSession }
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		return nil, err
	}
	return list.Sessions, nil
}

// localScan is a clean scan of the home on this machine: what the team's
// server must end up holding.
func localScan(t *testing.T, claudeDir string) []teamSession {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(tallyBin, "sessions", "--scan", "--json", "--claude-dir", claudeDir, "--db", filepath.Join(home, "clean.db"))
	cmd.Env = testhome.Environ(home, "XDG_STATE_HOME="+filepath.Join(home, "state"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("a local scan: %v", err)
	}
	var list []teamSession
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatal(err)
	}
	return list
}

// sameAsLocal says how the server's sessions differ from a local scan's,
// "" when they do not: the same sessions, once each, with the same lists,
// each stamped with the machine. A session's start is left out: for a log
// read in several parts the Claude adapter dates it from the lines its
// reads met, which can differ from one read of the whole (the adapter's
// to settle; a log read once, as every local scan here is, is stable).
func sameAsLocal(server, local []teamSession, machine string) string {
	byID := map[string]teamSession{}
	for _, s := range server {
		if _, dup := byID[s.ID]; dup {
			return "session " + s.ID + " shows twice"
		}
		if s.Machine != machine || s.User != "dev-"+machine {
			return fmt.Sprintf("session %s came from %s/%s, not %s", s.ID, s.Machine, s.User, machine)
		}
		byID[s.ID] = s
	}
	if len(server) != len(local) {
		return fmt.Sprintf("the server has %d sessions of the machine, a local scan %d", len(server), len(local))
	}
	for _, l := range local {
		s, ok := byID[l.ID]
		if !ok {
			return "session " + l.ID + " is missing"
		}
		s.Machine, s.User = "", ""
		s.StartedAt, l.StartedAt = time.Time{}, time.Time{}
		a, _ := json.Marshal(s)
		b, _ := json.Marshal(l)
		if !bytes.Equal(a, b) {
			return fmt.Sprintf("session %s differs:\nserver %s\nlocal  %s", l.ID, a, b)
		}
	}
	return ""
}

// TestTeam_PushToOneReplicaShowsOnAnother is the end-to-end test
// of team mode: two `tally serve` replicas on one PostgreSQL database, with
// tokens; `tally push` from a home of real captures, through a network
// the test controls, to replica A. The sessions appear on an event stream
// of replica B. While the agents go on writing, A is killed (B keeps
// serving; A's browser reconnects to B, and the pusher's load balancer
// sends it to B too), then the pusher's connection is cut mid-stream and
// restored. In the end the sessions and lists on the server equal a local
// scan of the same home, nothing doubled.
func TestTeam_PushToOneReplicaShowsOnAnother(t *testing.T) {
	db := pgtest.DB(t)
	pushToken, readToken := tokenFor(t, db, "push", "--machine", "ana-laptop"), tokenFor(t, db, "read")
	a := servetest.Start(t, tallyBin, db)
	b := servetest.Start(t, tallyBin, db)
	link := newProxy(t, hostOf(t, a.URL))
	home := newGrowingHome(t, 9)

	onB := watchTeam(t, b.URL, "", readToken)
	onA := watchTeam(t, a.URL, "", readToken)
	p := startPush(t, link.URL(), pushToken, home.dir, "ana-laptop")
	onB.waitSessions(t, len(home.files), "the first half of every session, pushed to A, on B's board")

	// The agents go on writing; A dies in the middle.
	home.grow(t, 5)
	home.grow(t, 5)
	a.Kill()
	select {
	case <-onA.ended:
	case <-time.After(10 * time.Second):
		t.Fatal("A's stream goes on after A was killed")
	}
	link.Target(hostOf(t, b.URL)) // the load balancer takes A out
	moved := watchTeam(t, b.URL, onA.last(), readToken)
	home.grow(t, 5)
	// The network between the machine and the servers goes, mid-stream.
	time.Sleep(50 * time.Millisecond)
	link.Cut()
	home.grow(t, 10)
	time.Sleep(700 * time.Millisecond)
	link.Restore()
	for home.grow(t, 20) {
		time.Sleep(20 * time.Millisecond)
	}

	want := localScan(t, home.dir)
	deadline := time.Now().Add(60 * time.Second)
	for {
		got, err := serverSessions(t, b.URL, readToken, "ana-laptop")
		diff := "not read"
		if err == nil {
			diff = sameAsLocal(got, want, "ana-laptop")
		}
		if diff == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server never matched a local scan: %s (%v)\npusher:\n%s", diff, err, p.log())
		}
		time.Sleep(100 * time.Millisecond)
	}
	// What the boards show agrees: B's own, and A's reconnected to B.
	for name, bd := range map[string]*teamBoard{"B's board": onB, "A's board, reconnected to B": moved} {
		bd.waitEqual(t, want, name)
	}
	if _, snaps := moved.counts(); snaps != 1 {
		t.Errorf("A's board reconnected to B got %d snapshots, want 1", snaps)
	}
	if !strings.Contains(p.log(), "retrying") {
		t.Errorf("the pusher never had to retry: the cut tested nothing\n%s", p.log())
	}
}

// teamBoard follows one browser's event stream and keeps the sessions of
// the team it shows.
type teamBoard struct {
	mu        sync.Mutex
	sessions  map[string]teamSession
	lastID    string
	snapshots int
	changed   chan struct{}
	ended     chan struct{}
}

func watchTeam(t *testing.T, base, lastID, token string) *teamBoard {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s, err := servetest.DialToken(ctx, base, lastID, token)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	bd := &teamBoard{sessions: map[string]teamSession{}, lastID: lastID, changed: make(chan struct{}, 1), ended: make(chan struct{})}
	go func() {
		defer close(bd.ended)
		for {
			ev, err := s.Next()
			if err != nil {
				return
			}
			bd.apply(ev)
		}
	}()
	t.Cleanup(func() { cancel(); s.Close(); <-bd.ended })
	return bd
}

func (bd *teamBoard) apply(ev servetest.Event) {
	var list []teamSession
	switch ev.Type {
	case "snapshot":
		var snap struct{ Sessions []teamSession }
		json.Unmarshal(ev.Data, &snap)
		list = snap.Sessions
	case "session_updated":
		var s teamSession
		json.Unmarshal(ev.Data, &s)
		list = []teamSession{s}
	}
	bd.mu.Lock()
	if ev.ID != "" {
		bd.lastID = ev.ID
	}
	if ev.Type == "snapshot" {
		bd.snapshots++
		clear(bd.sessions)
	}
	for _, s := range list {
		if s.Machine != "" {
			bd.sessions[s.ID] = s
		}
	}
	bd.mu.Unlock()
	select {
	case bd.changed <- struct{}{}:
	default:
	}
}

func (bd *teamBoard) last() string {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	return bd.lastID
}

func (bd *teamBoard) counts() (sessions, snapshots int) {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	return len(bd.sessions), bd.snapshots
}

func (bd *teamBoard) list() []teamSession {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	out := make([]teamSession, 0, len(bd.sessions))
	for _, s := range bd.sessions {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func (bd *teamBoard) waitSessions(t *testing.T, n int, what string) {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		if got, _ := bd.counts(); got >= n {
			return
		}
		select {
		case <-bd.changed:
		case <-bd.ended:
			t.Fatalf("%s: the stream ended", what)
		case <-deadline:
			got, _ := bd.counts()
			t.Fatalf("%s: the board shows %d pushed sessions, want %d", what, got, n)
		}
	}
}

func (bd *teamBoard) waitEqual(t *testing.T, want []teamSession, what string) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		diff := sameAsLocal(bd.list(), want, "ana-laptop")
		if diff == "" {
			return
		}
		select {
		case <-bd.changed:
		case <-time.After(200 * time.Millisecond):
		case <-deadline:
			t.Fatalf("%s differs from a local scan: %s", what, diff)
		}
	}
}
