// Requests to the server's JSON API. The token, when the server asks for
// one, travels in the cookie the login (login.js, or a visit to /?token=)
// set, so nothing here holds it.

// getJSON fetches path; it returns the response and, when it succeeded,
// its decoded body.
export async function getJSON(path) {
  const res = await fetch(path, { headers: { Accept: 'application/json' } });
  const body = res.ok ? await res.json() : null;
  return { res, body };
}

// post sends a write: a POST with no body, which the server accepts only
// from this page's own origin and, when it has a token, with the token's
// cookie. It returns the response and its decoded body, if any.
export async function post(path) {
  const res = await fetch(path, { method: 'POST', headers: { Accept: 'application/json' } });
  const body = await res.json().catch(() => null);
  return { res, body };
}

// postJSON sends value as a JSON body; it returns the response and its
// decoded body, if any.
export async function postJSON(path, value) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(value),
  });
  const body = await res.json().catch(() => null);
  return { res, body };
}

// refusal is what a write the server refused says to a person: the
// server's own words, else its status.
export function refusal(res, body) {
  return (body && body.error) || `The server answered ${res.status}.`;
}

// UNREACHABLE is what a write says when the server could not be reached.
export const UNREACHABLE = 'The server could not be reached.';
