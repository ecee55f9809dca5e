// The detail dialog: one session whole — its facts, the main agent's list,
// each sub-agent's list and the progress markers. It follows the session
// live while open.
import { getJSON } from './api.js';
import { approve, approveRow, showApprove } from './approve.js';
import { onRequestAction, requestRow, showRequest } from './request.js';
import { activityOf, now } from './clock.js';
import { h, named } from './dom.js';
import { badgeText, flagsOf, whyText } from './flags.js';
import { glyphOf, itemFacts, titlesOf } from './items.js';
import { sessions, ui } from './state.js';
import {
  NO_LIST_TOOL, RUNTIME, activityLabel, agentHue, duration, keptNoList, localTime, ms, originOf, plural, runtimeText,
  titleOf,
} from './words.js';

const detail = document.getElementById('detail');
const detailTitle = document.getElementById('detail-title');
const detailBody = document.getElementById('detail-body');

function detailList(items, runtime = false) {
  const ul = h('ul', 'items full detail-items');
  const titles = titlesOf(items);
  for (const it of items) {
    const g = glyphOf(it);
    const li = h('li', `item st-${g.kind}${it.lossy ? ' lossy' : ''}`);
    li.append(h('span', 'icon', g.icon));
    const body = h('div', 'item-body');
    body.append(h('div', 'label', g.label));
    // A call's id is the runtime's, no number a person goes by.
    body.append(h('div', 'item-meta', itemFacts(runtime ? { ...it, id: '' } : it, titles).join(' · ')));
    if (it.description) body.append(h('div', 'item-desc', it.description));
    li.append(body);
    ul.append(li);
  }
  if (!items.length) ul.append(h('li', 'item none', 'No list.'));
  return ul;
}

// flagList names the session's flags with since when, most urgent first;
// it is empty (and takes no room) when there are none.
function flagList(s, t) {
  const ul = named('flags', 'ul', 'detail-flags');
  for (const x of flagsOf(s, t)) {
    const li = h('li', 'detail-flag');
    const badge = h('span', 'badge flag', badgeText(x, t));
    badge.dataset.flag = x.flag.key;
    badge.dataset.tone = x.flag.tone;
    li.append(badge, h('span', 'detail-flag-since', whyText(x, t)));
    ul.append(li);
  }
  ul.hidden = ul.children.length === 0;
  return ul;
}

function progressText(p) {
  if (!p || !p.total) return '';
  return `${p.done}/${p.total}`;
}

// logText says what reading the session's logs met; a session read from
// no file (a list Tally keeps itself) has no log to speak of.
function logText(st) {
  if (!st || !st.files) return '';
  const parts = [plural(st.files, 'file'), plural(st.lines, 'line')];
  if (st.malformed) parts.push(`${st.malformed} malformed (skipped)`);
  if (st.orphans) parts.push(plural(st.orphans, 'update') + ' for tasks the list never held');
  if (st.blank) parts.push(plural(st.blank, 'item') + ' without text (skipped)');
  return parts.join(' · ');
}

function lastActivityText(s, t) {
  return `${localTime(s.lastActivity)} (${duration(t - ms(s.lastActivity))} ago)`;
}

