// The board: one column per group of the chosen grouping, cards in them
// newest first. A card moves only when its column or order changes, so
// scroll position and focus survive every event.
import { h, button, named, setHidden, setText } from './dom.js';
import { now } from './clock.js';
import { Card } from './card.js';
import { countWithoutList, matches, noteFilterValues, renameProjectOptions } from './filters.js';
import { grouping } from './groupings.js';
import { renderNeeds } from './needs.js';
import { columnPlan } from './plans.js';
import { cards, sessions, ui } from './state.js';
import { idIsName, ms, plural, shortIds } from './words.js';

// Cards a column shows before a "show all" button.
const COLUMN_LIMIT = 40;

const board = document.getElementById('board');
const emptyNote = document.getElementById('empty');
const columns = new Map(); // key → {key, el, cards, count, more}

// What the board tells the rest of the page: a session shown or changed,
// and a session gone.
const listeners = { changed: () => {}, removed: () => {} };
export function onSession(changed, removed) {
  listeners.changed = changed;
  listeners.removed = removed;
}

function makeColumn(key) {
  const g = grouping(ui.group);
  const el = h('section', 'column');
  el.dataset.key = key;
  const head = h('header', 'column-head');
  const name = h('h2', 'column-name', g.name(key));
  if (g.hint(key)) name.title = g.hint(key);
  const count = h('span', 'column-count', '0');
  head.append(name, count);
  // Grouped by project, the project's plan heads its sessions.
  const plan = named('plan', 'div', 'column-plan');
  columnPlan(plan, key);
  const list = h('div', 'cards');
  const more = button('column-more', '', 'column-more');
  more.hidden = true;
  el.append(head, plan, list, more);
  const col = { key, el, cards: list, count, more };
  columns.set(key, col);
  return col;
}

function resetColumns() {
  const g = grouping(ui.group);
  columns.clear();
  board.replaceChildren();
  board.dataset.group = g.key;
  board.dataset.layout = g.layout;
  for (const key of g.fixed) board.append(makeColumn(key).el);
}

function columnFor(key) {
  let col = columns.get(key);
  if (col) return col;
  const g = grouping(ui.group);
  col = makeColumn(key);
  // Columns that come and go are kept in name order after the fixed ones.
  const label = g.name(key);
  const after = [...columns.values()].find(
    (c) => c !== col && c.el.isConnected && !g.fixed.includes(c.key) && g.name(c.key).localeCompare(label) > 0,
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
// the column's limit, and drops an empty column the grouping does not fix.
function layoutColumn(col) {
  let shown = 0;
  const limit = ui.openColumns.has(col.key) ? Infinity : COLUMN_LIMIT;
  for (const el of col.cards.children) {
    const s = sessions.get(el.dataset.id);
    const match = s ? matches(s) : false;
    const visible = match && shown < limit;
    if (match) shown++;
    setHidden(el, !visible);
  }
  setText(col.count, String(shown));
  const over = shown - Math.min(shown, limit);
  setHidden(col.more, over <= 0);
  setText(col.more, `Show ${over} more`);
  if (col.cards.children.length === 0 && !grouping(ui.group).fixed.includes(col.key)) {
    col.el.remove();
    columns.delete(col.key);
  }
}

// layoutAll applies changed filters to every column.
export function layoutAll() {
  for (const key of columns.keys()) dirty.add(key);
  flushDirty();
}

// received is set once the server sent the sessions it has: before that,
// an empty board says nothing of the server.
let received = false;

function updateEmpty() {
  let visible = 0;
  for (const col of columns.values()) visible += Number(col.count.textContent) || 0;
  const hidden = countWithoutList(sessions.values());
  if (!received) {
    setText(emptyNote, 'Connecting…');
  } else if (sessions.size === 0) {
    setText(emptyNote, 'No agent sessions yet. A card appears here as soon as an agent writes to its log.');
  } else if (visible === 0 && hidden > 0) {
    setText(emptyNote, `${plural(hidden, 'session')} without a list ${hidden === 1 ? 'is' : 'are'} hidden: untick “Hide those without a list” to see ${hidden === 1 ? 'it' : 'them'}.`);
  } else if (visible === 0) {
    setText(emptyNote, 'No session matches the filters.');
  }
  setHidden(emptyNote, visible > 0);
  renderNeeds(now());
}

// upsert shows session s, creating or patching its card.
export function upsert(s) {
  if (!s || typeof s.id !== 'string' || !s.id) return;
  const json = JSON.stringify(s);
  let card = cards.get(s.id);
  if (card && card.json === json) return;
  sessions.set(s.id, s);
  const added = !card;
  if (!card) {
    card = new Card(s.id);
    cards.set(s.id, card);
  }
  card.json = json;
  const t = now();
  card.patch(s, t);
  place(card, grouping(ui.group).columnOf(s, t), ms(s.startedAt));
  markDirty(card.column);
  noteFilterValues(s);
  if ((added || card.named !== idIsName(s)) && !loading) relabelIds();
  card.named = idIsName(s);
  listeners.changed(s);
}

// loading is set while replaceAll shows a whole list, which relabels once
// at the end.
let loading = false;

// relabelIds shows each card's id as shortIds gives it among the sessions
// on the board: a session coming or going can lengthen or shorten others'.
function relabelIds() {
  const short = shortIds([...sessions.values()]);
  for (const [id, card] of cards) card.setShortId(short.get(id) || id);
}

export function remove(id) {
  const card = cards.get(id);
  sessions.delete(id);
  if (!card) return;
  cards.delete(id);
  card.el.remove();
  if (!loading) relabelIds();
  markDirty(card.column);
  listeners.removed(id);
}

// replaceAll makes the board show exactly list, keeping the cards of
// sessions that did not change untouched.
export function replaceAll(list) {
  const keep = new Set();
  received = true;
  loading = true;
  try {
    for (const s of list || []) {
      if (s && s.id) {
        keep.add(s.id);
        upsert(s);
      }
    }
    for (const id of [...cards.keys()]) if (!keep.has(id)) remove(id);
  } finally {
    loading = false;
  }
  relabelIds();
  updateEmpty();
}

// regroup rebuilds the columns for the grouping ui.group names.
export function regroup() {
  resetColumns();
  const g = grouping(ui.group);
  const t = now();
  for (const card of cards.values()) {
    card.column = '';
    place(card, g.columnOf(sessions.get(card.id), t), card.sortKey);
  }
  layoutAll();
}

// tickCards updates what time alone changes, moves a card whose activity
// changed with time alone, and shows "Needs you" as it now is (a session
// stalls with time alone).
export function tickCards(t) {
  const g = grouping(ui.group);
  for (const card of cards.values()) {
    const s = sessions.get(card.id);
    const needed = card.el.dataset.needs;
    const act = card.tick(s, t);
    if (act !== card.el.dataset.activity) {
      card.patch(s, t);
      place(card, g.columnOf(s, t), card.sortKey);
    }
    if (card.el.dataset.needs !== needed) markDirty(card.column);
  }
  renderNeeds(t);
}

// renameProjects shows every project under the name it now has: on the
// cards, in the filter and, grouped by project, in the columns' heads and
// order.
export function renameProjects() {
  for (const card of cards.values()) {
    const s = sessions.get(card.id);
    if (s) card.nameProject(s);
  }
  renameProjectOptions();
  if (ui.group === 'project') regroup();
}

// showAll lifts the card limit of column key.
export function showAll(key) {
  ui.openColumns.add(key);
  markDirty(key);
}
