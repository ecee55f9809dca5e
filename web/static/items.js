// A session's list as rows: one icon per status, as Claude Code's own
// terminal UI draws its list, and the compact form that folds finished work.
import { button, h, named, part, setClass, setText, setTitle } from './dom.js';
import { statusWord } from './words.js';

// Open items a compact card shows before folding the rest.
const COMPACT_OPEN_MAX = 6;

const GLYPH = {
  active: '◼', pending: '◻', done: '✓', blocked: '▸', stopped: '✗', unknown: '?',
};

// glyphOf maps an item to its icon, row kind and the text to show: the
// item's present-tense form while it is worked on, else its title.
export function glyphOf(it) {
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
  return { icon: GLYPH.unknown, kind: 'unknown', label: `${title} (${statusWord(it)})` };
}

// titlesOf maps the ids of a list's items to their titles, so that a
// blocker is named as the agent named it, as tally.TitlesOf does.
export function titlesOf(items) {
  const titles = new Map();
  for (const it of items) if (it.id && it.title) titles.set(it.id, it.title);
  return titles;
}

// itemFacts are the short facts of an item besides its text, in words;
// titles (titlesOf its list) names its blockers.
export function itemFacts(it, titles) {
  const facts = [];
  if (it.id) facts.push(`#${it.id}`);
  facts.push(statusWord(it));
  if (it.lossy) facts.push('approximate');
  if (it.blockedBy && it.blockedBy.length) {
    facts.push(`blocked by ${it.blockedBy.map((b) => (titles && titles.get(b)) || '#' + b).join(', ')}`);
  }
  if (it.owner) facts.push(`owner ${it.owner}`);
  return facts;
}

function itemHint(it, titles) {
  const lines = [it.title || '', itemFacts(it, titles).join(' · ')];
  if (it.description) lines.push(it.description);
  return lines.join('\n');
}

// rowsFor is the list a card shows: all items in full mode; in compact mode
// the open ones (capped) and one "… +N done" row for the rest.
export function rowsFor(items, full) {
  const titles = titlesOf(items);
  if (full) return items.map((it) => ({ item: it, titles }));
  const rows = [];
  let done = 0;
  let cancelled = 0;
  let hiddenOpen = 0;
  for (const it of items) {
    if (it.status === 'completed') done++;
    else if (it.status === 'cancelled') cancelled++;
    else if (rows.length < COMPACT_OPEN_MAX) rows.push({ item: it, titles });
    else hiddenOpen++;
  }
  const folded = [];
  if (hiddenOpen) folded.push(`+${hiddenOpen} more`);
  if (done) folded.push(`+${done} done`);
  if (cancelled) folded.push(`+${cancelled} cancelled`);
  if (folded.length) rows.push({ more: '… ' + folded.join(' · ') });
  return rows;
}

// patchRows makes ul show rows, reusing its <li>s in order so an update
// rewrites only the rows that changed. A row's parts are found by name.
export function patchRows(ul, rows) {
  while (ul.children.length > rows.length) ul.lastElementChild.remove();
  rows.forEach((row, i) => {
    let li = ul.children[i];
    if (!li) {
      li = h('li');
      ul.append(li);
    }
    const kind = row.more ? 'more' : 'item';
    if (li.dataset.row !== kind) {
      li.dataset.row = kind;
      if (row.more) {
        const more = button('more-button', '', 'expand');
        more.dataset.part = 'more';
        li.replaceChildren(more);
      } else {
        li.replaceChildren(named('icon', 'span', 'icon'), named('label', 'span', 'label'));
      }
    }
    if (row.more) {
      setClass(li, 'item more');
      setText(part(li, 'more'), row.more);
      setTitle(li, '');
      return;
    }
    const g = glyphOf(row.item);
    setClass(li, `item st-${g.kind}${row.item.lossy ? ' lossy' : ''}`);
    setText(part(li, 'icon'), g.icon);
    setText(part(li, 'label'), g.label);
    setTitle(li, itemHint(row.item, row.titles));
  });
}

