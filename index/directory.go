package index

import (
	"context"

	"github.com/tallyhq/tally"
)

// readDirectory reads a list kept as a directory of files whole, and folds
// it from scratch: what its files hold now is the list (FileState.Current),
// so detection, which follows a history, is not fed; the markers its files
// hold are read as any file's.
// The links found to other sessions (Writers, and the project taken from
// them) are the indexer's, not the files': they carry over.
func (ix *Indexer) readDirectory(ctx context.Context, j job, dr tally.DirectoryReader, res result) result {
	e := j.e
	events, diags, err := dr.ReadDirectory(ctx, e.st.Path)
	if err != nil {
		res.err = err
		return res
	}
	old := e.st
	st := &tally.FileState{
		Path: old.Path, Agent: old.Agent, Session: old.Session, Current: true, Now: old.Now,
		Identity: j.file.Identity, Offset: j.file.Size,
		Project: old.Project, Writers: old.Writers,
	}
	files := int64(len(diags))
	seen := ix.observe(st, "", false)
	for _, ev := range events {
		st.Apply(ev)
		if ev.Kind == tally.EventTaskResync {
			files += int64(len(ev.Items))
		}
	}
	res.markers = seen.done(st)
	// The directory is read whole each time, so all of it counts to this
	// round: its files as lines, their bytes, its bad files.
	st.Stats = tally.Stats{Lines: files, Parsed: files, Bytes: j.file.Size, Malformed: int64(len(diags)), Resets: old.Stats.Resets}
	res.before = tally.Stats{}
	res.diags = diags
	e.st = st
	res.changed = true
	return res
}
