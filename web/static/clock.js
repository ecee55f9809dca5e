// The server's clock and its activity thresholds.
//
// The server derives a session's activity when it sends it; afterwards
// time alone moves it on (working turns idle, anything ends). The page ages
// activity with the thresholds the server sends in every snapshot and
// session list, so the rule has one home, in Go. Until they arrive the page
// shows the activity the server derived, unaged.
import { knownActivity, ms } from './words.js';

let skew = 0;
let thresholds = null; // {idleAfterMs, endedAfterMs}

// noteServer reads what a snapshot or a session list says about the clock.
export function noteServer(d) {
  const v = ms(d && d.now);
  if (v) skew = v - Date.now();
  const th = d && d.thresholds;
  if (th && th.idleAfterMs > 0 && th.endedAfterMs > 0) {
    thresholds = { idleAfterMs: th.idleAfterMs, endedAfterMs: th.endedAfterMs };
  }
}

// now is the server's time as near as the page can tell.
export function now() {
  return Date.now() + skew;
}

// currentThresholds is what the page ages activity by, null until the
// server said (the browser test checks it against tally's own).
export function currentThresholds() {
  return thresholds;
}

// activityOf is session s's activity at time t.
export function activityOf(s, t) {
  let a = knownActivity(s.activity) ? s.activity : 'ended';
  if (!thresholds) return a;
  const silent = t - ms(s.lastActivity);
  if (a !== 'ended' && silent > thresholds.endedAfterMs) a = 'ended';
  else if (a === 'working' && silent > thresholds.idleAfterMs) a = 'idle';
  return a;
}
