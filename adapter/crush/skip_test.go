package crush

import "testing"

func TestAdapter_SkipDir_KeepsProjectsAndTheirCrushDirs(t *testing.T) {
	a := New(Options{Roots: []string{"/src"}})
	for dir, want := range map[string]bool{
		"/src/app": false, "/src/app/.crush": false, "/src/app/node_modules": true, "/src/app/.git": true, "/src/app/vendor": true,
	} {
		if got := a.SkipDir("/src", dir); got != want {
			t.Errorf("SkipDir(%s) = %v, want %v", dir, got, want)
		}
	}
}
