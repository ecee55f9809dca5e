// One session's card. It is patched in place: an update changes only the
// text and rows that differ, so focus and the card's compact/full choice
// survive every event.
import { button, h, named, setClass, setHidden, setText, setTitle } from './dom.js';
import { approveRow, showApprove } from './approve.js';
import { requestRow, showRequest } from './request.js';
import { activityOf } from './clock.js';
import { flagsOf, needsYou, patchBadges } from './flags.js';
import { patchRows, rowsFor } from './items.js';
import { projectName } from './projects.js';
import {
  NO_LIST_TOOL, activityLabel, activityTimer, agentHue, duration, keptNoList, localTime, ms, originOf, plural,
  RUNTIME, runtimeText, spinnerText, titleOf,
} from './words.js';

// timerOf is the one time a card shows (which one depends on the
// activity), and a tooltip with the rest.
function timerOf(s, act, t) {
  const start = ms(s.startedAt);
  const last = ms(s.lastActivity);
  const hint = [`started ${localTime(s.startedAt)}`, `last activity ${localTime(s.lastActivity)}`];
  if (start && last) hint.push(`ran ${duration(last - start)}`);
  if (!start || !last) return { text: '', hint: hint.join('\n') };
  return { text: activityTimer(act, t - start, t - last), hint: hint.join('\n') };
}

export class Card {
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
    this.agent = named('agent', 'span', 'badge agent');
    this.state = named('state', 'span', 'state');
    this.subs = named('subs', 'span', 'badge subs');
    this.subs.hidden = true;
    this.sid = named('sid', 'code', 'sid');
    this.timer = named('timer', 'time', 'elapsed');
    head.append(this.agent, this.sid, this.state, this.subs, this.timer);
    this.flags = named('flags', 'div', 'flags');
    this.flags.hidden = true;

    this.project = named('project', 'div', 'project');
    this.origin = named('origin', 'div', 'origin');
    this.origin.hidden = true;
    this.title = named('title', 'h3', 'title');

    this.progress = h('div', 'progress');
    this.count = named('count', 'span', 'count');
    this.bar = h('div', 'bar');
    this.bar.setAttribute('role', 'progressbar');
    this.bar.setAttribute('aria-valuemin', '0');
    this.fill = h('span', 'fill');
    this.bar.append(this.fill);
    this.toggle = button('toggle', 'Full list', 'toggle');
    this.toggle.setAttribute('aria-pressed', 'false');
    this.progress.append(this.count, this.bar, this.toggle);

    this.list = named('items', 'ul', 'items');
    this.spinner = h('div', 'spinner-row');
    this.spinnerText = named('spinner-text', 'span', 'spinner-text');
    this.spinner.append(h('span', 'spinner'), this.spinnerText);

    this.approve = approveRow();
    this.request = requestRow();

