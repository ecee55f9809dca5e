package jsonl

import "github.com/tallyhq/tally"

// NotObject is the error for a line of agent's log that has not the shape
// of a JSON object (see Object). Every adapter of a JSON Lines log reports
// it in these words, which are a person's: the agent, where the line is,
// and what is wrong with it — no name of a function.
func NotObject(agent tally.Agent, off int64) error {
	return tally.Errorf(tally.CodeInvalid, string(agent), "line at offset %d is not a JSON object (cut short or garbled?)", off)
}

// NotJSON is the error for a line of agent's log, shaped like an object,
// that the JSON parser refused with err.
func NotJSON(agent tally.Agent, off int64, err error) error {
	return tally.Errorf(tally.CodeInvalid, string(agent), "line at offset %d is not valid JSON: %v", off, err)
}
