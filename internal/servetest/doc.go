// Package servetest runs real `tally serve` processes for tests that need
// several of them — replicas on one PostgreSQL database — and reads their
// event streams the way a browser's EventSource does.
//
// What it promises: a Replica has a home of its own holding no agent's
// sessions and an environment with nothing of the machine's agents, so a
// test sees only what it put in the database; it serves on a free
// loopback port, and is stopped when the test ends (or killed, by Kill,
// as a crash would). RSS reads the process's resident memory and CPU
// the processor time it used, for benchmarks.
package servetest
