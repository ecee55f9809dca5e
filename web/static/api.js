// Requests to the server's JSON API. The token, when the server has one,
// travels in the cookie a visit to /?token= set, so nothing here holds it.

// getJSON fetches path; it returns the response and, when it succeeded,
// its decoded body.
export async function getJSON(path) {
  const res = await fetch(path, { headers: { Accept: 'application/json' } });
  const body = res.ok ? await res.json() : null;
  return { res, body };
}
