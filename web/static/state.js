// The page's state: the sessions as last received, their cards, and what
// the person chose. One module owns it; the others import it.

// stored and store keep a preference; a browser without storage just
// forgets it.
export function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Preferences are a convenience only.
  }
}

export const sessions = new Map(); // id → Session, as last received
export const cards = new Map(); // id → Card
export const plans = new Map(); // project path → its plan, as last received

export const ui = {
  group: '', // a key of GROUPINGS, set at start
  agent: '',
  project: '',
  machine: '',
  user: '',
  q: '',
  // Sessions that never had a list show unless this is on: the board
  // shows every session by default, so its counts are every session's.
  hideNoList: false,
  // Only the sessions that need the person show when this is on.
  needsOnly: false,
  openColumns: new Set(), // columns whose "show all" was clicked
  detailId: '',
};
