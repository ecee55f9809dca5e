// The top bar's controls: which sessions show, and how they are grouped.
import { h } from './dom.js';
import { GROUPINGS, grouping } from './groupings.js';
import { store, stored, ui } from './state.js';
import { shortProject } from './words.js';

const fAgent = document.getElementById('f-agent');
const fProject = document.getElementById('f-project');
const fQ = document.getElementById('f-q');

// matches tells whether session s passes the filters.
export function matches(s) {
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

// noteFilterValues offers session s's agent and project in the selects.
export function noteFilterValues(s) {
  addOption(fAgent, s.agent, s.agent);
  addOption(fProject, s.project, shortProject(s.project));
}

// initFilters wires the filter controls; changed runs after each change.
export function initFilters(changed) {
  const read = () => {
    ui.agent = fAgent.value;
    ui.project = fProject.value;
    ui.q = fQ.value.trim().toLowerCase();
    changed();
  };
  document.getElementById('filters').addEventListener('submit', (e) => e.preventDefault());
  fAgent.addEventListener('change', read);
  fProject.addEventListener('change', read);
  fQ.addEventListener('input', read);
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
