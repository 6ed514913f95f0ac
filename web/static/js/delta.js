// The changes the server sends of a document it keeps a page up to date
// with (server/delta; docs/protocol.md, "Changes"): each op is
// [path, value], setting the place path names to value, or [path],
// removing it. A path lists object keys and array indices from the root;
// setting an array's index equal to its length appends, removing index i
// cuts the array to length i. The Go package's tests check that this
// gives what the server's Diff was made from.

// applyOps applies ops to doc in order and returns the document (doc is
// changed in place; an op on the root path gives another). An op whose
// path names no place throws, so the page asks for the whole again.
export function applyOps(doc, ops) {
  for (const op of ops) {
    const path = op[0];
    if (!Array.isArray(path)) throw new Error('a change without a path');
    if (path.length === 0) {
      doc = op.length > 1 ? op[1] : null;
      continue;
    }
    let cur = doc;
    for (let i = 0; i < path.length - 1; i++) {
      cur = step(cur, path[i]);
    }
    const k = path[path.length - 1];
    if (Array.isArray(cur)) {
      if (!Number.isInteger(k) || k < 0 || k > cur.length) throw new Error('no index ' + k);
      if (op.length > 1) cur[k] = op[1];
      else cur.length = k;
    } else if (cur !== null && typeof cur === 'object') {
      if (typeof k !== 'string') throw new Error('no key ' + k);
      // An own property whatever the key (a "__proto__" from JSON too).
      if (op.length > 1) Object.defineProperty(cur, k, { value: op[1], writable: true, enumerable: true, configurable: true });
      else delete cur[k];
    } else {
      throw new Error('no place ' + k);
    }
  }
  return doc;
}

// step goes one key or index into cur, which must hold it.
function step(cur, k) {
  if (Array.isArray(cur)) {
    if (!Number.isInteger(k) || k < 0 || k >= cur.length) throw new Error('no index ' + k);
  } else if (cur === null || typeof cur !== 'object' || typeof k !== 'string' || !Object.hasOwn(cur, k)) {
    throw new Error('no key ' + k);
  }
  return cur[k];
}
