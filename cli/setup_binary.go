package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

// setupBinary is the tally an agent's settings will run, resolved before
// anything is planned: every command tally setup installs names an
// absolute path to an executable file that is there now and will still be
// there tomorrow. notes are what the user should know about it.
//
// With --tally the user names it: a bare name is looked up on PATH, a
// relative path is taken from the working directory, and it must be an
// executable file; in a temporary folder it is kept (the user chose it)
// with a note. Without --tally it is the running program, which is refused
// when it is a throwaway build — in Go's build cache, or in a temporary
// folder (`go run`, a test binary) — since the agent would run hooks that
// vanish once Go trims its cache or the folder is cleaned. Uninstalling
// installs nothing, so it takes any tally.
func (o *setupOptions) setupBinary(agent string) (path string, notes []string, err error) {
	e := &o.env
	if o.opts.Uninstall {
		if o.opts.Tally != "" {
			return o.opts.Tally, nil, nil
		}
		if self, err := executable(e); err == nil {
			return self, nil, nil
		}
		return "tally", nil, nil
	}
	if o.opts.Tally != "" {
		path, err := o.namedBinary(o.opts.Tally)
		if err != nil {
			return "", nil, err
		}
		if where := throwawayPlace(e, path); where != "" {
			notes = append(notes, fmt.Sprintf("%s is in %s: the agent's hooks stop working when it is removed.", path, where))
		}
		return path, notes, nil
	}
	self, err := executable(e)
	if err != nil {
		return "", nil, &usageError{err: fmt.Errorf("cannot tell where this tally is (%v): pass --tally PATH", err)}
	}
	if where := throwawayPlace(e, self); where != "" {
		fmt.Fprint(e.Err, throwawayAdvice(agent, self, where))
		return "", nil, errArgs("not setting " + agent + " up to run a throwaway build of tally (see above)")
	}
	// The same program reached through PATH (a package manager's link,
	// /opt/homebrew/bin/tally → …/Cellar/tally/1.2.0/bin/tally) is the
	// name that survives an upgrade.
	if onPath := lookPath(e, "tally"); onPath != "" && sameFile(onPath, self) {
		self = onPath
	}
	if err := checkExecutable(self); err != nil {
		return "", nil, err
	}
	return self, nil, nil
}

// throwawayAdvice says why setup refused the running program and what to
// do instead.
func throwawayAdvice(agent, self, where string) string {
	return fmt.Sprintf(`%s is in %s:
the agent's hooks and its MCP server would stop working when it is removed.
Install tally, then run setup with the installed one:
  go install ./cmd/tally          (from a clone of Tally; it goes to $(go env GOPATH)/bin)
  tally setup %s
or name the tally the agent should run: tally setup %s --tally PATH
`, self, where, agent, agent)
}

// executable is the running program's absolute path.
func executable(e *Env) (string, error) {
	if e.Executable == nil {
		return "", fmt.Errorf("no executable path")
	}
	p, err := e.Executable()
	if err != nil {
		return "", err
	}
	if p == "" {
		return "", fmt.Errorf("no executable path")
	}
	return filepath.Abs(p)
}

// namedBinary resolves --tally to an absolute path of an executable file.
func (o *setupOptions) namedBinary(name string) (string, error) {
	e := &o.env
	path := name
	switch {
	case !strings.ContainsRune(name, filepath.Separator) && !strings.ContainsRune(name, '/'):
		if path = lookPath(e, name); path == "" {
			return "", &usageError{err: fmt.Errorf("--tally %s: not found on PATH; pass the absolute path of the tally to run", name)}
		}
	case !filepath.IsAbs(name):
		if e.Dir == "" {
			return "", &usageError{err: fmt.Errorf("--tally %s: a relative path, and the working directory is unknown; pass an absolute path", name)}
		}
		path = filepath.Join(e.Dir, name)
	}
	path = filepath.Clean(path)
	if err := checkExecutable(path); err != nil {
		return "", err
	}
	return path, nil
}

// checkExecutable tells whether path is a file this user may run.
func checkExecutable(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return &usageError{err: fmt.Errorf("--tally %s: %w", path, errUnwrapPath(err))}
	case !fi.Mode().IsRegular():
		return &usageError{err: fmt.Errorf("--tally %s: not a file", path)}
	case runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0:
		return &usageError{err: fmt.Errorf("--tally %s: not executable", path)}
	}
	return nil
}

