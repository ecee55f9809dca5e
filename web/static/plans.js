// Projects' plans: the task files agents write beside the code, which Tally
// moves along from the progress markers in their replies. Each plan shows
// as a Blueprint box — done of total tasks and the percentage, then the
// task under way and its step — above its project's sessions: at the top
// of the project's column when the board is grouped by project, else in
// the strip above the board. The box expands (its "Tasks" button) to the
// plan's tasks — status, X/Y steps, the current step, a blocked one with
// why; two columns when long, tasks done folded and only the next planned
// past 100 tasks, as the terminal's Task Panel — and a task opens to its
// steps.
import { button, h, named, part, setHidden, setText, setTitle } from './dom.js';
import { plans, sessions, ui } from './state.js';
import { projectName } from './projects.js';

const strip = document.getElementById('plans');

// expanded are the projects whose box shows its tasks; opened, the tasks
// (project + '\n' + id) showing their steps. Both outlive a redraw.
const expanded = new Set();
const opened = new Set();

// box makes an empty plan box; fill shows a plan in it.
function box(project) {
  const el = h('section', 'plan');
  el.dataset.project = project;
  const head = h('div', 'plan-head');
  const toggle = button('plan-toggle', 'Tasks ▸', 'plan-tasks');
  toggle.dataset.part = 'toggle';
  toggle.setAttribute('aria-expanded', 'false');
  head.append(h('span', 'plan-kind', 'Blueprint'), named('count', 'span', 'plan-count'), toggle);
  const bar = h('div', 'bar');
  bar.setAttribute('role', 'progressbar');
  bar.setAttribute('aria-valuemin', '0');
  bar.append(named('fill', 'span', 'fill'));
  const tasks = named('tasks', 'ol', 'plan-tasks');
  tasks.hidden = true;
  el.append(named('project', 'div', 'plan-project'), head, bar, named('now', 'div', 'plan-now'), tasks);
  el.addEventListener('click', (ev) => {
    const t = ev.target.closest('button');
    if (!t || !el.contains(t)) return;
    const p = el.dataset.project;
    if (t.dataset.action === 'plan-tasks') {
      if (expanded.has(p)) expanded.delete(p);
      else expanded.add(p);
    } else if (t.dataset.task) {
      const key = p + '\n' + t.dataset.task;
      if (opened.has(key)) opened.delete(key);
      else opened.add(key);
    } else {
      return;
    }
    const v = plans.get(p);
    if (v) fillTasks(el, v);
  });
  return el;
}

// The icons of a plan's tasks and steps, as the terminal draws them.
const ICONS = { complete: '✓', active: '→', planned: '○', in_progress: '→', pending: '○', blocked: '⚠' };

// LARGE is the size past which tasks done fold to one line; FOLD the one
// past which only the next NEXT planned tasks are listed.
const LARGE = 10;
const FOLD = 100;
const NEXT = 6;

// rows are the list's entries: a task, or a line that stands for several.
function rows(tasks) {
  const out = [];
  const large = tasks.length > LARGE;
  let next = 0;
  let more = 0;
  for (let i = 0; i < tasks.length; i++) {
    const t = tasks[i];
    if (large && t.status === 'complete') {
      let j = i;
      while (j + 1 < tasks.length && tasks[j + 1].status === 'complete') j++;
      if (j > i) {
        out.push({ text: `✓ ${t.id}–${tasks[j].id} (${j - i + 1} complete)`, status: 'complete' });
        i = j;
        continue;
      }
    }
    if (tasks.length >= FOLD && t.status === 'planned') {
      if (next === NEXT) {
        more++;
        continue;
      }
      next++;
    }
    out.push({ task: t });
  }
  if (more) out.push({ text: `○ …and ${more} more planned`, status: 'planned' });
  return out;
}

// taskRow is one task: a button with its status, id, name and X/Y steps,
// and for the task under way its current step (or why it is blocked).
function taskRow(project, t) {
  const li = h('li', 'plan-task');
  const status = t.blocked ? 'blocked' : t.status;
  li.dataset.status = status;
  const b = button('plan-task-row', '');
  b.dataset.task = t.id;
  const key = project + '\n' + t.id;
  b.setAttribute('aria-expanded', String(opened.has(key)));
  const progress = t.progress || { done: 0, total: (t.steps || []).length };
  b.append(h('span', 'plan-icon', ICONS[status] || '○'), h('span', 'plan-id', t.id), h('span', 'plan-name', t.name),
    h('span', 'plan-steps-count', `${progress.done}/${progress.total}`));
  const cur = (t.steps || []).find((s) => s.id === t.current);
  if (t.blocked) b.append(h('span', 'plan-step', `${t.blocked.step} blocked${t.blocked.reason ? ': ' + t.blocked.reason : ''}`));
  else if (t.status === 'active' && cur) b.append(h('span', 'plan-step', `${cur.id} ${cur.name}`));
  li.append(b);
  if (opened.has(key)) {
    const ul = h('ul', 'plan-steps');
    if (t.goal) ul.append(h('li', 'plan-goal', `Goal: ${t.goal}`));
    for (const s of t.steps || []) {
      const st = t.blocked && t.blocked.step === s.id ? 'blocked' : s.status;
      const si = h('li', 'plan-stepline');
      si.dataset.status = st;
      let text = `${ICONS[st] || '○'} ${s.id} ${s.name}`;
      if (t.status === 'active' && s.id === t.current) text += ' ← current';
      si.append(h('span', '', text));
      if (s.done) si.append(h('span', 'plan-done', `Done: ${s.done}`));
      ul.append(si);
    }
    li.append(ul);
  }
  return li;
}

// fillTasks shows or hides the box's task list.
function fillTasks(el, v) {
  const open = expanded.has(el.dataset.project);
  const toggle = part(el, 'toggle');
  setText(toggle, open ? 'Tasks ▾' : 'Tasks ▸');
  toggle.setAttribute('aria-expanded', String(open));
  setHidden(toggle, !(v.tasks && v.tasks.length));
  el.classList.toggle('expanded', open);
  const list = part(el, 'tasks');
  setHidden(list, !open);
  if (!open) {
    if (list.firstChild) list.replaceChildren();
    return;
  }
  const tasks = v.tasks || [];
  list.classList.toggle('long', tasks.length > LARGE);
  list.replaceChildren(...rows(tasks).map((r) => {
    if (r.task) return taskRow(el.dataset.project, r.task);
    const li = h('li', 'plan-task plan-fold', r.text);
    li.dataset.status = r.status;
    return li;
  }));
  // The quick tasks done beside the plan, as seed 04's /task view counts them.
  if (v.quick) list.append(h('li', 'plan-quick', `Quick: ${v.quick} done`));
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
  fillTasks(el, v);
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
