// Tally's dashboard: a Kanban of live agent sessions fed by Server-Sent Events.
//
// Everything in a session comes from an agent's log and is untrusted, so the
// DOM is built with createElement/textContent only (never innerHTML), and
// styles are set through the CSSOM (the page runs under default-src 'self').
//
// Cards are patched in place: an update changes only the text and rows that
// differ, and moves the card only when its column changes, so scroll
// position, focus and each card's compact/full choice survive every event.

// ---- vocabulary -------------------------------------------------------

const ACTIVITIES = [
  { key: 'working', label: 'Working' },
  { key: 'needs_input', label: 'Needs input' },
  { key: 'idle', label: 'Idle' },
  { key: 'ended', label: 'Ended' },
];
const ACTIVITY_LABEL = Object.fromEntries(ACTIVITIES.map((a) => [a.key, a.label]));
const SPINNER_TEXT = {
  working: 'Working…',
  needs_input: 'Waiting for you',
  idle: 'Silent — maybe stalled',
  ended: 'Ended',
};

// The thresholds of tally.DeriveActivity (session.go): the server derives
// activity when it sends a session, and time alone moves it on afterwards.
const IDLE_AFTER_MS = 2 * 60 * 1000;
const ENDED_AFTER_MS = 30 * 60 * 1000;

// Open items a compact card shows before folding the rest.
const COMPACT_OPEN_MAX = 6;
// Cards a column shows before a "show all" button.
const COLUMN_LIMIT = 40;

// Fixed hues for the agents Tally knows; others get one from their name.
const AGENT_HUES = {
  claude: 24, codex: 152, gemini: 212, hermes: 275, acp: 330,
  opencode: 185, crush: 300, tally: 48,
};

// One icon per status, as Claude Code's own TUI draws its list.
const GLYPH = {
  active: '◼', pending: '◻', done: '✓', blocked: '▸', stopped: '✗', unknown: '?',
};

// ---- small helpers ----------------------------------------------------

