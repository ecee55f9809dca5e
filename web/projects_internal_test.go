package web

import (
	"fmt"
	"testing"
)

func TestProjectSet_KeepsTheProjectsNamedMostRecently(t *testing.T) {
	ps := newProjectSet("/home/dev")
	ps.add("/srv/kept/work")
	for i := range maxProjects + 10 {
		ps.add(fmt.Sprintf("/tmp/run-%d/work", i))
		ps.add("/srv/kept/work") // a project that keeps working
	}
	if n := len(ps.paths()); n != maxProjects {
		t.Fatalf("%d projects kept, want at most %d", n, maxProjects)
	}
	if _, ok := ps.last["/tmp/run-0/work"]; ok {
		t.Error("the project named least recently was kept")
	}
	if _, ok := ps.last["/srv/kept/work"]; !ok {
		t.Error("a project named on every change was forgotten")
	}
}
