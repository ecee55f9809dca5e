// Package e2e drives the real tally binary the way a user does, against
// real agent captures. It holds the tests that need a whole process: a
// kill -9 in the middle of a scan, a restart, the exact state afterwards.
package e2e
