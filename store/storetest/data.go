package storetest

import (
	"fmt"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
)

// t0 is a fixed instant with nanoseconds, in UTC: what goes in must come
// back to the nanosecond.
var t0 = time.Date(2026, 11, 3, 14, 5, 6, 123456789, time.UTC)

func at(minutes int) time.Time { return t0.Add(time.Duration(minutes) * time.Minute) }

func ptr[T any](v T) *T { return &v }

// fullFile is a FileState with every field set the way the fold sets them:
// todos and tasks with dependencies, applied tool-use ids, early ids, a
// sub-agent list, markers, and decoder bytes that are not text.
func fullFile(path, session string, gen int) *tally.FileState {
	main := &tally.List{
		Todos: []tally.Item{
			{Title: "Read the spec", ActiveForm: "Reading the spec", Status: tally.StatusCompleted, Source: tally.SourceTodo},
			{Title: "Write the store", ActiveForm: "Writing the store", Status: tally.StatusInProgress, Source: tally.SourceTodo},
			{Title: "Ask about ü and 日本", Status: tally.StatusUnknown, RawStatus: "someday", Source: tally.SourceTodo, Lossy: true},
		},
		Tasks: []tally.Task{
			{Item: tally.Item{ID: "1", Title: "Schema", Description: "tables and indexes", Status: tally.StatusCompleted,
				Owner: "main", Blocks: []string{"2"}, Source: tally.SourceTask, Priority: "high"}, ToolUseID: "toolu_01"},
			{Item: tally.Item{ID: "2", Title: "Queries", Status: tally.StatusPending, BlockedBy: []string{"1"},
				Source: tally.SourceTask}, ToolUseID: "toolu_02"},
		},
		Seen:      []string{"s:toolu_00", "c:toolu_01", "c:toolu_02"},
		Early:     []tally.EarlyID{{ToolUseID: "toolu_07", ID: "7"}},
		Orphans:   2,
		UpdatedAt: at(gen),
	}
	sub := &tally.List{
		Todos:     []tally.Item{{Title: "Sub-agent step", Status: tally.StatusFailed, Source: tally.SourceTodo}},
		UpdatedAt: at(gen - 1),
	}
	return &tally.FileState{
		Path: path, Agent: claude.Agent, Session: session,
		Offset:   int64(1000 + gen),
		Identity: "dev=2049,ino=1234567", Head: 1<<64 - 1,
		Project: "/home/ana/src/tally", Title: fmt.Sprintf("Build the store (gen %d)", gen), TitleWeak: true,
		StartedAt: at(-60), LastAt: at(gen), Signal: tally.SignalWaiting,
		Lists:   map[string]*tally.List{"": main, "agent-a1b2": sub},
		Markers: []tally.Marker{{Task: "T001", Step: "S1", Verb: "done"}, {Task: "T002", Verb: "blocked", Reason: "needs review"}},
		Decoder: []byte{0, 1, 2, 0xff, '\n', '"'},
		Stats:   tally.Stats{Files: 1, Bytes: 1 << 40, Lines: 99, Parsed: 12, Malformed: 3, Orphans: 2, Resets: 1},
		Current: true, Writers: []string{"sess-w1", "sess-w2"}, TasksIn: "greet-team",
	}
}

// fullRecord is a Record with every field set, as tally.Merge builds them.
func fullRecord(id string, agent tally.Agent, project string, last time.Time) tally.Record {
	return tally.Record{
		ID: id, Agent: agent, Project: project, Title: "Session " + id, TitleWeak: true,
		StartedAt: last.Add(-time.Hour), LastActivity: last, Signal: tally.SignalWorking,
		Lists: map[string][]tally.Item{
			"": {
				{ID: "1", Title: "First", Status: tally.StatusCompleted, Blocks: []string{"2"}, Source: tally.SourceTask},
				{ID: "2", Title: "Second", ActiveForm: "Doing the second", Status: tally.StatusInProgress, BlockedBy: []string{"1"}, Source: tally.SourceTask},
			},
			"agent-x": {{Title: "Sub", Status: tally.StatusPending}},
		},
		Markers: []tally.Marker{{Task: "T003", Step: "S2", Verb: "start"}},
		Stats:   tally.Stats{Files: 2, Bytes: 4096, Lines: 40, Parsed: 8, Malformed: 1},
		Shared:  true, Writers: []string{"sess-w1"}, TasksIn: "greet-team",
	}
}