function h(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function setText(e, text) {
  const s = String(text ?? '');
  if (e.textContent !== s) e.textContent = s;
}

function setClass(e, className) {
  if (e.className !== className) e.className = className;
}

function setTitle(e, title) {
  const s = title || '';
  if (e.title !== s) e.title = s;
}

function agentHue(agent) {
  const a = String(agent || '');
  if (Object.hasOwn(AGENT_HUES, a)) return AGENT_HUES[a];
  let x = 0;
  for (const ch of a) x = (x * 31 + ch.codePointAt(0)) >>> 0;
  return x % 360;
}

// shortProject keeps the last two path parts: enough to tell projects apart
// on a narrow card; the full path is in the tooltip.
function shortProject(p) {
  if (!p) return '—';
  const home = p.match(/^\/(?:home|Users)\/[^/]+(\/.*)?$/);
  const path = home ? '~' + (home[1] || '') : p;
  const parts = path.split(/[\\/]+/).filter(Boolean);
  if (parts.length <= 2) return path;
  return '…/' + parts.slice(-2).join('/');
}

function duration(ms) {
  let s = Math.max(0, Math.floor(ms / 1000));
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

function ms(t) {
  const v = Date.parse(t);
  return Number.isFinite(v) ? v : 0;
}

function localTime(t) {
  const v = ms(t);
  return v ? new Date(v).toLocaleString() : '—';
}

// ---- clock ------------------------------------------------------------

// The server's clock decides activity; skew keeps our "now" close to it.
let skew = 0;
function noteServerNow(now) {
  const v = ms(now);
  if (v) skew = v - Date.now();
}
function now() {
  return Date.now() + skew;
}

// activityOf ages a session's activity by the time passed since the server
// derived it, with the server's own thresholds, so a silent session leaves
// "Working" without waiting for another event.
function activityOf(s, t) {
  let a = ACTIVITY_LABEL[s.activity] ? s.activity : 'ended';
  const silent = t - ms(s.lastActivity);
  if (a !== 'ended' && silent > ENDED_AFTER_MS) a = 'ended';
  else if (a === 'working' && silent > IDLE_AFTER_MS) a = 'idle';
  return a;
}

// ---- items ------------------------------------------------------------

// glyphOf maps an item to its icon, row class and the text to show.
function glyphOf(it) {
  const title = it.title || '(untitled)';
  switch (it.status) {
    case 'completed': return { icon: GLYPH.done, kind: 'done', label: title };
    case 'cancelled': return { icon: GLYPH.stopped, kind: 'cancelled', label: title };
    case 'failed': return { icon: GLYPH.stopped, kind: 'failed', label: title };
    case 'in_progress': return { icon: GLYPH.active, kind: 'active', label: it.activeForm || title };
    default:
  }
  if (it.status === 'blocked' || it.blocked) return { icon: GLYPH.blocked, kind: 'blocked', label: title };
  if (it.status === 'pending') return { icon: GLYPH.pending, kind: 'pending', label: title };
  const word = it.rawStatus || it.status || 'unknown';
  return { icon: GLYPH.unknown, kind: 'unknown', label: `${title} (${word})` };
}

function itemHint(it) {
  const lines = [it.title || ''];
  if (it.id) lines[0] = `#${it.id} ${lines[0]}`;
  const word = it.status === 'unknown' && it.rawStatus ? it.rawStatus : it.status;
  lines.push(`status: ${word}${it.lossy ? ' (approximate)' : ''}`);
  if (it.blockedBy && it.blockedBy.length) lines.push(`blocked by: ${it.blockedBy.map((b) => '#' + b).join(', ')}`);
  if (it.description) lines.push(it.description);
  return lines.join('\n');
}

function isFolded(it) {
  return it.status === 'completed' || it.status === 'cancelled';
}

// rowsFor is the list a card shows: all items in full mode; in compact mode
// the open ones (capped) and one "… +N done" row for the rest.
function rowsFor(items, full) {
  if (full) return items.map((it) => ({ item: it }));
  const rows = [];
  let done = 0;
  let cancelled = 0;
  let hiddenOpen = 0;
  for (const it of items) {
    if (it.status === 'completed') done++;
    else if (it.status === 'cancelled') cancelled++;
    else if (rows.length < COMPACT_OPEN_MAX) rows.push({ item: it });
    else hiddenOpen++;
  }
  const folded = [];
  if (hiddenOpen) folded.push(`+${hiddenOpen} more`);
  if (done) folded.push(`+${done} done`);
  if (cancelled) folded.push(`+${cancelled} cancelled`);
  if (folded.length) rows.push({ more: '… ' + folded.join(' · ') });
  return rows;
}

// patchRows makes ul show rows, reusing its <li>s position by position so
// an update rewrites only the rows that changed.
function patchRows(ul, rows) {
  while (ul.children.length > rows.length) ul.lastElementChild.remove();
  rows.forEach((row, i) => {
    let li = ul.children[i];
    if (!li) {
      li = h('li');
      ul.append(li);
    }
    if (row.more) {
      if (!li.classList.contains('more')) {
        li.replaceChildren(h('button', 'more-button'));
        li.firstChild.type = 'button';
        li.firstChild.dataset.action = 'expand';
      }
      setClass(li, 'item more');
      setText(li.firstChild, row.more);
      setTitle(li, '');
      return;
    }
    if (li.classList.contains('more') || li.children.length !== 2) {
      li.replaceChildren(h('span', 'icon'), h('span', 'label'));
    }
    const g = glyphOf(row.item);
    setClass(li, `item st-${g.kind}${row.item.lossy ? ' lossy' : ''}`);
    setText(li.firstChild, g.icon);
    setText(li.lastChild, g.label);
    setTitle(li, itemHint(row.item));
  });
}

// stored and store keep a preference; a browser without storage just
// forgets it.
function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Preferences are a convenience only.
  }
}

// ---- state ------------------------------------------------------------

const sessions = new Map(); // id → Session, as last received
const cards = new Map(); // id → Card
const ui = {
  group: stored('tally.group') === 'project' ? 'project' : 'activity',
  agent: '',
  project: '',
  q: '',
  openColumns: new Set(), // columns whose "show all" was clicked
  detailId: '',
};

// ---- cards ------------------------------------------------------------

