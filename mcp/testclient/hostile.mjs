// hostile.mjs is the official TypeScript SDK client in a session with
// `tally mcp` over stdio, while malformed lines are written straight to
// the server's stdin between its calls (as a buggy client or a stray
// print would). It records, it does not judge: one JSON line per step on
// stdout; mcp/stdio_test.go checks the transcript.
//
//   node hostile.mjs BINARY ARG...   spawn `BINARY ARG...` (tally mcp)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, ...args] = process.argv.slice(2);
const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

const transport = new StdioClientTransport({ command, args, env: { ...process.env }, stderr: "inherit" });
const client = new Client({ name: "tally-testclient-hostile", version: "1.0.0" });
// Each answer to a malformed line reaches the client as an error: an
// answer with id null fails its schema, one with an id it never sent is
// unknown to it. Neither ends its session.
const errors = [];
client.onerror = (e) => errors.push(String(e?.message ?? e));
await client.connect(transport);

const bad = [
  "hello",
  '{"jsonrpc":"2.0","id":5,"method":"pi',
  '{"jsonrpc":"1.0","id":"x-5","method":"ping"}',
  '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
  "{}",
  "null",
  "123",
  '[{"jsonrpc":"2.0","id":"x-6","method":"ping"}]',
  "[]",
];
for (const [i, line] of bad.entries()) {
  transport._process.stdin.write(line + "\n");
  const res = await client.callTool({ name: "TaskCreate", arguments: { subject: `after bad line ${i}` } });
  out({ step: `create-${i}`, line, isError: !!res.isError, structured: res.structuredContent ?? null, errors: errors.length });
}
const list = await client.callTool({ name: "TaskList", arguments: {} });
out({ step: "list", isError: !!list.isError, structured: list.structuredContent ?? null, errors: errors.length, errorTexts: errors });
await client.close();
out({ done: true });
