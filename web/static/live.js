// The live connection: a Server-Sent Events stream that starts with a
// snapshot (or a replay of what was missed) and then carries every change.
import { getJSON } from './api.js';
import { noteServer } from './clock.js';
import { noteRelay } from './request.js';
import { askToken, needsToken } from './login.js';
import { setText } from './dom.js';
import { remove, renameProjects, replaceAll, upsert } from './board.js';
import { removePlan, renderPlans, replacePlans, upsertPlan } from './plans.js';
import { nameProjects } from './projects.js';

const conn = document.getElementById('conn');
let haveData = false;

function setConn(state, text) {
  conn.dataset.state = state;
  setText(conn, text || state);
}

function parse(e) {
  try {
    return JSON.parse(e.data);
  } catch (err) {
    console.warn('tally: bad event data', e.type, err);
    return null;
  }
}

// connect opens the event stream, once the server takes this browser:
// a server that asks for a token gets one through the form first.
// EventSource reconnects by itself and sends Last-Event-ID, so the server
// can replay what was missed or send a fresh snapshot; only a stream the
// browser gave up on is reopened here, after the same check (a token
// revoked meanwhile is asked for again).
export async function connect(delay = 1000) {
  if (await needsToken()) {
    setConn('offline', 'token needed');
    await askToken();
    delay = 1000;
  }
  open(delay);
}

function open(delay) {
  const es = new EventSource('/api/events');
  es.onopen = () => setConn('live');
  es.onerror = () => {
    if (es.readyState === EventSource.CLOSED) {
      setConn('offline', 'offline — retrying');
      if (!haveData) loadOnce();
      setTimeout(() => connect(Math.min(delay * 2, 30000)), delay);
    } else {
      setConn('reconnecting');
    }
  };
  es.addEventListener('snapshot', (e) => {
    const d = parse(e);
    if (!d) return;
    noteServer(d);
    noteRelay(d);
    haveData = true;
    const renamed = nameProjects(d.projects, true);
    replaceAll(d.sessions);
    if (renamed) renameProjects();
    replacePlans(d.plans);
    setConn('live');
  });
  es.addEventListener('projects', (e) => {
    const d = parse(e);
    if (d && nameProjects(d.names, false)) renameProjects();
  });
  es.addEventListener('session_updated', (e) => {
    const d = parse(e);
    if (d) upsert(d);
  });
  es.addEventListener('session_removed', (e) => {
    const d = parse(e);
    if (d && d.id) remove(d.id);
  });
  es.addEventListener('plan_updated', (e) => {
    upsertPlan(parse(e));
  });
  es.addEventListener('plan_removed', (e) => {
    const d = parse(e);
    if (d && d.project) removePlan(d.project);
  });
}

// loadOnce shows the list from the plain API while the stream is down.
async function loadOnce() {
  try {
    const { body } = await getJSON('/api/sessions');
    if (!body || haveData) return;
    noteServer(body);
    noteRelay(body);
    haveData = true;
    const renamed = nameProjects(body.projects, true);
    replaceAll(body.sessions);
    if (renamed) renameProjects();
    const plans = await getJSON('/api/plans');
    if (plans.body) replacePlans(plans.body.plans);
  } catch (err) {
    console.warn('tally: session list', err);
  }
}