// Card holds one session's element and the bits of it an update touches.
class Card {
  constructor(id) {
    this.id = id;
    this.full = false;
    this.json = '';
    this.column = '';
    this.sortKey = 0;

    const el = h('article', 'card');
    el.dataset.id = id;
    el.tabIndex = 0;
    this.el = el;

    const head = h('div', 'card-head');
    this.agent = h('span', 'badge agent');
    this.state = h('span', 'state');
    this.subs = h('span', 'badge subs');
    this.subs.hidden = true;
    this.elapsed = h('time', 'elapsed');
    head.append(this.agent, this.state, this.subs, this.elapsed);

    this.project = h('div', 'project');
    this.title = h('h3', 'title');

    this.progress = h('div', 'progress');
    this.count = h('span', 'count');
    this.bar = h('div', 'bar');
    this.bar.setAttribute('role', 'progressbar');
    this.bar.setAttribute('aria-valuemin', '0');
    this.fill = h('span', 'fill');
    this.bar.append(this.fill);
    this.toggle = h('button', 'toggle', 'Full list');
    this.toggle.type = 'button';
    this.toggle.dataset.action = 'toggle';
    this.toggle.setAttribute('aria-pressed', 'false');
    this.progress.append(this.count, this.bar, this.toggle);

    this.list = h('ul', 'items');
    this.spinner = h('div', 'spinner-row');
    this.spinner.append(h('span', 'spinner'), h('span', 'spinner-text'));

    el.append(head, this.project, this.title, this.progress, this.list, this.spinner);
  }

  // patch shows session s; it touches only what differs from before.
  patch(s, t) {
    const act = activityOf(s, t);
    this.el.dataset.activity = act;
    setText(this.agent, s.agent || '?');
    this.agent.style.setProperty('--hue', String(agentHue(s.agent)));
    setText(this.state, ACTIVITY_LABEL[act]);
    setClass(this.state, `state st-${act}`);

    const nSubs = (s.subAgents || []).length;
    this.subs.hidden = nSubs === 0;
    setText(this.subs, `+${nSubs} sub`);
    setTitle(this.subs, `${nSubs} sub-agent${nSubs === 1 ? '' : 's'} — open for their lists`);

    setText(this.project, shortProject(s.project));
    setTitle(this.project, s.project || '');
    setText(this.title, s.title || s.id);
    setTitle(this.title, s.title || '');

    const items = s.items || [];
    const p = s.progress || { done: 0, total: 0 };
    const has = items.length > 0;
    this.progress.hidden = !has;
    this.list.hidden = !has;
    this.spinner.hidden = has;
    if (has) {
      const before = this.count.textContent;
      setText(this.count, `${p.done}/${p.total}`);
      if (before && before !== this.count.textContent && this.count.animate) {
        this.count.animate([{ opacity: 0.3 }, { opacity: 1 }], { duration: 400 });
      }
      const pct = p.total ? Math.round((100 * p.done) / p.total) : 0;
      this.fill.style.width = `${pct}%`;
      this.bar.setAttribute('aria-valuemax', String(p.total));
      this.bar.setAttribute('aria-valuenow', String(p.done));
      this.bar.setAttribute('aria-label', `${p.done} of ${p.total} done`);
      this.renderList(items);
    } else {
      setText(this.spinner.lastChild, SPINNER_TEXT[act]);
      this.spinner.dataset.activity = act;
    }
    this.tick(s, t);
  }

  renderList(items) {
    this.list.classList.toggle('full', this.full);
    this.toggle.setAttribute('aria-pressed', String(this.full));
    setText(this.toggle, this.full ? 'Compact' : 'Full list');
    patchRows(this.list, rowsFor(items, this.full));
  }

  setFull(full) {
    this.full = full;
    const s = sessions.get(this.id);
    if (s) this.renderList(s.items || []);
  }

  // tick refreshes what time alone changes.
  tick(s, t) {
    const act = activityOf(s, t);
    const start = ms(s.startedAt);
    const end = act === 'ended' ? ms(s.lastActivity) : t;
    setText(this.elapsed, start ? duration(end - start) : '');
    const silent = t - ms(s.lastActivity);
    setTitle(this.elapsed, `started ${localTime(s.startedAt)}\nlast activity ${duration(silent)} ago`);
    if (act === 'idle' || act === 'needs_input') {
      setText(this.state, `${ACTIVITY_LABEL[act]} ${duration(silent)}`);
    }
    return act;
  }
}

