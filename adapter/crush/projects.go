package crush

import (
	"encoding/json"
	"path/filepath"

	"github.com/tallyhq/tally/internal/safefile"
)

// projectsFile is Crush's index of its projects (since v0.25.0), in its
// global data directory: {"projects": [{path, data_dir, last_accessed}]},
// newest first, one entry per directory Crush ran in.
const projectsFile = "projects.json"

const (
	// maxProjectsFile bounds what is read of projects.json.
	maxProjectsFile = 4 << 20
	// maxProjects bounds the roots it adds (Crush keeps them newest first).
	maxProjects = 500
)

// indexed is one project projects.json names: its data directory (where
// crush.db is) and the directory Crush ran in.
type indexed struct{ dataDir, path string }

// readProjects reads global's projects.json: the projects' data
// directories, absolute and cleaned, each once. A file that is missing,
// not a regular file, too large or not JSON names none; an entry whose
// data directory is not absolute is left out.
func readProjects(global string) []indexed {
	b, err := safefile.ReadRegular(filepath.Join(global, projectsFile), maxProjectsFile)
	if err != nil {
		return nil
	}
	var f struct {
		Projects []struct {
			Path    string `json:"path"`
			DataDir string `json:"data_dir"`
		} `json:"projects"`
	}
	if json.Unmarshal(b, &f) != nil {
		return nil
	}
	var out []indexed
	seen := map[string]bool{}
	for _, p := range f.Projects {
		if len(out) == maxProjects {
			break
		}
		if !filepath.IsAbs(p.DataDir) {
			continue
		}
		d := filepath.Clean(p.DataDir)
		if seen[d] {
			continue
		}
		seen[d] = true
		path := ""
		if filepath.IsAbs(p.Path) {
			path = filepath.Clean(p.Path)
		}
		out = append(out, indexed{dataDir: d, path: path})
	}
	return out
}
