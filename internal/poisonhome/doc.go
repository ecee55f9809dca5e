// Command poisonhome fills a folder with what a busy developer's home
// holds — every agent's sessions, their settings, Tally's own settings and
// index — so that the test suite can be run with HOME (and the XDG folders
// and every agent's variable) pointing there. A test that reads the user's
// home instead of its own temporary one then sees other sessions and other
// settings, and its counts change; a test that writes there changes a file
// scripts/test compares afterwards.
//
//	go run ./internal/poisonhome DIR
//
// It prints the environment that points at DIR, one NAME=VALUE per line,
// for the script to export. Everything it copies comes from the
// repository's testdata (real captures and the adapters' built databases),
// so it runs from the repository's root.
package main