// errUnwrapPath drops the path a *fs.PathError repeats.
func errUnwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// lookPath finds name on the Env's PATH, as the shell would: the first
// executable file of that name; "" when there is none.
func lookPath(e *Env, name string) string {
	for _, dir := range filepath.SplitList(e.Getenv("PATH")) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // "" and relative entries mean the working directory: not a place to install from
		}
		for _, ext := range exeSuffixes() {
			p := filepath.Join(dir, name+ext)
			if checkExecutable(p) == nil {
				return p
			}
		}
	}
	return ""
}

func exeSuffixes() []string {
	if runtime.GOOS == "windows" {
		return []string{".exe", ""}
	}
	return []string{""}
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// goRunDir is the name of the work folder go run and go test build in
// ($GOTMPDIR or the temporary folder: /tmp/go-build123456/b001/exe/).
var goRunDir = regexp.MustCompile(`^go-build[0-9]+$`)

// cachedExe matches the two folders above a program in Go's build cache
// (go run keeps what it builds there since Go 1.24):
// GOCACHE/80/808486e8…(64 hex digits)-d/tally.
var (
	cacheShard = regexp.MustCompile(`^[0-9a-f]{2}$`)
	cachedExe  = regexp.MustCompile(`^[0-9a-f]{64}-d$`)
)

// throwawayPlace says where path lies when that place does not last — Go's
// build cache, go run's work folder, a temporary folder — and "" when it
// is none of them. It reads only names, never a file.
func throwawayPlace(e *Env, path string) string {
	path = realPath(path)
	if dir := filepath.Dir(path); cachedExe.MatchString(filepath.Base(dir)) && cacheShard.MatchString(filepath.Base(filepath.Dir(dir))) {
		return "Go's build cache (" + filepath.Dir(filepath.Dir(dir)) + "), which Go trims"
	}
	for dir := filepath.Dir(path); filepath.Dir(dir) != dir; dir = filepath.Dir(dir) {
		if goRunDir.MatchString(filepath.Base(dir)) {
			return "a work folder of go run or go test (" + dir + "), removed when it exits"
		}
	}
	for _, cache := range goCaches(e) {
		if within(path, cache) {
			return "Go's build cache (" + cache + "), which Go trims"
		}
	}
	for _, tmp := range tempDirs(e) {
		if within(path, tmp) {
			return "a temporary folder (" + tmp + ")"
		}
	}
	return ""
}

// goCaches are where Go keeps its build cache by this Env: $GOCACHE, else
// go-build in the user's cache folder.
func goCaches(e *Env) []string {
	var dirs []string
	if c := e.Getenv("GOCACHE"); filepath.IsAbs(c) {
		dirs = append(dirs, c)
	}
	var user string
	switch runtime.GOOS {
	case "windows":
		user = e.Getenv("LocalAppData")
	case "darwin", "ios":
		if e.Home != "" {
			user = filepath.Join(e.Home, "Library", "Caches")
		}
	default:
		if user = e.Getenv("XDG_CACHE_HOME"); !filepath.IsAbs(user) && e.Home != "" {
			user = filepath.Join(e.Home, ".cache")
		}
	}
	if filepath.IsAbs(user) {
		dirs = append(dirs, filepath.Join(user, "go-build"))
	}
	return dirs
}

// tempDirs are the temporary folders by this Env: $TMPDIR (else /tmp) and
// /var/tmp, $GOTMPDIR; on Windows %TEMP% and %TMP%.
func tempDirs(e *Env) []string {
	var dirs []string
	add := func(d string) {
		if filepath.IsAbs(d) {
			dirs = append(dirs, d)
		}
	}
	if runtime.GOOS == "windows" {
		add(e.Getenv("TEMP"))
		add(e.Getenv("TMP"))
	} else {
		tmp := e.Getenv("TMPDIR")
		if tmp == "" {
			tmp = "/tmp"
		}
		add(tmp)
		add("/var/tmp")
	}
	add(e.Getenv("GOTMPDIR"))
	return dirs
}

// within tells whether path is inside dir (both as the file system
// resolves them: /tmp is /private/tmp on macOS).
func within(path, dir string) bool {
	rel, err := filepath.Rel(realPath(dir), path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// realPath is path with its links resolved, or as it is when that fails.
func realPath(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return filepath.Clean(path)
}
