// The words and figures a person reads: activity and status names, time
// spans, agent colours.

// Each activity's words: its column and badge label, the line a card
// without a list shows, and the one time its card shows — what a person
// wants to know of a session in that state: how long it has run while it
// works, how long it has been waiting or silent, and when it ended.
// timer gets the run so far and the silence so far, in milliseconds.
export const ACTIVITIES = [
  { key: 'working', label: 'Working', spinner: 'Working…', timer: (run) => duration(run) },
  { key: 'needs_input', label: 'Needs input', spinner: 'Waiting for you', timer: (_, silent) => `waiting ${duration(silent)}` },
  { key: 'idle', label: 'Idle', spinner: 'Silent — maybe stalled', timer: (_, silent) => `silent ${duration(silent)}` },
  { key: 'ended', label: 'Ended', spinner: 'Ended', timer: (_, silent) => `ended ${duration(silent)} ago` },
];
const ACTIVITY = Object.fromEntries(ACTIVITIES.map((a) => [a.key, a]));

export function knownActivity(key) {
  return Object.hasOwn(ACTIVITY, key);
}

export function activityLabel(key) {
  return knownActivity(key) ? ACTIVITY[key].label : key;
}

export function spinnerText(key) {
  return knownActivity(key) ? ACTIVITY[key].spinner : '';
}

// NO_LIST_TOOL is said of a session whose log shows its agent had no todo
// tool: it kept no list, and waiting will not bring one. The session's
// listToolsHint says how to give it one.
export const NO_LIST_TOOL = 'Kept no list: this agent had no todo tool';

export function keptNoList(s) {
  return s.listTools === 'none' && !(s.items || []).length && !subAgentsOf(s).length;
}

// RUNTIME is the id of the runtime list among a session's subAgents: its
// tool calls as the runtime ran them, not a list a model keeps.
export const RUNTIME = 'runtime';

// subAgentsOf are the session's sub-agents' lists, the runtime's left out.
export function subAgentsOf(s) {
  return (s.subAgents || []).filter((sub) => sub.id !== RUNTIME);
}

// runtimeText says what the session's tool calls say it does: the call
// running now (else the newest), how many ran, how many failed; '' when
// none was seen.
export function runtimeText(s) {
  const r = s.runtime;
  if (!r || !r.calls) return '';
  const what = r.current || r.last || '';
  const counts = plural(r.calls, 'tool call') + (r.failed ? `, ${r.failed} failed` : '');
  return what ? `${what} · ${counts}` : counts;
}

export function activityTimer(key, run, silent) {
  return knownActivity(key) ? ACTIVITY[key].timer(run, silent) : '';
}

// MIN_SHORT_ID and shortIds follow tally.ShortIDs: an agent's session id
// is shown as its shortest prefix, of MIN_SHORT_ID characters at least,
// that no other session on the board begins with (as git abbreviates
// hashes, and as `tally show` takes it back); a name — Tally's own list
// (tally:NAME), a task list sessions share — is shown whole.
export const MIN_SHORT_ID = 8;

export function idIsName(s) {
  return s.agent === 'tally' || !!s.taskList || !!s.shared;
}

function commonPrefix(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

// shortIds maps each session's id to the id it is shown by.
export function shortIds(list) {
  const ids = list.map((s) => s.id).sort();
  const pos = new Map(ids.map((id, i) => [id, i]));
  const out = new Map();
  list.forEach((s) => {
    if (idIsName(s)) {
      out.set(s.id, s.id);
      return;
    }
    const j = pos.get(s.id);
    let n = MIN_SHORT_ID;
    for (const k of [j - 1, j + 1]) {
      if (k >= 0 && k < ids.length && ids[k] !== s.id) n = Math.max(n, commonPrefix(ids[k], s.id) + 1);
    }
    out.set(s.id, s.id.slice(0, n));
  });
  return out;
}

// Status words as a person says them; the wire words (in_progress) stay
// on the wire. An unknown status shows the agent's own word.
const STATUS_WORDS = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'done',
  cancelled: 'cancelled',
  failed: 'failed',
  blocked: 'blocked',
};

export function statusWord(it) {
  if (Object.hasOwn(STATUS_WORDS, it.status)) return STATUS_WORDS[it.status];
  return it.rawStatus || 'unknown status';
}

// plural is "1 file", "3 files".
export function plural(n, one, many = one + 's') {
  return `${n} ${n === 1 ? one : many}`;
}

// duration is a span of time in at most two units: "42s", "3m 05s",
// "2h 07m", "3d 4h".
export function duration(spanMs) {
  let s = Math.max(0, Math.floor(spanMs / 1000));
  if (s < 60) return `${s}s`;
  let m = Math.floor(s / 60);
  s %= 60;
  if (m < 60) return `${m}m ${String(s).padStart(2, '0')}s`;
  let hr = Math.floor(m / 60);
  m %= 60;
  if (hr < 24) return `${hr}h ${String(m).padStart(2, '0')}m`;
  const d = Math.floor(hr / 24);
  hr %= 24;
  return `${d}d ${hr}h`;
}

// ms is a timestamp from the wire in milliseconds, 0 when there is none.
export function ms(t) {
  const v = Date.parse(t);
  return Number.isFinite(v) ? v : 0;
}

export function localTime(t) {
  const v = ms(t);
  return v ? new Date(v).toLocaleString() : '—';
}

// titleOf is what a session is called: its title, or "(untitled)" as the
// CLI says — never its raw id, which is in the detail.
export function titleOf(s) {
  const t = String(s.title || '').trim();
  return t || '(untitled)';
}

// The agents Tally knows, by name ({label, hue}), as the server's page
// carries them in its data block: each agent's own descriptor decides.
const AGENTS = readAgents();

function readAgents() {
  const el = document.getElementById('agents');
  try {
    const v = el ? JSON.parse(el.textContent) : null;
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

// agentHue is the hue of an agent Tally knows; another gets one from its
// name.
export function agentHue(agent) {
  const a = String(agent || '');
  if (Object.hasOwn(AGENTS, a)) return AGENTS[a].hue;
  let x = 0;
  for (const ch of a) x = (x * 31 + ch.codePointAt(0)) >>> 0;
  return x % 360;
}

// originOf is where a pushed session came from, as user@machine; '' for
// a session of the server's own.
export function originOf(s) {
  if (s.user && s.machine) return `${s.user}@${s.machine}`;
  return s.machine || s.user || '';
}
