package pgtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrNotInstalled is returned by Start when no PostgreSQL server binaries
// are found.
var ErrNotInstalled = errors.New("PostgreSQL is not installed: run scripts/deps-postgres " +
	"(apt-get install postgresql), or set TALLY_PG_BIN to the folder holding initdb and postgres")

// Superuser is the role initdb creates; connections over the socket are
// trusted.
const Superuser = "postgres"

// Options configure Start.
type Options struct {
	// Durable keeps PostgreSQL's defaults (fsync on); otherwise the server
	// does not sync to disk.
	Durable bool
	// Settings are more server settings (name → value), given as -c.
	Settings map[string]string
}

// Server is a running PostgreSQL cluster in a temporary folder.
type Server struct {
	dir    string // the folder: data/, the socket, server.log
	port   int
	cmd    *exec.Cmd
	exited chan struct{}
	werr   error // the server's exit, once exited is closed
}

const (
	startTimeout = 60 * time.Second
	stopTimeout  = 15 * time.Second
)

// Start runs initdb in a new temporary folder and starts the server on a
// unix socket there. Stop removes everything.
func Start(ctx context.Context, o Options) (*Server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	cred, err := serverUser()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "tally-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, exited: make(chan struct{})}
	if err := s.start(ctx, bin, cred, o); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

func (s *Server) start(ctx context.Context, bin string, cred *syscall.Credential, o Options) error {
	if cred != nil {
		if err := os.Chown(s.dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return fmt.Errorf("pgtest: giving %s to the postgres user: %w", s.dir, err)
		}
	}
	data := filepath.Join(s.dir, "data")
	initdb := exec.CommandContext(ctx, filepath.Join(bin, "initdb"), "-D", data, "-U", Superuser,
		"-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
	initdb.Dir = s.dir
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		return fmt.Errorf("pgtest: initdb: %v\n%s", err, out)
	}

	s.port = 20000 + rand.IntN(40000) // names the socket; nothing listens on TCP
	args := []string{"-D", data, "-k", s.dir, "-p", strconv.Itoa(s.port),
		"-c", "listen_addresses=", "-c", "max_connections=300", "-c", "shared_buffers=32MB"}
	settings := map[string]string{}
	if !o.Durable {
		settings = map[string]string{"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
	}
	for k, v := range o.Settings {
		settings[k] = v
	}
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		args = append(args, "-c", k+"="+settings[k])
	}
	log, err := os.Create(filepath.Join(s.dir, "server.log"))
	if err != nil {
		return err
	}
	defer log.Close()
	if cred != nil {
		if err := log.Chown(int(cred.Uid), int(cred.Gid)); err != nil {
			return err
		}
	}
	s.cmd = exec.Command(filepath.Join(bin, "postgres"), args...)
	s.cmd.Dir = s.dir
	s.cmd.Stdout, s.cmd.Stderr = log, log
	// SIGQUIT is PostgreSQL's immediate shutdown: if the test process dies
	// without stopping it, the server follows at once.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT}
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("pgtest: starting postgres: %w", err)
	}
	go func() {
		s.werr = s.cmd.Wait()
		close(s.exited)
	}()
	return s.waitReady(ctx)
}

// waitReady connects until the server answers, it exits, or time is up.
func (s *Server) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	for {
		conn, err := pgx.Connect(ctx, s.URL("postgres"))
		if err == nil {
			return conn.Close(ctx)
		}
		select {
		case <-s.exited:
			return fmt.Errorf("pgtest: postgres exited (%v):\n%s", s.werr, s.Log())
		case <-ctx.Done():
			return fmt.Errorf("pgtest: postgres did not accept connections within %v (%v):\n%s", startTimeout, err, s.Log())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// URL is the connection URL of database db, over the unix socket.
func (s *Server) URL(db string) string {
	q := url.Values{"host": {s.dir}, "port": {strconv.Itoa(s.port)}}
	return "postgres://" + Superuser + "@/" + url.PathEscape(db) + "?" + q.Encode()
}

// Log is what the server wrote to its log so far.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "server.log"))
	return string(b)
}

// Stop shuts the server down (fast shutdown: open connections are ended)
// and removes its folder.
func (s *Server) Stop() error {
	var err error
	if s.cmd != nil && s.cmd.Process != nil {
		_ = s.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-s.exited:
		case <-time.After(stopTimeout):
			_ = s.cmd.Process.Kill()
			<-s.exited
			err = fmt.Errorf("pgtest: postgres did not stop within %v; killed", stopTimeout)
		}
	}
	return errors.Join(err, os.RemoveAll(s.dir))
}

// binDir finds the folder of initdb and postgres.
func binDir() (string, error) {
	if d := os.Getenv("TALLY_PG_BIN"); d != "" {
		if !hasServer(d) {
			return "", fmt.Errorf("TALLY_PG_BIN=%s holds no initdb and postgres: %w", d, ErrNotInstalled)
		}
		return d, nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil && hasServer(filepath.Dir(real)) {
			return filepath.Dir(real), nil
		}
	}
	// Debian keeps each major version's server off PATH.
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if hasServer(d) {
			return d, nil
		}
	}
	return "", ErrNotInstalled
}

func hasServer(dir string) bool {
	for _, name := range []string{"initdb", "postgres"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.IsDir() {
			return false
		}
	}
	return true
}

// version is the major version in /usr/lib/postgresql/N/bin.
func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

// serverUser is who runs initdb and the server: nil (this process's user),
// or when this process is root, the user postgres.
func serverUser() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("pgtest: running as root, and initdb refuses root: a user named postgres is needed "+
			"to run the server (the Debian package creates it: scripts/deps-postgres): %w", err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("pgtest: user postgres: %w", err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}, nil
}

// quoteIdent quotes a name for SQL.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}
