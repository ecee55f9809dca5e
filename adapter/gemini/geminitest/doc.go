// Package geminitest makes Gemini CLI records for the tests of the
// packages that read them through the Gemini adapter (the indexer, tally
// scan, tally hook): records too big to keep in testdata, written a part
// at a time.
package geminitest