    el.append(head, this.flags, this.project, this.origin, this.title, this.request, this.approve, this.progress, this.list, this.spinner);
  }

  // patch shows session s at time t; it touches only what differs.
  patch(s, t) {
    const act = activityOf(s, t);
    this.el.dataset.activity = act;
    this.el.dataset.agent = s.agent || '';
    setText(this.agent, s.agent || '?');
    this.agent.style.setProperty('--hue', String(agentHue(s.agent)));
    setText(this.state, activityLabel(act));
    setClass(this.state, `state st-${act}`);

    // A plan proposed for approval (list "proposal") is no sub-agent, nor
    // are the runtime's calls (RUNTIME); the
    // session's Tally list (tally mcp's, named after the session) is shown
    // with it, beside its sub-agents' lists.
    const proposal = (s.subAgents || []).find((sub) => sub.id === 'proposal');
    const nSubs = (s.subAgents || []).filter((sub) => !sub.tally && sub !== proposal && sub.id !== RUNTIME).length;
    const own = (s.subAgents || []).find((sub) => sub.tally);
    const badge = [nSubs ? `+${nSubs} sub` : '', own ? `Tally ${own.progress?.done ?? 0}/${own.progress?.total ?? 0}` : '']
      .filter(Boolean).join(' · ');
    setHidden(this.subs, !badge);
    setText(this.subs, badge);
    setTitle(this.subs, [nSubs ? plural(nSubs, 'sub-agent') : '', own ? 'its Tally list' : ''].filter(Boolean).join(' and ') +
      ' — open for their lists');

    this.nameProject(s);
    const origin = originOf(s);
    setHidden(this.origin, !origin);
    setText(this.origin, origin);
    setTitle(this.origin, origin ? `pushed from ${s.machine || '?'} by ${s.user || '?'}` : '');
    setText(this.title, titleOf(s));
    setTitle(this.title, s.title || '');
    showApprove(this.approve, s);
    showRequest(this.request, s, t);

    const items = s.items || [];
    const p = s.progress || { done: 0, total: 0 };
    const has = items.length > 0;
    setHidden(this.progress, !has);
    setHidden(this.list, !has);
    setHidden(this.spinner, has);
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
    } else if (proposal) {
      // The plan waits for the person: its steps are in the tooltip and the detail.
      const steps = proposal.items || [];
      setText(this.spinnerText, `${proposal.name || 'Plan proposed'} · ${plural(steps.length, 'step')}`);
      setTitle(this.spinner, steps.map((it) => it.title).join('\n'));
      this.spinner.dataset.activity = act;
    } else if (s.tasksIn) {
      setText(this.spinnerText, `Tasks in the shared list ${s.tasksIn}`);
      setTitle(this.spinner, '');
      this.spinner.dataset.activity = act;
    } else if (runtimeText(s)) {
      // No list, but the runtime says what the session does: the board
      // never goes empty.
      setText(this.spinnerText, runtimeText(s));
      setTitle(this.spinner, keptNoList(s) ? `${NO_LIST_TOOL}. ${s.listToolsHint || ''}`.trim() : 'its tool calls, not a list the agent keeps');
      this.spinner.dataset.activity = s.runtime.running ? act : 'none';
    } else if (keptNoList(s)) {
      // Not "no list yet": this agent had no tool to keep one with.
      setText(this.spinnerText, NO_LIST_TOOL);
      setTitle(this.spinner, s.listToolsHint || '');
      this.spinner.dataset.activity = 'none';
    } else {
      setText(this.spinnerText, spinnerText(act));
      setTitle(this.spinner, '');
      this.spinner.dataset.activity = act;
    }
    this.tick(s, t);
  }

  // nameProject shows the name of s's project, its path in the tooltip.
  nameProject(s) {
    setText(this.project, projectName(s.project));
    setTitle(this.project, s.project || '');
  }

  // setShortId shows the id the session goes by on this board (see
  // shortIds); its whole id is in the tooltip.
  setShortId(short) {
    setText(this.sid, short);
    setTitle(this.sid, this.id);
  }

  renderList(items) {
    this.list.classList.toggle('full', this.full);
    this.toggle.setAttribute('aria-pressed', String(this.full));
    setText(this.toggle, this.full ? 'Compact' : 'Full list');
    patchRows(this.list, rowsFor(items, this.full));
  }

  setFull(full, s) {
    this.full = full;
    if (s) this.renderList(s.items || []);
  }

  // tick refreshes what time alone changes — the timer, the flags' ages,
  // a stall — and returns the activity now.
  tick(s, t) {
    const act = activityOf(s, t);
    const timer = timerOf(s, act, t);
    setText(this.timer, timer.text);
    setTitle(this.timer, timer.hint);
    patchBadges(this.flags, flagsOf(s, t), t);
    showRequest(this.request, s, t);
    const needs = needsYou(s, t).length > 0;
    if (needs !== (this.el.dataset.needs === 'yes')) this.el.dataset.needs = needs ? 'yes' : 'no';
    return act;
  }
}
