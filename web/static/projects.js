// Project names. The server names projects, with the code the command
// line names them with and from the home of the user it runs as, so that
// projects that end alike read differently and only that user's home is
// ~. Names come with every snapshot and session list, and a projects event
// brings those a new project changed. The page never shortens a path
// itself; the whole path is in a tooltip and the detail.
const names = new Map(); // path → name

// projectName is what project p is called: the server's name, or the path
// itself while the server has named it to no one yet.
export function projectName(p) {
  if (!p) return '—';
  return names.get(p) || p;
}

// nameProjects takes the names the server sent (an object of path →
// name); whole replaces every name known (a snapshot, a session list).
// It reports whether a name changed.
export function nameProjects(sent, whole) {
  const entries = Object.entries(sent && typeof sent === 'object' ? sent : {})
    .filter(([, name]) => typeof name === 'string' && name);
  let changed = whole && names.size !== entries.length;
  if (whole) {
    const keep = new Set(entries.map(([p]) => p));
    for (const p of [...names.keys()]) if (!keep.has(p)) names.delete(p);
  }
  for (const [p, name] of entries) {
    if (names.get(p) !== name) {
      names.set(p, name);
      changed = true;
    }
  }
  return changed;
}
