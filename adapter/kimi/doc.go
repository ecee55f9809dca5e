// Package kimi reads Moonshot's Kimi Code CLI (kimi-cli, Python): each
// session is a folder, <share>/sessions/<md5 of its work folder>/<id>/,
// where <share> is $KIMI_SHARE_DIR or ~/.kimi, holding state.json (the
// session's state, rewritten whole) and wire.jsonl (every event of the
// session, appended).
//
// Kimi CLI cannot be installed here (it is a Python package); this is read
// from its published source (MoonshotAI/kimi-cli 1.49.0). What it
// promises:
//
//   - The list is state.json's todos: SetTodoList {todos: [{title,
//     status}]} saves the whole list there (session.state.todos) and reads
//     it back from there, so the file is the list as Kimi holds it.
//     Statuses pending, in_progress, done.
//   - The title is state.json's custom_title; an archived session is over.
//   - wire.jsonl gives the times (each record's timestamp, seconds since
//     the epoch) and whose turn it is: TurnBegin and every step are work,
//     TurnEnd hands the turn back, an approval or a question asks.
//   - The work folder is read from <share>/kimi.json (work_dirs: each path
//     and, by its md5, its sessions' folder).
//   - A sub-agent's own state is not read.
package kimi
