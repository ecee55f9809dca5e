// The token form. A server whose store holds tokens answers 401 until the
// browser has one; the form asks for it once and posts it to /api/login,
// which keeps it in an HttpOnly cookie that every later request, the
// event stream included, carries. The page itself never stores it.
import { UNREACHABLE, getJSON, postJSON, refusal } from './api.js';
import { setText } from './dom.js';

const dialog = document.getElementById('login');
const form = document.getElementById('login-form');
const input = document.getElementById('login-token');
const error = document.getElementById('login-error');

let waiting = null; // resolves when a token was accepted

// needsToken tells whether the server refuses this browser for want of a
// token.
export async function needsToken() {
  try {
    const { res } = await getJSON('/api/sessions?limit=1');
    return res.status === 401;
  } catch {
    return false; // unreachable: the stream's own retries deal with it
  }
}

// askToken shows the form and resolves once the server took a token.
export function askToken() {
  if (waiting) return waiting.promise;
  let resolve;
  const promise = new Promise((r) => { resolve = r; });
  waiting = { promise, resolve };
  setText(error, '');
  if (!dialog.open) dialog.showModal();
  input.focus();
  return promise;
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const token = input.value.trim();
  if (!token) return;
  setText(error, '');
  try {
    const { res, body } = await postJSON('/api/login', { token });
    if (!res.ok) {
      setText(error, res.status === 401 ? 'The server does not know this token.' : refusal(res, body));
      return;
    }
  } catch {
    setText(error, UNREACHABLE);
    return;
  }
  input.value = '';
  dialog.close();
  const w = waiting;
  waiting = null;
  if (w) w.resolve();
});

// A person cannot dismiss the form: without a token there is nothing to show.
dialog.addEventListener('cancel', (e) => e.preventDefault());
