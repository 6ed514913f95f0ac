// Protocol 2 (docs/protocol.md, "Protocol 2: deltas"): after the whole
// state, the server sends only what changed for this seat:
//   {type: 'delta', v, base, set: {PATH: VALUE}, gone: [PATH], copy: {PATH: PATH},
//    add: {PATH: [ENTRY]}, push: {PATH: {MEMBER: [AT, ENTRY]}}}
// applied in that order; copy reads its sources from the state held
// before the delta.
// A PATH is a state field ('seq') or a field and one of its members
// ('view.turn'). This is the page's one reducer; the Go clients' is
// server/wire/held.go, and web's TestStateDeltaJS checks that the two
// agree. It never changes the state it is given (the page may still be
// showing it): what changes is copied first.

// PROTOCOL is the protocol the page speaks (its hello says so).
export const PROTOCOL = 2;

// OPS are the delta ops beyond set, gone and add that applyDelta applies
// (its hello says so; a page that does not is sent whole states instead).
export const OPS = ['copy', 'push'];

// applyDelta returns the state after delta, applied to held (a whole
// state with its version v, or the result of an earlier applyDelta), or
// null when it cannot be applied: held is not the version the delta
// starts from, or the delta is not one (the page then asks for the whole
// state, {type: 'resync'}).
export function applyDelta(held, delta) {
  if (!held || typeof held.v !== 'number' || !delta || delta.base !== held.v || typeof delta.v !== 'number') return null;
  const next = Object.assign({}, held);
  const fresh = new Set(); // the objects of next already copied (or new)
  const bad = (k) => typeof k !== 'string' || k === '' || k === '__proto__' || k === 'constructor' || k === 'prototype';
  // at returns [the object holding path's last key, that key], copying
  // the member object on the way; null for a path next has no place for.
  const at = (path) => {
    const dot = path.indexOf('.');
    if (dot < 0) return bad(path) ? null : [next, path];
    const top = path.slice(0, dot);
    const key = path.slice(dot + 1);
    if (bad(top) || bad(key) || key.indexOf('.') >= 0) return null;
    const obj = next[top];
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return null;
    if (!fresh.has(top)) {
      next[top] = Object.assign({}, obj);
      fresh.add(top);
    }
    return [next[top], key];
  };
  // get is the value at path in held, before the delta (undefined: none).
  const get = (path) => {
    if (typeof path !== 'string') return undefined;
    const dot = path.indexOf('.');
    if (dot < 0) return bad(path) ? undefined : held[path];
    const obj = held[path.slice(0, dot)];
    const key = path.slice(dot + 1);
    if (!obj || typeof obj !== 'object' || Array.isArray(obj) || bad(key)) return undefined;
    return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
  };
  const copies = Object.entries(delta.copy || {}).map(([path, src]) => [path, get(src)]);
  for (const [path, value] of Object.entries(delta.set || {})) {
    const place = at(path);
    if (!place) return null;
    place[0][place[1]] = value;
    if (place[0] === next) fresh.add(path); // a new value: its members may change below
  }
  for (const path of delta.gone || []) {
    const place = at(path);
    if (!place || !Object.prototype.hasOwnProperty.call(place[0], place[1])) return null;
    delete place[0][place[1]];
  }
  for (const [path, value] of copies) {
    const place = at(path);
    if (!place || value === undefined) return null;
    place[0][place[1]] = value; // shared with held: nothing below changes an array or object in place
  }
  for (const [path, entries] of Object.entries(delta.add || {})) {
    const place = at(path);
    if (!place || !Array.isArray(place[0][place[1]]) || !Array.isArray(entries)) return null;
    place[0][place[1]] = place[0][place[1]].concat(entries);
  }
  for (const [path, ins] of Object.entries(delta.push || {})) {
    const place = at(path);
    const obj = place && place[0][place[1]];
    if (!obj || typeof obj !== 'object' || Array.isArray(obj) || !ins || typeof ins !== 'object') return null;
    const out = Object.assign({}, obj);
    for (const [k, pair] of Object.entries(ins)) {
      if (bad(k) || !Array.isArray(out[k]) || !Array.isArray(pair) || pair.length !== 2) return null;
      const [i, entry] = pair;
      if (!Number.isInteger(i) || i < 0 || i > out[k].length) return null;
      out[k] = out[k].slice(0, i).concat([entry], out[k].slice(i));
    }
    place[0][place[1]] = out;
  }
  next.v = delta.v;
  return next;
}