// ---- board ------------------------------------------------------------

const board = document.getElementById('board');
const emptyNote = document.getElementById('empty');
const columns = new Map(); // key → {el, cards, count, more}

function columnKey(s, t) {
  return ui.group === 'project' ? s.project || '' : activityOf(s, t);
}

function columnLabel(key) {
  return ui.group === 'project' ? shortProject(key) : ACTIVITY_LABEL[key];
}

function makeColumn(key) {
  const el = h('section', 'column');
  el.dataset.key = key;
  if (ui.group === 'activity') el.dataset.activity = key;
  const head = h('header', 'column-head');
  const name = h('h2', 'column-name', columnLabel(key));
  if (ui.group === 'project') name.title = key;
  const count = h('span', 'column-count', '0');
  head.append(name, count);
  const list = h('div', 'cards');
  const more = h('button', 'column-more');
  more.type = 'button';
  more.dataset.action = 'column-more';
  more.hidden = true;
  el.append(head, list, more);
  const col = { key, el, cards: list, count, more };
  columns.set(key, col);
  return col;
}

function resetColumns() {
  columns.clear();
  board.replaceChildren();
  board.dataset.group = ui.group;
  if (ui.group === 'activity') {
    for (const a of ACTIVITIES) board.append(makeColumn(a.key).el);
  }
}

function columnFor(key) {
  let col = columns.get(key);
  if (col) return col;
  col = makeColumn(key);
  // Project columns are kept in name order.
  const label = columnLabel(key);
  const after = [...columns.values()].find(
    (c) => c !== col && c.el.isConnected && columnLabel(c.key).localeCompare(label) > 0,
  );
  board.insertBefore(col.el, after ? after.el : null);
  return col;
}

// place puts a card in its column, newest session first; it moves the
// element only when the column or the order changed.
function place(card, key, sortKey) {
  if (card.column === key && card.sortKey === sortKey && card.el.isConnected) return;
  const col = columnFor(key);
  const old = card.column;
  card.column = key;
  card.sortKey = sortKey;
  let before = null;
  for (const other of col.cards.children) {
    if (other === card.el) continue;
    const o = cards.get(other.dataset.id);
    if (o && o.sortKey < sortKey) {
      before = other;
      break;
    }
  }
  if (card.el.parentNode !== col.cards || card.el.nextSibling !== before) {
    const focused = card.el.contains(document.activeElement) ? document.activeElement : null;
    col.cards.insertBefore(card.el, before);
    if (focused) focused.focus({ preventScroll: true });
  }
  markDirty(key);
  if (old && old !== key) markDirty(old);
}

// Columns whose counts and limits need a look once this batch is done.
const dirty = new Set();
let dirtyQueued = false;
function markDirty(key) {
  dirty.add(key);
  if (!dirtyQueued) {
    dirtyQueued = true;
    queueMicrotask(flushDirty);
  }
}

function flushDirty() {
  dirtyQueued = false;
  for (const key of dirty) {
    const col = columns.get(key);
    if (col) layoutColumn(col);
  }
  dirty.clear();
  updateEmpty();
}

// layoutColumn counts the cards the filters let through, hides those past
// the column's limit, and drops an empty project column.
function layoutColumn(col) {
  let shown = 0;
  const limit = ui.openColumns.has(col.key) ? Infinity : COLUMN_LIMIT;
  for (const el of col.cards.children) {
    const card = cards.get(el.dataset.id);
    const s = card && sessions.get(card.id);
    const match = s ? matches(s) : false;
    const visible = match && shown < limit;
    if (match) shown++;
    if (el.hidden === visible) el.hidden = !visible;
  }
  setText(col.count, String(shown));
  const over = shown - Math.min(shown, limit);
  col.more.hidden = over <= 0;
  setText(col.more, `Show ${over} more`);
  if (ui.group === 'project' && col.cards.children.length === 0) {
    col.el.remove();
    columns.delete(col.key);
  }
}

