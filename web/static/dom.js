// Building and patching the DOM without markup.
//
// Everything in a session comes from an agent's log and is untrusted, so
// elements are made with createElement and filled with textContent only
// (never innerHTML), and styles go through the CSSOM: the page runs under
// default-src 'self', which forbids inline styles and scripts.
//
// Parts of a card or the detail that are patched later are found by name
// (data-part, data-fact), never by their position among siblings, so that
// adding a row or a badge cannot make an update write into the wrong one.

export function h(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

// named is h with a data-part name to find the element by later.
export function named(name, tag, className, text) {
  const e = h(tag, className, text);
  e.dataset.part = name;
  return e;
}

// part finds the element named name inside root (itself excluded).
export function part(root, name) {
  return root.querySelector(`[data-part="${name}"]`);
}

export function button(className, text, action) {
  const b = h('button', className, text);
  b.type = 'button';
  if (action) b.dataset.action = action;
  return b;
}

export function setText(e, text) {
  const s = String(text ?? '');
  if (e.textContent !== s) e.textContent = s;
}

export function setClass(e, className) {
  if (e.className !== className) e.className = className;
}

export function setTitle(e, title) {
  const s = title || '';
  if (e.title !== s) e.title = s;
}

export function setHidden(e, hidden) {
  if (e.hidden !== hidden) e.hidden = hidden;
}
