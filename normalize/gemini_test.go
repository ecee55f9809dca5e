package normalize

import "github.com/tallyhq/tally/adapter/gemini"

// The gemini adapter was written alongside this package; it is wired here,
// in a file of its own, so that a gemini that does not build can be left out
// by removing this file (its golden tests then skip, saying why).
func init() { extraAdapters["gemini"] = gemini.New(gemini.Options{Home: "/nonexistent"}) }
