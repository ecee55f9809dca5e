// Package testhome gives a tally process that a test starts a world of its
// own: the environment it runs with points its home, the XDG folders and
// every agent's folder into a folder of the test's, and carries nothing
// else of the machine's — not the developer's CODEX_HOME, TALLY_DB or
// TALLY_TOKEN — so that what the test counts is what it put there,
// whoever runs it, and nothing of the user's is read or written.
//
// UserWorld names every variable through which Tally finds a user's data;
// the test of this package checks that it is every one Tally reads, and
// scripts/test runs the suite with each of them pointing into a home full
// of other agents' history (internal/poisonhome).
package testhome
