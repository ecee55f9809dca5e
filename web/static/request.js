// Answering an agent from the board. A session whose agent asks its user
// to allow a tool (or to approve a plan) carries the request in its
// `requests` (tally setup claude --remote-approvals); this module shows the
// newest on the card and in the detail — the tool, what it would do, how
// long it has waited — with Allow, Always, Deny and Deny with a message,
// and, once decided, who decided, from where. Everything in a request came
// from the agent: it is shown as text only.
import { UNREACHABLE, postJSON, refusal } from './api.js';
import { button, h, named, part, setHidden, setText, setTitle } from './dom.js';
import { duration, localTime, ms } from './words.js';

// relay: the server decides for sessions pushed from other machines, as
// its snapshots and lists say (their tally push takes decisions home).
let relay = false;

// noteRelay reads it from a snapshot or a session list.
export function noteRelay(d) {
  relay = !!(d && d.relay);
}

// newest is session s's newest request, or null.
export function newest(s) {
  const r = (s.requests || [])[0];
  return r && r.id ? r : null;
}

// isOpen tells whether request r waits for a decision at time t.
export function isOpen(r, t) {
  return !!r && !r.verdict && ms(r.expiresAt) > t;
}

const VERDICTS = {
  allow: 'Allowed',
  always: 'Allowed for the session',
  deny: 'Denied',
  elsewhere: 'Answered at the agent',
};

// askText is the line that says what the agent asks.
export function askText(r) {
  if (r.tool === 'ExitPlanMode') return 'Plan waiting for your approval';
  return `${r.tool || 'A tool'} asks to run`;
}

// decidedText says how request r ended at time t.
export function decidedText(r, t) {
  if (!r.verdict) return ms(r.expiresAt) <= t ? 'No answer in time: the agent asked in its own way' : '';
  let text = VERDICTS[r.verdict] || r.verdict;
  if (r.by) text += ` by ${r.by}`;
  if (r.from) text += ` (${r.from})`;
  if (r.decidedAt) text += `, ${localTime(r.decidedAt)}`;
  if (r.message) text += ` — “${r.message}”`;
  return text;
}

// requestRow makes the rows a request is shown in; showRequest fills them.
export function requestRow() {
  const row = named('request', 'div', 'request-row');
  row.setAttribute('role', 'group');
  row.setAttribute('aria-label', 'Request from the agent');
  const head = h('div', 'request-head');
  head.append(named('request-ask', 'span', 'request-ask'), named('request-waited', 'span', 'request-waited'));
  const summary = named('request-summary', 'code', 'request-summary');
  const detail = named('request-detail', 'pre', 'request-detail');
  const buttons = named('request-buttons', 'div', 'request-buttons');
  const always = button('request-button', 'Always', 'request-always');
  always.dataset.part = 'request-always';
  always.title = 'Allow, and allow the same for the rest of this session';
  buttons.append(button('request-button allow', 'Allow', 'request-allow'), always,
    button('request-button deny', 'Deny', 'request-deny'),
    button('request-button', 'Deny with a message…', 'request-message'));
  const form = named('request-form', 'div', 'request-form');
  const input = named('request-input', 'input', 'request-input');
  input.type = 'text';
  input.maxLength = 4000;
  input.placeholder = 'What the agent should do instead';
  input.setAttribute('aria-label', 'Message to the agent');
  form.append(input, button('request-button deny', 'Send denial', 'request-send'));
  form.hidden = true;
  row.append(head, summary, detail, buttons, form, named('request-remote', 'div', 'request-remote'),
    named('request-decided', 'div', 'request-decided'), named('request-note', 'span', 'request-note'));
  row.hidden = true;
  return row;
}

// showRequest shows session s's newest request in row at time t, or hides
// the row when it has none.
export function showRequest(row, s, t) {
  const r = newest(s);
  setHidden(row, !r);
  if (!r) return;
  const open = isOpen(r, t);
  if (row.dataset.id !== r.id) {
    row.dataset.id = r.id;
    row.dataset.session = s.id;
    reset(row);
    part(row, 'request-input').value = '';
    setHidden(part(row, 'request-form'), true);
  }
  row.dataset.open = open ? 'yes' : 'no';
  setText(part(row, 'request-ask'), askText(r));
  setText(part(row, 'request-summary'), r.summary || '');
  setHidden(part(row, 'request-summary'), !r.summary);
  setText(part(row, 'request-detail'), r.detail || '');
  setHidden(part(row, 'request-detail'), !r.detail);
  const waited = open ? `waiting ${duration(t - ms(r.askedAt))}` : '';
  setText(part(row, 'request-waited'), waited);
  setTitle(part(row, 'request-waited'), open ? `asked ${localTime(r.askedAt)}; the agent asks in its own way at ${localTime(r.expiresAt)}` : '');
  // A session pushed from another machine is answered here only where
  // the server relays decisions and that machine's tally push takes them
  // home; elsewhere its hook, waiting on that machine's store, is
  // answered there.
  const remote = open && !!s.machine && !(relay && s.relayed);
  setHidden(part(row, 'request-buttons'), !open || remote);
  setText(part(row, 'request-remote'), remote ? `Answer it on ${s.machine}: tally allow or tally deny ${s.id}` : '');
  setHidden(part(row, 'request-remote'), !remote);
  setHidden(part(row, 'request-always'), !r.always);
  if (!open) setHidden(part(row, 'request-form'), true);
  const decided = decidedText(r, t);
  setText(part(row, 'request-decided'), decided);
  setHidden(part(row, 'request-decided'), !decided);
}

function reset(row) {
  for (const b of row.querySelectorAll('button')) b.disabled = false;
  setText(part(row, 'request-note'), '');
}

// onRequestAction handles a click on one of a request row's buttons;
// false when the click was not one.
export function onRequestAction(action) {
  const verb = action ? action.dataset.action || '' : '';
  if (!verb.startsWith('request-')) return false;
  const row = action.closest('[data-part="request"]');
  if (!row) return true;
  switch (verb) {
    case 'request-allow':
      decide(row, 'allow', '');
      break;
    case 'request-always':
      decide(row, 'always', '');
      break;
    case 'request-deny':
      decide(row, 'deny', '');
      break;
    case 'request-message': {
      const form = part(row, 'request-form');
      setHidden(form, !form.hidden);
      if (!form.hidden) part(row, 'request-input').focus();
      break;
    }
    case 'request-send':
      decide(row, 'deny', part(row, 'request-input').value.trim());
      break;
  }
  return true;
}

// decide sends a decision on row's request: it names the request's
// one-time id and its session. The result reaches the page through the
// event stream like any other change; on failure the row says why.
async function decide(row, verdict, message) {
  const id = row.dataset.id;
  if (!id) return;
  const buttons = row.querySelectorAll('button');
  for (const b of buttons) b.disabled = true;
  const note = part(row, 'request-note');
  setText(note, 'Sending…');
  try {
    const { res, body } = await postJSON(`/api/requests/${encodeURIComponent(id)}`, {
      session: row.dataset.session, verdict, message,
    });
    if (res.ok) {
      setText(note, '');
      return;
    }
    setText(note, refusal(res, body));
  } catch (err) {
    console.warn('tally: decide', err);
    setText(note, UNREACHABLE);
  }
  for (const b of buttons) b.disabled = false;
}
