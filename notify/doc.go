// Package notify calls a person back when a session needs them — it needs
// input, has stalled, is looping or making no progress, is blocked, or has
// finished — and stays quiet otherwise. Messages go to webhooks (Slack,
// Discord, Telegram, or plain JSON) and to the desktop.
//
// What it promises:
//
//   - Publish never blocks. It puts the update on a bounded queue and
//     returns; an update that does not fit is dropped and counted
//     (Stats.Dropped). One goroutine owns the sessions' state; each sink
//     sends from its own goroutine, so a slow or hung receiver delays only
//     itself. Every goroutine ends with the context or Close.
//   - One notification per session per condition, until it changes. The
//     same condition published again is not news; a condition that clears
//     and comes back within the settle time is the same occurrence.
//   - Plan news (PublishPlan): what an agent's progress marker did to its
//     project's plan — a step blocked, a task complete, the plan complete —
//     is news once, as the marker is applied once; opt-in, like list news.
//   - Nothing for history. A condition that began before the notifier
//     started, or a list change older than that, was already so: it is
//     swallowed (Stats.History). So is the first list state of a session
//     begun before the start.
//   - Sub-agents roll up into their parent. A sub-agent's condition is its
//     parent's, told once for the parent ("via" the sub-agent); a sub-agent
//     finishing its part is not news.
//   - Bursts collapse. Events within the burst window of the first go out
//     as one message listing them all; a message lists at most 20 events
//     and counts the rest.
//   - A per-sink rate limit. A message over the limit waits, and whatever
//     piles up meanwhile goes out with it as one message.
//   - Retries for failures that may pass. A webhook answering 5xx or 429,
//     timing out or refusing the connection is retried with exponential
//     backoff (1s, 2s, 4s, … up to 1m, five tries; a Retry-After is
//     honoured); a 4xx is not retried, and is counted (SinkStats.Rejected).
//   - Close sends what is pending, once, and waits; cancelling the context
//     stops at once.
//
// # Webhook payloads
//
// The format is chosen by the URL's host — hooks.slack.com is Slack,
// discord.com/api/webhooks/… is Discord, api.telegram.org is Telegram — or
// given explicitly; anything else gets Tally's JSON:
//
//   - Slack: {"text": title, "blocks": [a header, a mrkdwn section with one
//     "• line" per event]}; &, < and > escaped.
//   - Discord: {"username": "Tally", "content": title, "embeds":
//     [{"description": lines, "color", "timestamp"}], "allowed_mentions":
//     {"parse": []}}; markdown escaped, mentions never ping.
//   - Telegram: POST …/bot<token>/sendMessage {"chat_id", "text",
//     "link_preview_options": {"is_disabled": true}}; plain text.
//   - JSON, for any other host: the shape below.
//
// # The JSON payload
//
// Schema 1. A field may be added; a field's meaning never changes within a
// schema number.
//
//	{
//	  "schema": 1,
//	  "title":  "claude needs your input",
//	  "text":   "the title, then one line per event",
//	  "events": [{
//	    "kind":    "needs_input" | "stalled" | "looping" | "no_progress" |
//	               "blocked" | "finished" | "list_created" | "item_completed" |
//	               "step_blocked" | "task_complete" | "plan_complete",
//	    "since":   "2026-11-22T14:03:00Z",   // when the condition began
//	    "session": {"id", "parent"?, "agent"?, "project"?, "title"?},
//	    "via":     "sub-agent id"?,           // whose condition it is
//	    "done": 2, "total": 5,               // the session's list
//	    "items":   ["…"]?,                   // item_completed: which
//	    "plan":    {"task", "taskName", "step", "reason"}?, // plan news
//	    "text":    "claude · tally · Fix login: needs your input"
//	  }],
//	  "more": 3?                             // events left out
//	}
//
// The desktop sink runs notify-send where it is installed (critical
// urgency when a session needs input or is blocked) and otherwise writes a
// terminal notification escape (OSC 9 or OSC 777) to the writer the
// terminal UI gives it, control characters removed.
package notify
