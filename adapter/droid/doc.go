// Package droid reads the session logs of Factory's Droid CLI: one JSON
// Lines file per session under <home>/sessions/<cwd slug>/<id>.jsonl (or
// sessions/<id>.jsonl for a session with no folder, sessions/btw/ for a
// side question), where <home> is ~/.factory, or $FACTORY_HOME_OVERRIDE/
// .factory.
//
// What it promises:
//
//   - The list shown is the session's latest todo_state line: Droid
//     writes one after every TodoWrite call it ran, holding the whole list
//     it parsed from the model's text ({"todos":{"todos":[{id, status,
//     content, priority}]}}), and reads the latest back as its own list
//     when a session resumes (getLatestTodoState). So Tally never parses the
//     model's TodoWrite text itself: what Droid made of it is the list.
//   - The session's folder, title and id come from its session_start line;
//     a title Droid took from the first prompt (isSessionTitleManuallySet
//     false) is weak.
//   - Progress markers are read from the assistant's text.
//   - Activity (last time, whose turn) is read from the newest lines only
//     (tally.Recenter): a user message or a tool call is work, an
//     assistant reply with no tool call, or the turn's outcome, hands the
//     turn back (asking when the reply ends on a question).
//   - A line not shaped like a JSON object, or a selected line that does
//     not parse, returns a *tally.Error (CodeInvalid) and changes nothing.
//
// Why it is shaped so: most lines are messages with large tool results;
// a line's type is its first key, so Line parses only session_start and
// todo_state lines, and an assistant message only when it may hold a
// marker.
package droid
