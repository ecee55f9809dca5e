package tail

import (
	"os"
	"path/filepath"
	"sync"
)

// Names decides the one name Tally reads a directory under, when links
// give it several (a project folder linked into the agent's home, a link
// back to an ancestor): the first name it was met under, for as long as
// that name still leads to it. The walk and the watcher both ask it, so a
// file has the same path whether a scan finds it or a notification names
// it: notifications name files by the directory watched.
//
// It is safe for concurrent use.
type Names struct {
	mu   sync.Mutex
	byID map[string]string
}

func NewNames() *Names { return &Names{byID: make(map[string]string)} }

// Claim tells whether dir, which stat describes (links followed), is the
// name its directory is read under, making it so if the directory has no
// name yet or its name no longer leads to it.
func (n *Names) Claim(dir string, stat os.FileInfo) bool {
	id := dirID(dir, stat)
	if id == "" {
		return true
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	name, ok := n.byID[id]
	if ok && name != dir {
		if fi, err := os.Stat(name); err == nil && fi.IsDir() && dirID(name, fi) == id {
			return false
		}
	}
	n.byID[id] = dir
	return true
}

// own makes root the name of its directory: an agent's home is always
// read under the name it was given.
func (n *Names) own(root string, stat os.FileInfo) {
	if id := dirID(root, stat); id != "" {
		n.mu.Lock()
		n.byID[id] = root
		n.mu.Unlock()
	}
}

// dirID names the directory itself, whatever the path to it: its device
// and inode where the system has them, else its path with links resolved.
func dirID(dir string, fi os.FileInfo) string {
	if id := identity(fi); id != "" {
		return id
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return ""
	}
	return real
}

// linkedInside tells a link to a file that lies under root: the file is
// read under its own name there, not under the link's too. A link to a
// file elsewhere (a log kept on another disk) is read under the link's
// name.
func linkedInside(root, link string) bool {
	real, err := filepath.EvalSymlinks(link)
	if err != nil {
		return false
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(realRoot, real)
	return err == nil && filepath.IsLocal(rel)
}