function layoutAll() {
  for (const key of columns.keys()) dirty.add(key);
  flushDirty();
}

function updateEmpty() {
  let visible = 0;
  for (const col of columns.values()) visible += Number(col.count.textContent) || 0;
  if (sessions.size === 0) {
    setText(emptyNote, 'No agent sessions yet. A card appears here as soon as an agent writes to its log.');
  } else if (visible === 0) {
    setText(emptyNote, 'No session matches the filters.');
  }
  emptyNote.hidden = visible > 0;
  let working = 0;
  const t = now();
  for (const s of sessions.values()) if (activityOf(s, t) === 'working') working++;
  const title = working ? `Tally — ${working} working` : 'Tally';
  if (document.title !== title) document.title = title;
}

// upsert shows session s, creating or patching its card.
function upsert(s) {
  if (!s || typeof s.id !== 'string' || !s.id) return;
  const json = JSON.stringify(s);
  let card = cards.get(s.id);
  if (card && card.json === json) return;
  const isNew = !card;
  sessions.set(s.id, s);
  if (isNew) {
    card = new Card(s.id);
    cards.set(s.id, card);
  }
  card.json = json;
  const t = now();
  card.patch(s, t);
  place(card, columnKey(s, t), ms(s.startedAt));
  markDirty(card.column);
  noteFilterValue(s);
  if (ui.detailId === s.id) renderDetail(s);
}

function remove(id) {
  const card = cards.get(id);
  sessions.delete(id);
  if (!card) return;
  cards.delete(id);
  card.el.remove();
  markDirty(card.column);
  if (ui.detailId === id) detailGone();
}

// replaceAll makes the board show exactly list, keeping the cards of
// sessions that did not change untouched.
function replaceAll(list) {
  const keep = new Set();
  for (const s of list || []) {
    if (s && s.id) {
      keep.add(s.id);
      upsert(s);
    }
  }
  for (const id of [...cards.keys()]) if (!keep.has(id)) remove(id);
  updateEmpty();
}

function regroup() {
  resetColumns();
  const t = now();
  for (const card of cards.values()) {
    card.column = '';
    const s = sessions.get(card.id);
    place(card, columnKey(s, t), card.sortKey);
  }
  layoutAll();
}

// ---- filters ----------------------------------------------------------

const fAgent = document.getElementById('f-agent');
const fProject = document.getElementById('f-project');
const fQ = document.getElementById('f-q');

function matches(s) {
  if (ui.agent && s.agent !== ui.agent) return false;
  if (ui.project && s.project !== ui.project) return false;
  if (!ui.q) return true;
  const hay = [s.title, s.project, s.agent, s.id];
  for (const it of s.items || []) hay.push(it.title, it.activeForm);
  return hay.some((x) => x && String(x).toLowerCase().includes(ui.q));
}

// addOption keeps a select's options sorted and unique.
function addOption(select, value, label) {
  if (!value) return;
  for (const o of select.options) if (o.value === value) return;
  const opt = h('option', '', label);
  opt.value = value;
  opt.title = value;
  const after = [...select.options].slice(1).find((o) => o.textContent.localeCompare(label) > 0);
  select.insertBefore(opt, after || null);
}

function noteFilterValue(s) {
  addOption(fAgent, s.agent, s.agent);
  addOption(fProject, s.project, shortProject(s.project));
}

function readFilters() {
  ui.agent = fAgent.value;
  ui.project = fProject.value;
  ui.q = fQ.value.trim().toLowerCase();
  layoutAll();
}

// ---- detail -----------------------------------------------------------

const detail = document.getElementById('detail');
const detailTitle = document.getElementById('detail-title');
const detailBody = document.getElementById('detail-body');

