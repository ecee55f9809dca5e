// The ways the board can be grouped, as a table: the board, the group-by
// control and the styles read a row of it and never ask which one it is.
// A new grouping is one more row.
import { activityOf } from './clock.js';
import { projectName } from './projects.js';
import { ACTIVITIES, activityLabel } from './words.js';

// Each grouping says:
//   key       its name in the group-by control, storage and data-group;
//   label     the control's text;
//   columnOf  the column of session s at time t (activity moves with time);
//   fixed     columns always shown, in this order; other columns appear
//             with their first card, sorted by name, and go with their last;
//   name      a column's heading; hint its tooltip;
//   layout    "lanes" (side by side) or "wrap" (as many rows as needed).
export const GROUPINGS = [
  {
    key: 'activity',
    label: 'Activity',
    columnOf: (s, t) => activityOf(s, t),
    fixed: ACTIVITIES.map((a) => a.key),
    name: activityLabel,
    hint: () => '',
    layout: 'lanes',
  },
  {
    key: 'project',
    label: 'Project',
    columnOf: (s) => s.project || '',
    fixed: [],
    name: projectName,
    hint: (key) => key,
    layout: 'wrap',
  },
  {
    key: 'machine',
    label: 'Machine',
    columnOf: (s) => s.machine || '',
    fixed: [],
    name: (key) => key || 'this server',
    hint: () => '',
    layout: 'wrap',
  },
  {
    key: 'agent',
    label: 'Agent',
    columnOf: (s) => s.agent || '',
    fixed: [],
    name: (key) => key || '?',
    hint: () => '',
    layout: 'wrap',
  },
];

// grouping is the row named key, or the first when there is none.
export function grouping(key) {
  return GROUPINGS.find((g) => g.key === key) || GROUPINGS[0];
}
