// Package detect tells, from what a session has been doing lately, whether
// it needs a person: it is waiting for input, has stalled, is looping, makes
// no progress, is blocked, or has finished.
//
// What it promises:
//
//   - Pure and deterministic. Observations come in with their own times
//     (Observe); flags come out for a time the caller gives (Flags). There
//     is no clock inside, no goroutine, no I/O: replaying the same
//     observations gives the same flags.
//   - Bounded. A session's State is a fixed-size value — the last two tool
//     call fingerprints, a few counters and times — whatever the length of
//     the session; it marshals to JSON so that it can be stored beside the
//     session and picked up after a restart. Counters saturate rather than
//     wrap.
//   - One observation costs O(1) time and no allocation.
//
// The rules (Rules holds the thresholds; zero turns one off):
//
//   - stalled: the agent is mid-turn (its last word was work: output, a tool
//     call, a prompt) and nothing new has come for StalledAfter. Output that
//     keeps flowing — a long test run printing as it goes — is not a stall.
//     A session silent past EndedAfter is over, not stalled.
//   - looping: the same tool call (same fingerprint) LoopRepeats times in a
//     row, or two calls alternating A-B-A-B until each has come LoopRepeats
//     times. Only tool calls count toward a run; the output between them
//     does not break it.
//   - no_progress: NoProgressCalls tool calls since the list last changed,
//     while the list has items left to do.
//   - needs_input: the agent asked for the person (a notification, a
//     permission request, a turn that ended on a question). It clears when
//     work resumes after it.
//   - blocked: the agent cannot go on, as tally.Blocked says: it said so
//     (a "blocked" progress marker, an item it set blocked), its item in
//     progress waits on an open one, or nothing is in progress and every
//     item left waits. An item waiting its turn behind another is order,
//     not trouble.
//   - finished: the list has items and all of them are done. An emptied
//     list (some agents clear a finished list) says nothing new.
//
// Each flag carries the time it became true; a flag that stays true keeps
// that time.
package detect
