package gemini

import (
	"encoding/json"
	"io"
	"path/filepath"
	"strings"

	"github.com/tallyhq/tally/internal/safefile"
)

// projectPath maps a tmp/<projectId> directory back to the project it
// belongs to, "" when nothing on disk says. Chat records hold no cwd; Gemini
// CLI's project registry does:
//   - tmp/<projectId>/.project_root, the ownership marker the registry
//     writes into every slug directory, holds the path;
//   - projects.json maps paths to slugs ({"projects":{"/abs/path":"slug"}}).
//
// Legacy sha256 directory names have neither. Answers are cached: a
// registry entry does not change owner.
func (a *Adapter) projectPath(projectID string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if p, ok := a.projects[projectID]; ok {
		return p
	}
	p := a.readProjectPath(projectID)
	if p != "" {
		a.projects[projectID] = p
	}
	return p
}

// maxRegistryBytes bounds what is read of the registry files.
const maxRegistryBytes = 4 << 20

func (a *Adapter) readProjectPath(projectID string) string {
	if b := readSmall(filepath.Join(a.home, "tmp", projectID, ".project_root")); b != nil {
		if p := strings.TrimSpace(string(b)); p != "" {
			return p
		}
	}
	b := readSmall(filepath.Join(a.home, "projects.json"))
	if b == nil {
		return ""
	}
	var reg struct {
		Projects map[string]string `json:"projects"`
	}
	if json.Unmarshal(b, &reg) != nil {
		return ""
	}
	for path, slug := range reg.Projects {
		if slug == projectID {
			return path
		}
	}
	return ""
}

func readSmall(path string) []byte {
	f, err := safefile.OpenRegular(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxRegistryBytes+1))
	if err != nil || len(b) > maxRegistryBytes {
		return nil
	}
	return b
}
