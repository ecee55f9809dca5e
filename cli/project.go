package cli

import "github.com/tallyhq/tally/projectname"

// maxProject is the widest a project path is shown in a table.
const maxProject = 24

// projectPath is a project as the detail of one session shows it: whole,
// home as ~ (the line is cut to the screen anyway).
func projectPath(p, home string) string {
	if p == "" {
		return projectname.None
	}
	return projectname.Tilde(p, home)
}