function detailList(items) {
  const ul = h('ul', 'items full detail-items');
  for (const it of items) {
    const g = glyphOf(it);
    const li = h('li', `item st-${g.kind}${it.lossy ? ' lossy' : ''}`);
    li.append(h('span', 'icon', g.icon));
    const body = h('div', 'item-body');
    const line = h('div', 'label', g.label);
    body.append(line);
    const meta = [];
    if (it.id) meta.push(`#${it.id}`);
    meta.push(it.status === 'unknown' && it.rawStatus ? it.rawStatus : it.status);
    if (it.lossy) meta.push('approximate');
    if (it.blockedBy && it.blockedBy.length) meta.push(`blocked by ${it.blockedBy.map((b) => '#' + b).join(', ')}`);
    if (it.owner) meta.push(`owner ${it.owner}`);
    body.append(h('div', 'item-meta', meta.join(' · ')));
    if (it.description) body.append(h('div', 'item-desc', it.description));
    li.append(body);
    ul.append(li);
  }
  if (!items.length) ul.append(h('li', 'item none', 'No list.'));
  return ul;
}

function progressText(p) {
  if (!p || !p.total) return '';
  return `${p.done}/${p.total}`;
}

function renderDetail(s) {
  const t = now();
  const act = activityOf(s, t);
  setText(detailTitle, s.title || s.id);
  const scroll = detailBody.scrollTop;
  const frag = document.createDocumentFragment();

  const tags = h('div', 'detail-tags');
  const badge = h('span', 'badge agent', s.agent || '?');
  badge.style.setProperty('--hue', String(agentHue(s.agent)));
  tags.append(badge, h('span', `state st-${act}`, ACTIVITY_LABEL[act]));
  frag.append(tags);

  const dl = h('dl', 'facts');
  const fact = (k, v) => dl.append(h('dt', '', k), h('dd', '', v));
  fact('Project', s.project || '—');
  fact('Session', s.id);
  fact('Started', localTime(s.startedAt));
  fact('Last activity', `${localTime(s.lastActivity)} (${duration(t - ms(s.lastActivity))} ago)`);
  if (s.stats) {
    const st = s.stats;
    fact('Log', `${st.files} file(s), ${st.lines} lines, ${st.malformed} malformed, ${st.orphans} orphan updates`);
  }
  frag.append(dl);

  frag.append(h('h3', 'detail-h', `Main agent ${progressText(s.progress)}`.trim()));
  frag.append(detailList(s.items || []));

  for (const sub of s.subAgents || []) {
    frag.append(h('h3', 'detail-h', `Sub-agent ${sub.id} ${progressText(sub.progress)}`.trim()));
    frag.append(detailList(sub.items || []));
  }

  if (s.markers && s.markers.length) {
    frag.append(h('h3', 'detail-h', 'Progress markers'));
    const ul = h('ul', 'markers');
    for (const m of s.markers) {
      ul.append(h('li', '', [m.task, m.step].filter(Boolean).join('.') + (m.verb ? ` ${m.verb}` : '')));
    }
    frag.append(ul);
  }
  detailBody.replaceChildren(frag);
  detailBody.scrollTop = scroll;
}

function detailGone() {
  const note = h('p', 'detail-gone', 'This session is no longer in the index.');
  detailBody.prepend(note);
}

async function openDetail(id) {
  const s = sessions.get(id);
  if (!s) return;
  ui.detailId = id;
  renderDetail(s);
  if (!detail.open) detail.showModal();
  try {
    const res = await fetch(`/api/sessions/${encodeURIComponent(id)}`, { headers: { Accept: 'application/json' } });
    if (ui.detailId !== id) return;
    if (res.status === 404) {
      detailGone();
      return;
    }
    if (!res.ok) return;
    const full = await res.json();
    if (ui.detailId === id && full && full.id === id) renderDetail(full);
  } catch (err) {
    console.warn('tally: session detail', err);
  }
}

function closeDetail() {
  ui.detailId = '';
  if (detail.open) detail.close();
}

// ---- live connection --------------------------------------------------

const conn = document.getElementById('conn');
let haveData = false;

function setConn(state, text) {
  conn.dataset.state = state;
  setText(conn, text || state);
}

function parse(e) {
  try {
    return JSON.parse(e.data);
  } catch (err) {
    console.warn('tally: bad event data', e.type, err);
    return null;
  }
}

