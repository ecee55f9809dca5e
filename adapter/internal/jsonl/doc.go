// Package jsonl holds what the adapters of JSON Lines logs share before
// any parsing: the shape every line of such a log has, the words a line
// without it (or one the parser refuses) is reported in, the same for
// every agent, and where a JSON value in it ends (so that a value's bytes
// can be taken as written, to fingerprint a tool call, without parsing the
// line).
package jsonl
