// "Needs you": the strip above the board that lists, big enough to read
// from across the room, the sessions waiting for a person — asking for
// input, stalled, looping or blocked — and counts them in the page's title
// so that a background tab says it too. It follows the filters the person
// set, and the clock: a session that stalls joins it with no new event.
import { h, setHidden, setText, setTitle } from './dom.js';
import { activityOf } from './clock.js';
import { chosen } from './filters.js';
import { FLAGS, needsYou, patchBadges } from './flags.js';
import { projectName } from './projects.js';
import { sessions } from './state.js';
import { duration, ms, titleOf } from './words.js';
import { askText, isOpen, newest } from './request.js';

const strip = document.getElementById('needs');
const count = document.getElementById('needs-count');
const list = document.getElementById('needs-list');
const entries = new Map(); // session id → {li, badges, title, why, where}

function entryFor(id) {
  let e = entries.get(id);
  if (e) return e;
  const li = h('li', 'need');
  li.dataset.id = id;
  li.tabIndex = 0;
  const badges = h('div', 'flags need-flags');
  const title = h('div', 'need-title');
  const why = h('div', 'need-why');
  const where = h('div', 'need-where');
  const ask = h('div', 'need-request');
  li.append(badges, title, why, ask, where);
  e = { li, badges, title, why, ask, where };
  entries.set(id, e);
  return e;
}

// rank orders the strip: the most urgent flag first, then the longest
// waiting.
function rank(a, b) {
  const fa = FLAGS.indexOf(a.flags[0].flag);
  const fb = FLAGS.indexOf(b.flags[0].flag);
  if (fa !== fb) return fa - fb;
  return (a.flags[0].at || Infinity) - (b.flags[0].at || Infinity) || a.s.id.localeCompare(b.s.id);
}

// renderNeeds shows the strip as it is at time t, and the page's title.
export function renderNeeds(t) {
  const due = [];
  let working = 0;
  for (const s of sessions.values()) {
    if (activityOf(s, t) === 'working') working++;
    if (!chosen(s)) continue;
    const flags = needsYou(s, t);
    if (flags.length) due.push({ s, flags });
  }
  due.sort(rank);
  const keep = new Set(due.map((d) => d.s.id));
  for (const [id, e] of entries) {
    if (!keep.has(id)) {
      e.li.remove();
      entries.delete(id);
    }
  }
  due.forEach(({ s, flags }, i) => {
    const e = entryFor(s.id);
    patchBadges(e.badges, flags, t);
    setText(e.title, titleOf(s));
    const why = flags.map((x) => x.why).filter(Boolean).join(' · ');
    setText(e.why, why);
    setTitle(e.why, why);
    setHidden(e.why, !why);
    const r = newest(s);
    const open = isOpen(r, t);
    setHidden(e.ask, !open);
    setText(e.ask, open ? `${askText(r)}: ${r.summary || ''} · waiting ${duration(t - ms(r.askedAt))}` : '');
    e.li.dataset.request = open ? r.id : '';
    setText(e.where, [projectName(s.project), s.agent].filter(Boolean).join(' · '));
    setTitle(e.where, s.project || '');
    if (list.children[i] !== e.li) list.insertBefore(e.li, list.children[i] || null);
  });
  setText(count, String(due.length));
  setHidden(strip, due.length === 0);

  let title = working ? `Tally — ${working} working` : 'Tally';
  if (due.length) title = `(${due.length}) ${title}`;
  if (document.title !== title) document.title = title;
}

// initNeeds opens a session's detail when its entry is clicked or chosen
// with the keyboard.
export function initNeeds(open) {
  const pick = (e) => {
    const li = e.target instanceof Element ? e.target.closest('.need') : null;
    if (li) open(li.dataset.id);
  };
  list.addEventListener('click', pick);
  list.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    pick(e);
  });
}
