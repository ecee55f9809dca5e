package plan

import "strings"

// Protocol is the block of instructions that tells an agent how to plan
// and report progress so that Tally can keep its plan: written into the
// agent's context (a SessionStart hook, the MCP server's instructions) in
// a project that has a plan folder. It names the default folder; use
// ProtocolIn for another.
const Protocol = "## Task Management Protocol\n" +
	"\n" +
	"You follow a structured task management protocol for complex work.\n" +
	"\n" +
	"### When You Receive a Message\n" +
	"\n" +
	"1. **Detect if this is a new goal** requiring planning:\n" +
	"   - Goal signals: action verbs (add, implement, create, build), outcome descriptions, feature scope\n" +
	"   - Not a goal: questions, follow-ups to existing work, single-file fixes\n" +
	"\n" +
	"2. **If it's a goal, check threshold** — skip formal planning if ALL true:\n" +
	"   - ≤ 2 files affected\n" +
	"   - ≤ 50 lines changed\n" +
	"   - No new dependencies\n" +
	"   - Type: bugfix, typo, config, docs, minor refactor\n" +
	"   - Single concern (not cross-cutting)\n" +
	"\n" +
	"3. **Quick task** (below threshold):\n" +
	"   - Execute directly\n" +
	"   - Report completion to the user, ending with `progress: quick done: <what you did>` (e.g. `progress: quick done: Fix typo in README`)\n" +
	"   - If you discover it's more complex, create task.yaml (work already done marked complete) and send `progress: T### promoted`\n" +
	"\n" +
	"4. **Formal planning** (above threshold):\n" +
	"   - Create task breakdown (3-10 tasks, each with 2-8 steps)\n" +
	"   - Write task.yaml files to `docs/por/T###-slug/task.yaml`, numbering on from the highest T### already there\n" +
	"   - Post a plan summary to the user\n" +
	"   - Then begin execution\n" +
	"\n" +
	"### Task File Format\n" +
	"\n" +
	"Create `docs/por/T###-slug/task.yaml`:\n" +
	"\n" +
	"```yaml\n" +
	"id: T001\n" +
	"name: Short descriptive name\n" +
	"goal: Clear success criteria (what \"done\" looks like)\n" +
	"status: planned    # Tally will update this\n" +
	"\n" +
	"steps:\n" +
	"  - id: S1\n" +
	"    name: First step description\n" +
	"    done: Concrete completion criteria\n" +
	"    status: pending\n" +
	"\n" +
	"  - id: S2\n" +
	"    name: Second step description\n" +
	"    done: Concrete completion criteria\n" +
	"    status: pending\n" +
	"```\n" +
	"\n" +
	"### Progress Markers (IMPORTANT)\n" +
	"\n" +
	"**You don't need to update task.yaml during execution.** Instead, end your message to the user with a progress marker, on a line of its own:\n" +
	"\n" +
	"```\n" +
	"progress: <task_id>.<step_id> <action>\n" +
	"```\n" +
	"\n" +
	"**Actions:**\n" +
	"- `start` — Starting a task (e.g., `progress: T001 start`)\n" +
	"- `done` — Completed a step (e.g., `progress: T001.S1 done`)\n" +
	"- `blocked` — Step is blocked (e.g., `progress: T001.S2 blocked: reason`)\n" +
	"- `promoted` — A quick task became a planned task (e.g., `progress: T001 promoted`)\n" +
	"- `quick done` — A quick task is done, no task file (e.g., `progress: quick done: Fix typo in README`)\n" +
	"\n" +
	"**Example message:**\n" +
	"```\n" +
	"API design is done and documented. Starting on the backend endpoints.\n" +
	"\n" +
	"progress: T001.S1 done\n" +
	"```\n" +
	"\n" +
	"Several markers in one message are applied in order. Tally parses the markers and updates task.yaml automatically: completing a task's last step completes the task and starts the next planned one. One task is active at a time: starting another pauses the active one, which is taken up again when the new one is complete.\n" +
	"\n" +
	"### Replan Recognition\n" +
	"\n" +
	"If user says things like:\n" +
	"- \"replan\", \"rethink\", \"change the plan\"\n" +
	"- \"wrong approach\", \"different way\"\n" +
	"- \"skip task\", \"add task\", \"remove task\"\n" +
	"\n" +
	"Then revise the task breakdown, preserve completed work.\n" +
	"\n" +
	"### Blocked Steps\n" +
	"\n" +
	"If you can't complete a step:\n" +
	"1. Include `progress: T###.S# blocked: reason` in your message\n" +
	"2. Explain the blocker to the user\n" +
	"3. Continue with other work if possible\n"

// ProtocolIn is Protocol for a project whose plan folder is dir (relative
// to the project's root, with '/' separators).
func ProtocolIn(dir string) string {
	return strings.ReplaceAll(Protocol, "`"+DefaultDir+"/", "`"+strings.TrimSuffix(dir, "/")+"/")
}
