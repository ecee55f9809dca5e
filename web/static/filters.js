// The top bar's controls: which sessions show, and how they are grouped.
import { now } from './clock.js';
import { h, setText } from './dom.js';
import { needsYou } from './flags.js';
import { GROUPINGS, grouping } from './groupings.js';
import { store, stored, ui } from './state.js';
import { projectName } from './projects.js';

const fAgent = document.getElementById('f-agent');
const fProject = document.getElementById('f-project');
const fMachine = document.getElementById('f-machine');
const fUser = document.getElementById('f-user');
const fQ = document.getElementById('f-q');
const fNoList = document.getElementById('f-nolist');
const fNeeds = document.getElementById('f-needs');
const noListCount = document.getElementById('nolist-count');
const toggle = document.getElementById('filters-toggle');

// hasList tells whether a session shows a list: items of its own or of a
// sub-agent, tasks in a list it shares with others, or progress markers,
// which say it works through its project's plan. Sessions without one (an
// agent that kept none, a chat that never got going) show unless the
// person hides them.
// A session whose runtime ran tool calls has something to show (its list
// of calls, RUNTIME among subAgents) however it keeps no list.
function hasList(s) {
  return (s.items || []).length > 0 || (s.subAgents || []).some((sub) => (sub.items || []).length > 0) ||
    !!s.tasksIn || (s.markers || []).length > 0;
}

// chosen tells whether s passes the filters the person set.
export function chosen(s) {
  if (ui.agent && s.agent !== ui.agent) return false;
  if (ui.project && s.project !== ui.project) return false;
  if (ui.machine && s.machine !== ui.machine) return false;
  if (ui.user && s.user !== ui.user) return false;
  if (!ui.q) return true;
  const hay = [s.title, s.project, s.agent, s.id, s.machine, s.user];
  for (const it of s.items || []) hay.push(it.title, it.activeForm);
  return hay.some((x) => x && String(x).toLowerCase().includes(ui.q));
}

// matches tells whether session s shows on the board. A session that
// needs the person shows with a list or without; "Needs you only" shows
// those alone.
export function matches(s) {
  if (!chosen(s)) return false;
  const needs = needsYou(s, now()).length > 0;
  if (ui.needsOnly) return needs;
  return needs || !ui.hideNoList || hasList(s);
}

// countWithoutList shows, beside its checkbox, how many sessions the
// filters let through that have no list, so the person knows what the box
// would hide, or hides. It returns how many of them are hidden.
export function countWithoutList(sessions) {
  let n = 0;
  let hidden = 0;
  const t = now();
  for (const s of sessions) {
    if (hasList(s) || !chosen(s)) continue;
    n++;
    if (needsYou(s, t).length === 0) hidden++;
  }
  setText(noListCount, String(n));
  return ui.hideNoList ? hidden : 0;
}

// addOption keeps a select's options sorted and unique.
function addOption(select, value, label) {
  if (!value) return;
  for (const o of select.options) if (o.value === value) return;
  const opt = h('option', '', label);
  opt.value = value;
  opt.title = value;
  placeOption(select, opt);
}

// placeOption puts opt where its label sorts, after the first ("All").
function placeOption(select, opt) {
  const after = [...select.options].slice(1).find((o) => o !== opt && o.textContent.localeCompare(opt.textContent) > 0);
  if (opt.nextSibling !== after || opt.parentNode !== select) select.insertBefore(opt, after || null);
}

// renameProjectOptions shows the projects' names as they now are.
export function renameProjectOptions() {
  for (const opt of [...fProject.options].slice(1)) {
    setText(opt, projectName(opt.value));
    placeOption(fProject, opt);
  }
}

// noteFilterValues offers session s's agent, project, machine and user in
// the selects. The machine and user filters show once a session pushed
// from a machine (a team's board) is there.
export function noteFilterValues(s) {
  addOption(fAgent, s.agent, s.agent);
  addOption(fProject, s.project, projectName(s.project));
  if (s.machine) {
    addOption(fMachine, s.machine, s.machine);
    fMachine.closest('label').hidden = false;
  }
  if (s.user) {
    addOption(fUser, s.user, s.user);
    fUser.closest('label').hidden = false;
  }
}

// labelToggle names, on the control that shows the filters on a narrow
// screen, how many are in use: folded away, they still hide cards.
function labelToggle() {
  const n = [ui.agent, ui.project, ui.machine, ui.user, ui.q, ui.hideNoList, ui.needsOnly].filter(Boolean).length;
  setText(toggle, n ? `Filters · ${n}` : 'Filters');
}

// initFilters wires the filter controls; changed runs after each change.
// On a narrow screen they fold behind one control, so that the header
// does not take the screen.
export function initFilters(changed) {
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    toggle.closest('.topbar').dataset.filters = open ? 'open' : '';
  });
  const read = () => {
    ui.agent = fAgent.value;
    ui.project = fProject.value;
    ui.machine = fMachine.value;
    ui.user = fUser.value;
    ui.q = fQ.value.trim().toLowerCase();
    ui.hideNoList = fNoList.checked;
    ui.needsOnly = fNeeds.checked;
    labelToggle();
    changed();
  };
  document.getElementById('filters').addEventListener('submit', (e) => e.preventDefault());
  fAgent.addEventListener('change', read);
  fProject.addEventListener('change', read);
  fMachine.addEventListener('change', read);
  fUser.addEventListener('change', read);
  fQ.addEventListener('input', read);
  fNoList.addEventListener('change', read);
  fNeeds.addEventListener('change', read);
}

// initGrouping makes one radio button per grouping, chooses the stored
// one, and runs changed when the person picks another.
export function initGrouping(changed) {
  ui.group = grouping(stored('tally.group')).key;
  const box = document.getElementById('group-by');
  for (const g of GROUPINGS) {
    const input = h('input');
    input.type = 'radio';
    input.name = 'group';
    input.value = g.key;
    input.checked = g.key === ui.group;
    input.addEventListener('change', () => {
      if (!input.checked || ui.group === g.key) return;
      ui.group = g.key;
      ui.openColumns.clear();
      store('tally.group', ui.group);
      changed();
    });
    const label = h('label');
    label.append(input, ` ${g.label}`);
    box.append(label);
  }
}
