// Detection's flags as a person reads them: badges in words, most urgent
// first, each with how long it has been true.
//
// The server sends each session's flags as derived when it sent them
// ({needs_input: since, …}) and, for a working session, stallAt: when it
// counts as stalled if nothing new comes. Time alone makes a session
// stalled, so the page derives that flag from stallAt at its own clock,
// as the server's rule does (tally.Record.FlagsAt): from stallAt on, until
// the session ends by the clock.
import { h, setHidden, setText, setTitle } from './dom.js';
import { activityOf } from './clock.js';
import { localTime, ms } from './words.js';

// FLAGS in urgency order, as the server lists them (tally.AllFlags):
//   label  the badge's words;
//   timed  the badge shows how long (a wait or a silence a person can act
//          on); the others say it in their tooltip only;
//   lane   the flag puts the session in "Needs you";
//   tone   the colour, as the terminal draws the flag: red calls a person
//          now, amber asks for a look, green is good news.
export const FLAGS = [
  { key: 'needs_input', label: 'Needs you', timed: true, lane: true, tone: 'now' },
  { key: 'stalled', label: 'Stalled', timed: true, lane: true, tone: 'now' },
  { key: 'looping', label: 'Looping', timed: false, lane: true, tone: 'now' },
  { key: 'no_progress', label: 'No progress', timed: false, lane: false, tone: 'look' },
  { key: 'blocked', label: 'Blocked', timed: false, lane: true, tone: 'look' },
  { key: 'finished', label: 'Finished', timed: false, lane: false, tone: 'good' },
];

// LIST_DONE is the finished flag of a session still at work: its list is
// all done, but the agent goes on (it wraps up, or starts anew), so the
// card reads one state — "Working", its list done — as its column does,
// not "Finished" in the Working column.
const LIST_DONE = { ...FLAGS.find((f) => f.key === 'finished'), label: 'List done' };

// since is a span of time in its largest unit: "42s", "3m", "2h", "3d".
export function since(spanMs) {
  const s = Math.max(0, Math.floor(spanMs / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

// flagsOf is session s's flags at time t, most urgent first: [{flag, at,
// why}] with at in milliseconds (0 when the server did not say) and why
// the reason the server gave (a blocked session's blockedReason), else ''.
export function flagsOf(s, t) {
  const sent = s.flags && typeof s.flags === 'object' ? s.flags : {};
  const out = [];
  for (const f of FLAGS) {
    let on = Object.hasOwn(sent, f.key);
    let at = on ? ms(sent[f.key]) : 0;
    if (f.key === 'stalled' && s.stallAt) {
      const due = ms(s.stallAt);
      on = due > 0 && t >= due && activityOf(s, t) !== 'ended';
      at = due;
    }
    if (!on) continue;
    const why = f.key === 'blocked' && typeof s.blockedReason === 'string' ? s.blockedReason : '';
    out.push({ flag: f.key === 'finished' && activityOf(s, t) === 'working' ? LIST_DONE : f, at, why });
  }
  return out;
}

// needsYou is the flags that put session s in "Needs you" at time t, most
// urgent first; none once the session has ended.
export function needsYou(s, t) {
  if (activityOf(s, t) === 'ended') return [];
  return flagsOf(s, t).filter((x) => x.flag.lane);
}

// badgeText is one flag's words: "Needs you · 3m", "Looping".
export function badgeText(x, t) {
  return x.flag.timed && x.at ? `${x.flag.label} · ${since(t - x.at)}` : x.flag.label;
}

// sinceText is when a flag became true, as the detail and tooltips say it.
function sinceText(x, t) {
  return x.at ? `since ${localTime(new Date(x.at).toISOString())} (${since(t - x.at)} ago)` : '';
}

// whyText is why a flag is true and since when: "Update README waits on
// Add unit test · since 14:06 (3m ago)".
export function whyText(x, t) {
  return [x.why, sinceText(x, t)].filter(Boolean).join(' · ');
}

// patchBadges makes box hold one badge per flag in list, reusing the
// badges it holds, so a tick rewrites only the words that changed.
export function patchBadges(box, list, t) {
  while (box.children.length > list.length) box.lastElementChild.remove();
  list.forEach((x, i) => {
    let b = box.children[i];
    if (!b) {
      b = h('span', 'badge flag');
      box.append(b);
    }
    b.dataset.flag = x.flag.key;
    b.dataset.tone = x.flag.tone;
    setText(b, badgeText(x, t));
    setTitle(b, whyText(x, t));
  });
  setHidden(box, list.length === 0);
}