function render(s) {
  const t = now();
  const act = activityOf(s, t);
  detailTitle.textContent = titleOf(s);
  const scroll = detailBody.scrollTop;
  const frag = document.createDocumentFragment();

  const tags = h('div', 'detail-tags');
  const badge = h('span', 'badge agent', s.agent || '?');
  badge.style.setProperty('--hue', String(agentHue(s.agent)));
  tags.append(badge, h('span', `state st-${act}`, activityLabel(act)));
  frag.append(tags);
  frag.append(flagList(s, t));
  const request = requestRow();
  request.classList.add('request-full');
  showRequest(request, s, t);
  frag.append(request);
  const approval = approveRow();
  showApprove(approval, s);
  frag.append(approval);

  const dl = h('dl', 'facts');
  const fact = (name, k, v) => {
    const dd = h('dd', '', v);
    dd.dataset.fact = name;
    dl.append(h('dt', '', k), dd);
  };
  fact('project', 'Project', s.project || '—');
  if (originOf(s)) fact('origin', 'From', originOf(s));
  fact('session', s.shared ? 'Task list' : 'Session', s.id);
  if (s.writers && s.writers.length) {
    fact('writers', s.shared ? 'Shared by' : 'Also written by', s.writers.join(', '));
  }
  if (s.tasksIn) fact('tasks-in', 'Tasks', `in the shared task list ${s.tasksIn}`);
  fact('started', 'Started', localTime(s.startedAt));
  fact('last-activity', 'Last activity', lastActivityText(s, t));
  if (s.taskList) {
    const name = s.taskList.name;
    fact('task-list', 'Task list', `${name}, kept by Tally for its agents (tally mcp; tally tasks ${name})`);
    fact('mode', 'Mode', s.taskList.awaitingApproval ? 'plan: execution waits for your approval' : 'execution');
  }
  const log = logText(s.stats);
  if (log) fact('log', 'Log', log);
  frag.append(dl);

  frag.append(h('h3', 'detail-h', `Main agent ${progressText(s.progress)}`.trim()));
  if (keptNoList(s)) {
    frag.append(h('p', 'detail-nolist', `${NO_LIST_TOOL}. ${s.listToolsHint || ''}`.trim()));
  } else {
    frag.append(detailList(s.items || []));
  }

  for (const sub of s.subAgents || []) {
    if (sub.id === RUNTIME) {
      // The runtime's calls: what ran, apart from any list; the newest
      // few, counted whole.
      frag.append(h('h3', 'detail-h', `Tool calls: ${runtimeText(s)} (the runtime's, not the model's list)`));
      frag.append(detailList(sub.items || [], true));
      continue;
    }
    // A sub-agent is named by what it was asked to do, its id the fallback;
    // a plan proposed for approval (list "proposal") by its name, as no
    // sub-agent; the session's Tally list by its name.
    const heading = sub.id === 'proposal' ? sub.name || 'Plan proposed'
      : sub.tally ? `Tally list ${sub.id.slice('tally:'.length)}` : `Sub-agent ${sub.name || sub.id}`;
    frag.append(h('h3', 'detail-h', `${heading} ${progressText(sub.progress)}`.trim()));
    frag.append(detailList(sub.items || []));
  }

  if (s.markers && s.markers.length) {
    frag.append(h('h3', 'detail-h', 'Progress markers'));
    const ul = h('ul', 'markers');
    for (const m of s.markers) {
      // A line meant as a marker that is not one says so, and why.
      ul.append(m.line
        ? h('li', 'marker-unrecognised', `? ${m.line} — not a marker: ${m.reason || ''}`)
        : h('li', '', [m.task, m.step].filter(Boolean).join('.') + (m.verb ? ` ${m.verb}` : '')));
    }
    frag.append(ul);
  }
  detailBody.replaceChildren(frag);
  detailBody.scrollTop = scroll;
}

function gone() {
  detailBody.prepend(h('p', 'detail-gone', 'This session is no longer in the index.'));
}

// sessionChanged re-renders the detail when it shows session s.
export function sessionChanged(s) {
  if (ui.detailId === s.id) render(s);
}

// sessionRemoved notes in the detail that its session left the index.
export function sessionRemoved(id) {
  if (ui.detailId === id) gone();
}

// openDetail shows session id at once from what the board holds, then
// with the whole record from the API.
export async function openDetail(id) {
  const s = sessions.get(id);
  if (!s) return;
  ui.detailId = id;
  render(s);
  if (!detail.open) detail.showModal();
  try {
    const { res, body } = await getJSON(`/api/sessions/${encodeURIComponent(id)}`);
    if (ui.detailId !== id) return;
    if (res.status === 404) {
      gone();
      return;
    }
    if (body && body.id === id) render(body);
  } catch (err) {
    console.warn('tally: session detail', err);
  }
}

function closeDetail() {
  ui.detailId = '';
  if (detail.open) detail.close();
}

// tickDetail refreshes the detail's "last activity … ago" and its flags,
// which the clock alone changes (a session stalls).
export function tickDetail(t) {
  if (!ui.detailId || !detail.open) return;
  const s = sessions.get(ui.detailId);
  const dd = detailBody.querySelector('[data-fact="last-activity"]');
  if (s && dd) dd.textContent = lastActivityText(s, t);
  const flags = detailBody.querySelector('[data-part="flags"]');
  if (s && flags) flags.replaceWith(flagList(s, t));
  const request = detailBody.querySelector('[data-part="request"]');
  if (s && request) showRequest(request, s, t);
}

export function initDetail() {
  document.getElementById('detail-close').addEventListener('click', closeDetail);
  detail.addEventListener('close', () => {
    ui.detailId = '';
  });
  detail.addEventListener('click', (e) => {
    // A click on the backdrop lands on the dialog itself.
    if (e.target === detail) closeDetail();
    const target = e.target instanceof Element ? e.target : null;
    if (target && onRequestAction(target.closest('[data-action]'))) return;
    const action = target ? target.closest('[data-action="approve"]') : null;
    if (action) approve(action.closest('[data-part="approve"]'));
  });
}
