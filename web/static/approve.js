// Approving a plan. A list Tally keeps itself (tally mcp) may be in plan
// mode, where its tools refuse execution until the person approves the
// plan: with `tally tasks approve NAME`, or the button this module puts on
// the list's card and detail.
import { UNREACHABLE, post, refusal } from './api.js';
import { button, h, named, part, setHidden, setText } from './dom.js';

const LABEL = 'Approve plan';

// awaitingApproval is the name of session s's list when its plan waits
// for approval, else ''.
function awaitingApproval(s) {
  const l = s.taskList;
  return l && l.awaitingApproval && l.name ? l.name : '';
}

// approveRow makes the row with the button; showApprove fills it.
export function approveRow() {
  const row = named('approve', 'div', 'approve-row');
  row.setAttribute('role', 'group');
  row.setAttribute('aria-label', 'Plan approval');
  const b = button('approve-button', LABEL, 'approve');
  b.dataset.part = 'approve-button';
  row.append(h('span', 'approve-text', 'Plan waiting for your approval'), b,
    named('approve-note', 'span', 'approve-note'));
  row.hidden = true;
  return row;
}

// showApprove shows row for session s, or hides it when s waits for no
// approval (and resets a button that was busy approving).
export function showApprove(row, s) {
  const name = awaitingApproval(s);
  setHidden(row, !name);
  row.dataset.list = name;
  if (!name) reset(row);
}

function reset(row) {
  const b = part(row, 'approve-button');
  b.disabled = false;
  setText(b, LABEL);
}

// approve asks the server to approve the plan of row's list. The change
// reaches the page through the event stream like any other, which hides
// the row; on failure the row says why and the button works again.
export async function approve(row) {
  const name = row.dataset.list;
  const b = part(row, 'approve-button');
  const note = part(row, 'approve-note');
  if (!name || b.disabled) return;
  b.disabled = true;
  setText(b, 'Approving…');
  setText(note, '');
  try {
    const { res, body } = await post(`/api/tasks/${encodeURIComponent(name)}/approve`);
    if (res.ok) {
      setText(b, 'Approved');
      return;
    }
    setText(note, refusal(res, body));
  } catch (err) {
    console.warn('tally: approve', err);
    setText(note, UNREACHABLE);
  }
  reset(row);
}
