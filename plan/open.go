package plan

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/internal/safefile"
)

// A plan folder is in a repository, and a repository may be hostile: it
// can commit ledger.jsonl as a link to ~/.bashrc, docs/por as a link to
// another folder, a FIFO for task.yaml. Every plan file is reached through
// open: the folder must lie inside its project, every folder from the
// project down to it is opened without following a link and must be the
// user's and no other user's to write in, and every file is opened in it
// without following a link or waiting, and must be a regular file of the
// user's (package safefile). Anything else is refused, never read or
// written through.

// root is the project the folder must lie inside: Root, else the folder's
// parent.
func (f Folder) root() string {
	if f.Root != "" {
		return f.Root
	}
	return filepath.Dir(filepath.Clean(f.Dir))
}

// open opens the plan folder; create makes it (and the folders above it,
// up to the project) when it is missing. A missing folder is CodeNotFound,
// a refused one CodeUnavailable wrapping safefile.ErrRefused.
func (f Folder) open(create bool) (*safefile.Dir, error) {
	root := f.root()
	rel, ok := safefile.Inside(root, f.Dir)
	if !ok {
		return nil, refusal("open plan", &safefile.RefusedError{Path: f.Dir, Reason: "is outside its project " + root})
	}
	d, err := safefile.OpenDir(root, rel, create)
	switch {
	case err == nil:
		return d, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, tally.Errorf(tally.CodeNotFound, "open plan", "no plan folder %s", f.Dir)
	case errors.Is(err, safefile.ErrRefused):
		return nil, refusal("open plan", err)
	}
	return nil, &tally.Error{Code: tally.CodeUnavailable, Op: "open plan", Err: err}
}

// refusal is the error of a plan folder, or a file in it, that Tally will
// not touch: CodeUnavailable, saying why (see Refused).
func refusal(op string, err error) error {
	return &tally.Error{Code: tally.CodeUnavailable, Op: op, Err: err}
}

// Usable tells whether the plan folder is there and is one Tally reads
// and writes (see open): not missing, not refused.
func (f Folder) Usable() bool {
	d, err := f.open(false)
	if err != nil {
		return false
	}
	d.Close()
	return true
}

// Refused tells whether err is a refusal to touch a plan folder or one of
// its files (a link, a FIFO, a device, another user's file, a folder other
// users can write to, a folder outside its project), as opposed to a
// failure that may pass.
func Refused(err error) bool { return errors.Is(err, safefile.ErrRefused) }

// readFile reads a plan file in d, refusing one larger than MaxFileSize.
func readFile(d *safefile.Dir, name string) ([]byte, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("the file has more than the %d bytes a plan file may have", MaxFileSize)
	}
	return data, nil
}

// problemOf is a refused or unreadable file as a plan problem: its message
// without the path, which the problem gives.
func problemOf(name string, err error) Problem {
	var re *safefile.RefusedError
	if errors.As(err, &re) {
		return Problem{Path: name, Msg: re.Reason + ": Tally does not read or write it"}
	}
	return Problem{Path: name, Msg: err.Error()}
}
