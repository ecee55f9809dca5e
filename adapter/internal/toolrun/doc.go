// Package toolrun is runtime progress for every agent: what a session
// does, told by its tool calls, with a label a person reads as the step
// being worked on ("Running tests", "Editing api.go"), kept in the list
// tally.RuntimeList apart from the model's own checklist. Every adapter
// that reads tool calls and their results makes its events here, so the
// labels and the events are the same for every agent.
//
// A call is a task of the runtime list, its id the agent's call id: Start
// adds it running, End finishes it, completed or failed. The fold keeps the
// list small (tally.MaxRuntime) and counts what it lets go.
package toolrun
