// Package openhands reads the conversations the OpenHands CLI keeps, one
// folder each, <conversations>/<conversation id, hex>/, written by the
// OpenHands software agent SDK: TASKS.json (the task tracker's list),
// base_state.json (the conversation's state) and events/ (not read).
//
// The CLI cannot be installed here (a Python package); this is read from
// its published source (OpenHands/software-agent-sdk, OpenHands/
// OpenHands-CLI). What it promises:
//
//   - The list is TASKS.json: the task_tracker tool's `plan` command
//     replaces the whole list and writes it there ([{title, notes,
//     status}], statuses todo, in_progress, done), and the tool reads it
//     back from there when the conversation resumes.
//   - base_state.json gives the working folder (workspace.working_dir)
//     and whose turn it is (execution_status: running is work,
//     waiting_for_confirmation asks, the others hand the turn back).
//   - Neither file holds a time: each is dated by its modification time,
//     when the SDK last saved it.
package openhands
