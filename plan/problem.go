package plan

import (
	"fmt"
	"sort"
	"strings"
)

// Problem is one thing wrong with one file of the plan folder, at a line
// (1-based; 0 when the whole file is meant).
type Problem struct {
	Path string `json:"path"`
	Line int    `json:"line,omitempty"`
	Msg  string `json:"message"`
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.Path, p.Line, p.Msg)
	}
	return p.Path + ": " + p.Msg
}

// Problems are every problem found in a file (or folder), in line order.
// As an error it reads like a compiler's: one "path:line: message" a line.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

func (ps Problems) sorted() Problems {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Path != ps[j].Path {
			return ps[i].Path < ps[j].Path
		}
		return ps[i].Line < ps[j].Line
	})
	return ps
}

// problems collects the problems of one file.
type problems struct {
	path string
	list Problems
}

func (p *problems) add(line int, format string, args ...any) {
	p.list = append(p.list, Problem{Path: p.path, Line: line, Msg: fmt.Sprintf(format, args...)})
}
