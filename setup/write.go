package setup

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// resolve fills in where e is written (Target: through a link to the file
// it names) and refuses, before anything is written, a file the user made
// read-only: that is the user saying the file is not to be changed.
func (e *Edit) resolve() error {
	target, err := linkTarget(e.Path)
	if err != nil {
		return err
	}
	e.Target = target
	if !e.Changed() {
		return nil
	}
	if fi, err := os.Stat(target); err == nil && fi.Mode().Perm()&0o200 == 0 {
		return fmt.Errorf("%s is read-only (%v): it was made so to be left as it is, and tally setup leaves it; make it writable (chmod u+w) to let setup change it. Nothing was changed", e.Path, fi.Mode().Perm())
	}
	return nil
}

// maxLinks bounds the links followed from a settings file to its target.
const maxLinks = 16

// linkTarget is the file path names once its links are followed: path
// itself when it is no link. A link to a file that does not exist yet
// names that file (it is created where the link points).
func linkTarget(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = filepath.Clean(to)
	}
	return "", fmt.Errorf("%s: more than %d links to follow", path, maxLinks)
}

// Apply writes the changed files of p: each one backed up beside the file
// it replaces, then replaced atomically with its permissions kept — the
// target of a link, not the link. It returns the backups it made, and
// stops at the first failure; files written before it stay written, with
// their backups.
//
// Another writer may change a file between Plan and Apply: the agent
// itself, or another tally setup. Each file is written holding the
// agent's own lock of it where the agent takes one (Claude Code's
// .claude.json), and an flock of its folder that tally setup runs take
// turns on; it is read again under them, the edit made again on what it
// holds now if it changed, and compared once more just before the rename,
// so no one's change is lost.
func Apply(p Plan, now time.Time) (backups []string, err error) {
	for i := range p.Edits {
		e := p.Edits[i]
		if !e.Changed() {
			continue
		}
		b, err := apply(&e, now)
		backups = append(backups, b...)
		if err != nil {
			return backups, err
		}
	}
	return backups, nil
}

// attempts bounds how often a file another writer keeps changing is read
// again.
const attempts = 8

func apply(e *Edit, now time.Time) (backups []string, err error) {
	target := e.Target
	if target == "" {
		target = e.Path
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	unlock, err := lockFolder(dir)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	defer unlock()
	if e.agentLock != "" {
		release, err := takeAgentLock(e.agentLock)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	for range attempts {
		cur, err := readFile(target)
		if err != nil {
			return backups, err
		}
		if !bytes.Equal(cur, e.Before) {
			if e.redo == nil {
				return backups, fmt.Errorf("%s changed while tally setup ran; run it again", e.Path)
			}
			if e.After, e.What, err = e.redo(cur); err != nil {
				return backups, err
			}
			e.Before = cur
			if !e.Changed() {
				return backups, nil
			}
		}
		mode := fs.FileMode(0o600)
		if fi, err := os.Stat(target); err == nil {
			mode = fi.Mode().Perm()
			if mode&0o200 == 0 {
				return backups, fmt.Errorf("%s was made read-only while tally setup ran: left as it is", e.Path)
			}
		}
		tmp, err := writeTemp(dir, filepath.Base(target), e.After, mode)
		if err != nil {
			return backups, err
		}
		// A writer that takes no lock may have written meanwhile: its
		// change must not be renamed over.
		if again, err := readFile(target); err != nil || !bytes.Equal(again, e.Before) {
			os.Remove(tmp)
			if err != nil {
				return backups, err
			}
			continue
		}
		if e.Before != nil {
			b, err := backup(target, e.Before, mode, now)
			if err != nil {
				os.Remove(tmp)
				return backups, fmt.Errorf("backing up %s: %w", target, err)
			}
			backups = append(backups, b)
		}
		if err := os.Rename(tmp, target); err != nil {
			os.Remove(tmp)
			return backups, err
		}
		return backups, syncDir(dir)
	}
	return backups, fmt.Errorf("%s kept changing while tally setup ran (another program writes it): run setup again", e.Path)
}

// backup writes data beside path under a name no earlier backup has.
func backup(path string, data []byte, mode fs.FileMode, now time.Time) (string, error) {
	base := path + ".tally-backup-" + now.UTC().Format("20060102T150405Z")
	for i := 0; ; i++ {
		name := base
		if i > 0 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if os.IsExist(err) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return name, err
	}
}

// writeTemp writes data to a new file in dir, synced, with mode: what is
// renamed over the file base once nothing else changed it.
func writeTemp(dir, base string, data []byte, mode fs.FileMode) (string, error) {
	f, err := os.CreateTemp(dir, "."+base+".tally-*")
	if err != nil {
		return "", err
	}
	fail := func(err error) (string, error) {
		f.Close()
		os.Remove(f.Name())
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(mode); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// Claude Code writes .claude.json holding a lock of its own: the folder
// FILE.lock, made with mkdir (which only one process can), kept fresh
// while held, and taken over when it is older than a while (a holder that
// died). tally setup takes the same lock, so it and Claude Code take
// turns; it holds it for milliseconds.
const (
	// agentLockStale is when another's lock is taken for a dead holder's:
	// Claude Code's own staleness.
	agentLockStale = 30 * time.Second
	// agentLockWait bounds the wait for a lock that is live.
	agentLockWait = 10 * time.Second
)

// takeAgentLock takes the lock folder path as the agent does, and returns
// what releases it.
func takeAgentLock(path string) (release func(), err error) {
	deadline := time.Now().Add(agentLockWait)
	wait := 5 * time.Millisecond
	for {
		err := os.Mkdir(path, 0o700)
		if err == nil {
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("taking the agent's lock %s: %w", path, err)
		}
		if fi, err := os.Lstat(path); err == nil && time.Since(fi.ModTime()) > agentLockStale {
			os.Remove(path) // its holder is gone
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s is held (the agent is writing its settings) for more than %v: try again", path, agentLockWait)
		}
		time.Sleep(wait)
		wait = min(2*wait, 100*time.Millisecond)
	}
}
