// Tally's dashboard: a Kanban of live agent sessions fed by Server-Sent
// Events. Plain ES modules, served as they are from the binary:
//
//   app.js        this file: wires the modules and the person's clicks
//   live.js       the event stream and its reconnection
//   board.js      columns and the cards in them
//   groupings.js  the ways to group the board, as a table
//   plans.js      projects' plans above their sessions
//   needs.js      the "Needs you" strip and the page's title
//   card.js       one session's card
//   flags.js      detection's flags as badges, aged by the clock
//   approve.js    the button that approves a plan-mode list
//   request.js    an agent's request (a permission, a plan): Allow / Deny
//   items.js      a list as rows, compact or full
//   detail.js     the dialog with one session whole
//   filters.js    the top bar's filters and group-by control
//   login.js      the token form, for a server that asks for one
//   clock.js      the server's clock and activity thresholds
//   words.js      words and time spans as a person reads them
//   projects.js   the projects' names, as the server sends them
//   dom.js        building elements with textContent only
//   state.js      the sessions, cards and choices of this page
//   api.js        requests to the JSON API
import { approve } from './approve.js';
import { onRequestAction } from './request.js';
import { layoutAll, onSession, regroup, showAll, tickCards } from './board.js';
import { now } from './clock.js';
import { initDetail, openDetail, sessionChanged, sessionRemoved, tickDetail } from './detail.js';
import { initFilters, initGrouping } from './filters.js';
import { connect } from './live.js';
import { initNeeds } from './needs.js';
import { renderPlans } from './plans.js';
import { cards, sessions } from './state.js';

const board = document.getElementById('board');

board.addEventListener('click', (e) => {
  const target = e.target instanceof Element ? e.target : null;
  if (!target) return;
  const action = target.closest('[data-action]');
  const verb = action ? action.dataset.action : '';
  if (verb === 'column-more') {
    showAll(action.closest('.column').dataset.key);
    return;
  }
  const el = target.closest('.card');
  const card = el && cards.get(el.dataset.id);
  if (!card) return;
  if (verb === 'approve') {
    approve(action.closest('[data-part="approve"]'));
    return;
  }
  if (onRequestAction(action)) return;
  // Typing a message to the agent is not a request to open the card.
  if (target.closest('[data-part="request-form"]')) return;
  if (verb === 'toggle' || verb === 'expand') {
    card.setFull(verb === 'toggle' ? !card.full : true, sessions.get(card.id));
    return;
  }
  // Selecting text on a card (to copy a task title) is not a request to open it.
  if (String(window.getSelection() || '')) return;
  openDetail(card.id);
});

board.addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' && e.key !== ' ') return;
  const el = e.target instanceof Element && e.target.classList.contains('card') ? e.target : null;
  if (!el) return;
  e.preventDefault();
  openDetail(el.dataset.id);
});

// A link to the board naming a session (?session=ID: a notification's, for
// its request) opens that session's detail as soon as the board holds it.
let toOpen = new URLSearchParams(window.location.search).get('session') || '';
onSession((s) => {
  sessionChanged(s);
  if (toOpen && s.id === toOpen) {
    toOpen = '';
    openDetail(s.id);
  }
}, sessionRemoved);
initDetail();
initNeeds(openDetail);
initFilters(() => {
  layoutAll();
  renderPlans();
});
initGrouping(() => {
  regroup();
  renderPlans();
});
regroup();
connect();
setInterval(() => {
  const t = now();
  tickCards(t);
  tickDetail(t);
}, 1000);
