// Package jsonl holds what the adapters of JSON Lines logs share before
// any parsing: the shape every line of such a log has.
package jsonl
