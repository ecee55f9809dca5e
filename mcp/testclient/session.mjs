// session.mjs drives tally's MCP server with the official TypeScript SDK
// client: the scripted session of mcp/node_test.go. It records, it does not
// judge: every call becomes one JSON line on stdout (the transcript), and
// the Go test checks the transcript against the rules.
//
//   node session.mjs stdio BINARY ARG...   spawn `BINARY ARG...` (tally mcp) per client
//   node session.mjs http URL              connect to a streamable HTTP endpoint
//
// When the script needs a person (approving a plan), it prints
// {"wait":"approve LIST"} and reads one line from stdin before going on.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import readline from "node:readline";

const [mode, target, ...rest] = process.argv.slice(2);
const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

const stdinLines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
async function waitFor(what) {
  out({ wait: what });
  const { value, done } = await stdinLines.next();
  if (done || value.trim() !== "ok") throw new Error(`no go-ahead for ${what}: ${value}`);
}

async function connect(name) {
  const client = new Client({ name: `tally-testclient-${name}`, version: "1.0.0" });
  const transport = mode === "stdio"
    ? new StdioClientTransport({ command: target, args: rest, env: { ...process.env }, stderr: "inherit" })
    : new StreamableHTTPClientTransport(new URL(target));
  await client.connect(transport);
  return client;
}

let n = 0;
// call records one tool call under a step label the Go test looks up.
async function call(client, who, step, name, args) {
  const req = args === undefined ? { name } : { name, arguments: args };
  const res = await client.callTool(req);
  const text = (res.content ?? []).filter((c) => c.type === "text").map((c) => c.text);
  out({ n: n++, client: who, step, tool: name, args: args ?? null, isError: !!res.isError, text, structured: res.structuredContent ?? null });
  return res;
}

const a = await connect("a");
const tools = await a.listTools();
out({ step: "listTools", tools: tools.tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema })) });

// Empty and missing arguments are {}.
await call(a, "a", "list-no-arguments", "TaskList");
await call(a, "a", "list-empty-arguments", "TaskList", {});

// Create, link both ways, derive blocked.
for (const [i, s] of ["Set up database", "Create API", "Add auth", "Write docs"].entries()) {
  await call(a, "a", `create-${i + 1}`, "TaskCreate", { subject: s, description: `${s} for the service`, activeForm: `${s}ing` });
}
await call(a, "a", "link-2", "TaskUpdate", { taskId: "2", addBlockedBy: ["1"] });
await call(a, "a", "link-3", "TaskUpdate", { taskId: "1", addBlocks: ["3"] });
await call(a, "a", "get-1-blocks", "TaskGet", { taskId: "1" });
await call(a, "a", "list-blocked", "TaskList");
await call(a, "a", "cycle", "TaskUpdate", { taskId: "1", addBlockedBy: ["2"] });

// A task with open blockers cannot start; one in_progress per list; owners.
await call(a, "a", "start-blocked", "TaskUpdate", { taskId: "2", status: "in_progress" });
await call(a, "a", "start-1", "TaskUpdate", { taskId: "1", status: "in_progress", owner: "agent-a" });
await call(a, "a", "start-second", "TaskUpdate", { taskId: "4", status: "in_progress" });
await call(a, "a", "claim-taken", "TaskUpdate", { taskId: "1", owner: "agent-b" });

// Completing the blocker unblocks its dependants with no other call.
await call(a, "a", "complete-1", "TaskUpdate", { taskId: "1", status: "completed" });
await call(a, "a", "list-unblocked", "TaskList");

// Deleted: hidden, and a clear not-found.
await call(a, "a", "delete-4", "TaskUpdate", { taskId: "4", status: "deleted" });
await call(a, "a", "list-after-delete", "TaskList");
await call(a, "a", "get-deleted", "TaskGet", { taskId: "4" });

// Bad arguments are answered with what was wrong and what is valid.
await call(a, "a", "bad-status", "TaskUpdate", { taskId: "2", status: "done" });
await call(a, "a", "bad-field", "TaskUpdate", { taskID: "2", status: "completed" });
await call(a, "a", "bad-id", "TaskUpdate", { taskId: "99", status: "completed" });
await call(a, "a", "bad-create", "TaskCreate", { description: "no subject" });

// The third completion with no verifying task nudges.
await call(a, "a", "start-2", "TaskUpdate", { taskId: "2", status: "in_progress" });
await call(a, "a", "complete-2", "TaskUpdate", { taskId: "2", status: "completed" });
await call(a, "a", "start-3", "TaskUpdate", { taskId: "3", status: "in_progress" });
await call(a, "a", "complete-3", "TaskUpdate", { taskId: "3", status: "completed" });

// Everything done: the next TaskCreate starts again from #1.
await call(a, "a", "create-fresh", "TaskCreate", { subject: "Write release notes", description: "for the new API" });
await call(a, "a", "list-fresh", "TaskList");

// todo_write: replace, merge by id, the in_progress rule.
const todos = [
  { id: "a", content: "Read the spec", status: "completed" },
  { id: "b", content: "Write the parser", status: "in_progress", activeForm: "Writing the parser" },
  { id: "c", content: "Run the tests", status: "pending" },
];
await call(a, "a", "todo-replace", "todo_write", { list: "hermes", todos });
await call(a, "a", "todo-merge", "todo_write", { list: "hermes", merge: true, todos: [{ id: "b", status: "completed" }, { id: "d", content: "Ship it", status: "cancelled" }] });
await call(a, "a", "todo-two-active", "todo_write", { list: "hermes", todos: todos.map((t) => ({ ...t, status: "in_progress" })) });
await call(a, "a", "todo-bad-status", "todo_write", { list: "hermes", todos: [{ content: "x", status: "waiting" }] });

// update_plan (Codex).
await call(a, "a", "plan-update", "update_plan", { list: "codex", explanation: "two steps", plan: [{ step: "Explore", status: "completed" }, { step: "Implement", status: "in_progress" }] });

// Plan mode: execution is refused until a person approves.
await call(a, "a", "planmode-update-plan", "update_plan", { list: "planned", plan: [{ step: "Draft", status: "in_progress" }] });
await call(a, "a", "planmode-create", "TaskCreate", { list: "planned", subject: "Draft the schema", description: "tables and indexes" });
await call(a, "a", "planmode-start", "TaskUpdate", { list: "planned", taskId: "1", status: "in_progress" });
await waitFor("approve planned");
await call(a, "a", "approved-start", "TaskUpdate", { list: "planned", taskId: "1", status: "in_progress" });

// Two clients, one list: an owner cannot take a task another has in progress.
const b = await connect("b");
await call(a, "a", "team-create", "TaskCreate", { list: "team", subject: "Refactor the store", description: "split read and write" });
await call(b, "b", "team-claim-b", "TaskUpdate", { list: "team", taskId: "1", status: "in_progress", owner: "bob" });
await call(a, "a", "team-claim-a", "TaskUpdate", { list: "team", taskId: "1", owner: "alice" });
await call(a, "a", "team-list-a", "TaskList", { list: "team" });
await call(b, "b", "default-list-b", "TaskList");

await b.close();
await a.close();
out({ done: true });
process.exit(0);
