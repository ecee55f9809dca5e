// The words and figures a person reads: activity and status names, time
// spans, project paths, agent colours.

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

export function activityTimer(key, run, silent) {
  return knownActivity(key) ? ACTIVITY[key].timer(run, silent) : '';
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

// shortProject keeps the last two path parts: enough to tell projects apart
// on a narrow card; the full path is in the tooltip.
export function shortProject(p) {
  if (!p) return '—';
  const home = p.match(/^\/(?:home|Users)\/[^/]+(\/.*)?$/);
  const path = home ? '~' + (home[1] || '') : p;
  const parts = path.split(/[\\/]+/).filter(Boolean);
  if (parts.length <= 2) return path;
  return '…/' + parts.slice(-2).join('/');
}

// Fixed hues for the agents Tally knows; others get one from their name.
const AGENT_HUES = {
  claude: 24, codex: 152, gemini: 212, hermes: 275, acp: 330,
  opencode: 185, crush: 300, tally: 48,
};

export function agentHue(agent) {
  const a = String(agent || '');
  if (Object.hasOwn(AGENT_HUES, a)) return AGENT_HUES[a];
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
