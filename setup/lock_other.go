//go:build !unix

package setup

// lockFolder: off Unix, tally setup runs do not take turns; the read
// again before the rename still keeps another's change.
func lockFolder(string) (func(), error) { return func() {}, nil }

func syncDir(string) error { return nil }
