// Projects' plans: the task files agents write beside the code, which Tally
// moves along from the progress markers in their replies. Each plan shows
// as a Blueprint box — done of total tasks and the percentage, then the
// task under way and its step — above its project's sessions: at the top
// of the project's column when the board is grouped by project, else in
// the strip above the board.
import { h, named, part, setHidden, setText, setTitle } from './dom.js';
import { plans, sessions, ui } from './state.js';
import { projectName } from './projects.js';

const strip = document.getElementById('plans');

// box makes an empty plan box; fill shows a plan in it.
function box(project) {
  const el = h('section', 'plan');
  el.dataset.project = project;
  const head = h('div', 'plan-head');
  head.append(h('span', 'plan-kind', 'Blueprint'), named('count', 'span', 'plan-count'));
  const bar = h('div', 'bar');
  bar.setAttribute('role', 'progressbar');
  bar.setAttribute('aria-valuemin', '0');
  bar.append(named('fill', 'span', 'fill'));
  el.append(named('project', 'div', 'plan-project'), head, bar, named('now', 'div', 'plan-now'));
  return el;
}

// nowLine says where the plan is: the task under way and its step, a
// blocked step and why, or the plan's own line ("Planning…", "✓ 5/5
// Complete") when no task is under way.
function nowLine(v) {
  const a = v.active;
  if (!a) return v.line || '';
  let text = `→ ${a.id} ${a.name} ${a.done}/${a.total}`;
  if (a.stepId) text += ` · ${a.stepId} ${a.stepName || ''}`.trimEnd();
  if (v.blocked) text = `⚠ ${a.id} ${v.blocked.step} blocked${v.blocked.reason ? ': ' + v.blocked.reason : ''}`;
  return text;
}

function fill(el, v, withProject) {
  const p = part(el, 'project');
  setHidden(p, !withProject);
  setText(p, projectName(v.project));
  setTitle(p, v.project);
  setText(part(el, 'count'), `${v.done}/${v.total} · ${v.percent}%`);
  const bar = part(el, 'fill').parentNode;
  bar.setAttribute('aria-valuemax', String(v.total));
  bar.setAttribute('aria-valuenow', String(v.done));
  part(el, 'fill').style.width = `${v.total ? (100 * v.done) / v.total : 0}%`;
  const now = part(el, 'now');
  setText(now, nowLine(v));
  now.dataset.stage = v.stage || '';
  setTitle(el, `${v.line}\n${v.folder}`);
}

// columnPlan fills the plan slot of project's column (grouped by project).
export function columnPlan(slot, project) {
  const v = ui.group === 'project' ? plans.get(project) : null;
  if (!v) {
    if (slot.firstChild) slot.replaceChildren();
    return;
  }
  let el = slot.firstChild;
  if (!el) {
    el = box(project);
    slot.append(el);
  }
  fill(el, v, false);
}

// shownProjects are the projects whose plans the strip shows: those of the
// sessions on the board, the project filter applied.
function shownProjects() {
  const out = new Set();
  for (const s of sessions.values()) {
    if (s.project && plans.has(s.project) && (!ui.project || ui.project === s.project)) out.add(s.project);
  }
  return [...out].sort((a, b) => projectName(a).localeCompare(projectName(b)));
}

// renderPlans shows every plan where the grouping puts it.
export function renderPlans() {
  for (const slot of document.querySelectorAll('.column-plan')) {
    columnPlan(slot, slot.closest('.column').dataset.key);
  }
  const byProject = ui.group === 'project';
  const want = byProject ? [] : shownProjects();
  const have = new Map([...strip.children].map((el) => [el.dataset.project, el]));
  for (const [project, el] of have) if (!want.includes(project)) el.remove();
  let prev = null;
  for (const project of want) {
    let el = have.get(project);
    if (!el) el = box(project);
    fill(el, plans.get(project), true);
    const next = prev ? prev.nextSibling : strip.firstChild;
    if (next !== el) strip.insertBefore(el, next);
    prev = el;
  }
  setHidden(strip, want.length === 0);
}

// The stream's plan events.
export function replacePlans(list) {
  plans.clear();
  for (const v of list || []) if (v && v.project) plans.set(v.project, v);
  renderPlans();
}

export function upsertPlan(v) {
  if (!v || !v.project) return;
  plans.set(v.project, v);
  renderPlans();
}

export function removePlan(project) {
  if (plans.delete(project)) renderPlans();
}
