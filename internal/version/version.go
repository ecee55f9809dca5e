package version

import (
	"runtime/debug"
)

// version is set when linking a release:
//
//	go build -ldflags "-X github.com/tallyhq/tally/internal/version.version=v1.2.0" ./cmd/tally
var version string

// String is this build's version: the one set at link time; else the
// module version Go recorded (`go install …/cmd/tally@v1.2.0`); else
// "devel", with the commit when the build recorded one.
func String() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return fromBuildInfo(bi)
}

func fromBuildInfo(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev == "" {
		return "devel"
	}
	return "devel+" + rev[:min(len(rev), 12)] + dirty
}