// connect opens the event stream. EventSource reconnects by itself and
// sends Last-Event-ID, so the server can replay what was missed or send a
// fresh snapshot; only a stream the browser gave up on is reopened here.
function connect(delay = 1000) {
  const es = new EventSource('/api/events');
  es.onopen = () => setConn('live');
  es.onerror = () => {
    if (es.readyState === EventSource.CLOSED) {
      setConn('offline', 'offline — retrying');
      if (!haveData) loadOnce();
      setTimeout(() => connect(Math.min(delay * 2, 30000)), delay);
    } else {
      setConn('reconnecting');
    }
  };
  es.addEventListener('snapshot', (e) => {
    const d = parse(e);
    if (!d) return;
    noteServerNow(d.now);
    haveData = true;
    replaceAll(d.sessions);
    setConn('live');
  });
  es.addEventListener('session_updated', (e) => {
    const d = parse(e);
    if (d) upsert(d);
  });
  es.addEventListener('session_removed', (e) => {
    const d = parse(e);
    if (d && d.id) remove(d.id);
  });
}

// loadOnce shows the list from the plain API while the stream is down.
async function loadOnce() {
  try {
    const res = await fetch('/api/sessions', { headers: { Accept: 'application/json' } });
    if (!res.ok || haveData) return;
    const d = await res.json();
    noteServerNow(d.now);
    haveData = true;
    replaceAll(d.sessions);
  } catch (err) {
    console.warn('tally: session list', err);
  }
}

// ---- time -------------------------------------------------------------

// tickAll updates elapsed times every second and moves a card whose
// activity changed with time alone.
function tickAll() {
  const t = now();
  for (const card of cards.values()) {
    const s = sessions.get(card.id);
    const act = card.tick(s, t);
    if (act !== card.el.dataset.activity) {
      card.patch(s, t);
      place(card, columnKey(s, t), card.sortKey);
    }
  }
  if (ui.detailId && detail.open) {
    const s = sessions.get(ui.detailId);
    if (s) {
      const dd = detailBody.querySelectorAll('.facts dd')[3];
      if (dd) setText(dd, `${localTime(s.lastActivity)} (${duration(t - ms(s.lastActivity))} ago)`);
    }
  }
}

// ---- events from the person -------------------------------------------

board.addEventListener('click', (e) => {
  const target = e.target instanceof Element ? e.target : null;
  if (!target) return;
  const action = target.closest('[data-action]');
  if (action && action.dataset.action === 'column-more') {
    const key = action.closest('.column').dataset.key;
    ui.openColumns.add(key);
    markDirty(key);
    return;
  }
  const el = target.closest('.card');
  if (!el) return;
  const card = cards.get(el.dataset.id);
  if (!card) return;
  if (action && action.dataset.action === 'toggle') {
    card.setFull(!card.full);
    return;
  }
  if (action && action.dataset.action === 'expand') {
    card.setFull(true);
    return;
  }
  // Selecting text on a card (to copy a task title) is not a request to open it.
  if (String(window.getSelection() || '')) return;
  openDetail(card.id);
});

board.addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' && e.key !== ' ') return;
  const el = e.target instanceof Element && e.target.classList.contains('card') ? e.target : null;
  if (!el) return;
  e.preventDefault();
  openDetail(el.dataset.id);
});

document.getElementById('detail-close').addEventListener('click', closeDetail);
detail.addEventListener('close', () => {
  ui.detailId = '';
});
detail.addEventListener('click', (e) => {
  // A click on the backdrop lands on the dialog itself.
  if (e.target === detail) closeDetail();
});

document.getElementById('filters').addEventListener('submit', (e) => e.preventDefault());
fAgent.addEventListener('change', readFilters);
fProject.addEventListener('change', readFilters);
fQ.addEventListener('input', readFilters);
for (const r of document.querySelectorAll('input[name="group"]')) {
  r.checked = r.value === ui.group;
  r.addEventListener('change', () => {
    if (!r.checked || ui.group === r.value) return;
    ui.group = r.value;
    ui.openColumns.clear();
    store('tally.group', ui.group);
    regroup();
  });
}

// ---- start ------------------------------------------------------------

resetColumns();
updateEmpty();
connect();
setInterval(tickAll, 1000);
