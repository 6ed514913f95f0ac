// Where things go on the felt: the seat boxes round its edge and each
// trick card in front of its player. table/seats.js measures the felt,
// the boxes and a card; these functions only do geometry (no DOM), so
// that one layout holds at every size.

// A box is {left, top, w, h}, in px from the felt's inner top-left corner.

// gapBetween is the space between two boxes: negative when they overlap
// (by the least they overlap along either axis).
function gapBetween(p, q) {
  return Math.max(q.left - (p.left + p.w), p.left - (q.left + q.w), q.top - (p.top + p.h), p.top - (q.top + q.h));
}

// centreDistance is the distance from the point (x, y) to the nearest
// point of box b (0 inside it).
function centreDistance(x, y, b) {
  const dx = Math.max(b.left - x, 0, x - b.left - b.w), dy = Math.max(b.top - y, 0, y - b.top - b.h);
  return Math.sqrt(dx * dx + dy * dy);
}

// rounded says whether the point (x, y) lies inside a W×H felt whose
// corners are rounded with radii rx, ry.
function rounded(W, H, rx, ry) {
  return (x, y) => {
    if (x < 0 || y < 0 || x > W || y > H) return false;
    if (rx <= 0 || ry <= 0) return true;
    const cx = Math.min(Math.max(x, rx), W - rx), cy = Math.min(Math.max(y, ry), H - ry);
    return cx === x || cy === y || ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1;
  };
}

// placeBoxes puts n seat boxes round a W×H felt with corner radii rx, ry:
// sizes[k] is box k's {w, h, rel}, rel its place from the player at the
// bottom, clockwise (C-1). The boxes are spread evenly along a track just
// inside the felt (a margin m from its edge; on a tall felt in columns
// up its sides and a row across its top), each wholly inside the
// rounded edge; boxes over each other, or closer than gap, move apart
// along whichever axis they can. It returns each box's {left, top, w, h}.
function placeBoxes(W, H, sizes, rx, ry, m = 6, gap = 4) {
  const n = sizes.length;
  const wmax = Math.max(...sizes.map((z) => z.w)), hmax = Math.max(...sizes.map((z) => z.h));
  // The track of the boxes' centres: a rectangle, walked clockwise from
  // the middle of its bottom edge.
  const x0 = m + wmax / 2, x1 = Math.max(x0, W - m - wmax / 2), y0 = m + hmax / 2, y1 = Math.max(y0, H - m - hmax / 2);
  const a = x1 - x0, b = y1 - y0, L = 2 * (a + b) || 1;
  const along = (d) => {
    d = ((d % L) + L) % L;
    if (d < a / 2) return { x: W / 2 - d, y: y1 };
    d -= a / 2;
    if (d < b) return { x: x0, y: y1 - d };
    d -= b;
    if (d < a) return { x: x0 + d, y: y0 };
    d -= a;
    if (d < b) return { x: x1, y: y0 + d };
    return { x: x1 - (d - b), y: y1 };
  };
  const inFelt = rounded(W, H, rx, ry);
  // fit moves a box inside the felt's margin, then in from a corner (up
  // or down, else sideways) until its outer corner is inside the rounded
  // edge.
  const fit = (bx) => {
    let { left, top } = bx;
    const { w, h } = bx;
    left = Math.max(m, Math.min(left, W - m - w));
    top = Math.max(m, Math.min(top, H - m - h));
    const cornerX = () => (left + w / 2 < W / 2 ? left : left + w), cornerY = () => (top + h / 2 < H / 2 ? top : top + h);
    for (let i = 0; i < 200 && !inFelt(cornerX(), cornerY()); i++) {
      if (i % 2 === 0) top += top + h / 2 < H / 2 ? 1 : -1;
      else left += left + w / 2 < W / 2 ? 1 : -1;
    }
    return { left, top, w, h };
  };
  // On a tall felt (a phone's) the player's box has the bottom edge to
  // itself; the others go up the left side in a column, across the top,
  // and down the right side, each evenly spaced, so that none is
  // squeezed into a corner beside another with no room for its card.
  const tall = H > 0.8 * W && n > 3;
  const relOf = (z) => ((z.rel % n) + n) % n;
  const side = Math.round((n - 1) / 3), across = n - 1 - 2 * side;
  const topH = Math.max(0, ...sizes.filter((z) => relOf(z) > side && relOf(z) <= side + across).map((z) => z.h));
  const colTop = m + topH + 2 * gap, colH = Math.max(0, H - m - colTop);
  // A column's boxes: the first at its foot, the last at its head, the
  // space between them shared (one box: in the middle).
  const hOf = (rel) => sizes.find((z) => relOf(z) === rel).h;
  const column = (rels) => {
    const hs = rels.map(hOf), free = colH - hs.reduce((x, y) => x + y, 0);
    const ys = new Map();
    let y = colTop + colH - (rels.length > 1 ? 0 : free / 2);
    rels.forEach((r, i) => { y -= hs[i]; ys.set(r, y + hs[i] / 2); y -= rels.length > 1 ? free / (rels.length - 1) : 0; });
    return ys;
  };
  const left = column(Array.from({ length: side }, (_, i) => 1 + i));
  const right = column(Array.from({ length: side }, (_, i) => n - 1 - i));
  const where = (rel, h) => {
    if (!tall || rel === 0) return along((rel * L) / n);
    if (rel <= side) return { x: x0, y: left.get(rel) };
    if (rel <= side + across) return { x: (W * (rel - side - 0.5)) / across, y: m + h / 2 }; // the row's tops in line
    return { x: x1, y: right.get(rel) };
  };
  const boxes = sizes.map((z) => {
    const p = where(relOf(z), z.h);
    return fit({ left: p.x - z.w / 2, top: p.y - z.h / 2, w: z.w, h: z.h });
  });
  // Two boxes too close move apart: along the axis that needs the least
  // move and has the room (both move half, or one all the way when the
  // other stands at the edge), else along the other axis.
  const apart = (p, q, axis, need) => {
    const pos = axis === 'x' ? 'left' : 'top', size = axis === 'x' ? 'w' : 'h';
    const s = p[pos] + p[size] / 2 <= q[pos] + q[size] / 2 ? 1 : -1; // q goes the +s way
    let p2 = fit({ ...p, [pos]: p[pos] - (s * need) / 2 }), q2 = fit({ ...q, [pos]: q[pos] + (s * need) / 2 });
    for (let i = 0; i < 2; i++) {
      const left = gap - gapBetween(p2, q2);
      if (left <= 0.01) break;
      q2 = fit({ ...q2, [pos]: q2[pos] + s * left });
      const still = gap - gapBetween(p2, q2);
      if (still > 0.01) p2 = fit({ ...p2, [pos]: p2[pos] - s * still });
    }
    return [p2, q2];
  };
  for (let pass = 0; pass < 80; pass++) {
    let moved = false;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const p = boxes[i], q = boxes[j];
        if (gapBetween(p, q) >= gap - 0.01) continue;
        const nx = Math.min(p.left + p.w, q.left + q.w) - Math.max(p.left, q.left) + gap;
        const ny = Math.min(p.top + p.h, q.top + q.h) - Math.max(p.top, q.top) + gap;
        const tries = nx <= ny ? [['x', nx], ['y', ny]] : [['y', ny], ['x', nx]];
        let best = null;
        for (const [axis, need] of tries) {
          const [p2, q2] = apart(p, q, axis, need);
          if (!best || gapBetween(p2, q2) > gapBetween(best[0], best[1]) + 0.01) best = [p2, q2];
          if (gapBetween(p2, q2) >= gap - 0.01) break;
        }
        boxes[i] = best[0];
        boxes[j] = best[1];
        moved = true;
      }
    }
    if (!moved) break;
  }
  return boxes;
}

// spotsFor lists, for the card size tw×th whose rank and suit lie in
// corner ({x, y, w, h} inside the card), where each seat's card may go on
// a W×H felt (corner radii rx, ry) with the seat boxes boxes: inside the
// felt, clear of every box, and clearly nearer its own box than any other
// (its middle at most near times as far from its box as from another).
// Each seat's spots come best first: nearest the point in front of its box
// (on the line from the box's middle to the felt's, just clear of it).
function spotsFor(W, H, boxes, tw, th, rx, ry, near) {
  const inFelt = rounded(W, H, rx, ry);
  const edge = 3, clear = 6, lead = 8, step = Math.max(3, Math.round(Math.min(tw, th) / 8));
  return boxes.map((box, k) => {
    const sx = box.left + box.w / 2, sy = box.top + box.h / 2;
    let dx = W / 2 - sx, dy = H / 2 - sy;
    const len = Math.hypot(dx, dy) || 1;
    dx /= len; dy /= len;
    const t = Math.min(Math.abs(dx) > 1e-6 ? (box.w / 2 + tw / 2 + lead) / Math.abs(dx) : Infinity,
      Math.abs(dy) > 1e-6 ? (box.h / 2 + th / 2 + lead) / Math.abs(dy) : Infinity, len);
    const ix = sx + dx * t, iy = sy + dy * t; // the ideal middle
    const spots = [];
    for (let top = edge; top + th <= H - edge; top += step) {
      for (let left = edge; left + tw <= W - edge; left += step) {
        if (!inFelt(left, top) || !inFelt(left + tw, top) || !inFelt(left, top + th) || !inFelt(left + tw, top + th)) continue;
        let free = true;
        for (const b of boxes) {
          if (left < b.left + b.w + clear && b.left < left + tw + clear && top < b.top + b.h + clear && b.top < top + th + clear) { free = false; break; }
        }
        if (!free) continue;
        const cx = left + tw / 2, cy = top + th / 2, own = centreDistance(cx, cy, box);
        let clearly = true;
        for (let j = 0; j < boxes.length && clearly; j++) clearly = j === k || own <= near * centreDistance(cx, cy, boxes[j]);
        if (!clearly) continue;
        // Far from the point in front of the box costs; behind the box
        // (further from the felt's middle than its own) costs more.
        const behind = Math.max(0, -((cx - sx) * dx + (cy - sy) * dy));
        spots.push({ left, top, cost: Math.sqrt((cx - ix) ** 2 + (cy - iy) ** 2) + 2 * behind });
      }
    }
    spots.sort((p, q) => p.cost - q.cost);
    return spots;
  });
}

// placeTrick finds a spot for each seat's trick card (its size tw×th, its
// rank and suit in corner, {x, y, w, h} inside the card) on a W×H felt
// with the seat boxes boxes, among the spots spotsFor allows (options):
// each card inside the felt, clear of the boxes, clearly nearer its
// player's box than any other, and no card over another's rank or suit — apart from each other
// if they can be (overlap allows a card over another's blank part). It
// returns {spots: [{left, top}] by seat, ok}, ok false when no layout at
// this size keeps every rule (the spots are then the best there are).
function placeTrick(W, H, boxes, options, tw, th, corner, overlap) {
  // Two cards 4 px apart at least (a winning card's ring is 4 px wide);
  // or, overlapping, neither over the other's rank and suit (with that
  // margin).
  const apartOK = (p, q) => p.left - q.left >= tw + 4 || q.left - p.left >= tw + 4 || p.top - q.top >= th + 4 || q.top - p.top >= th + 4;
  const clearOf = (p, q) => { // q's card clear of p's rank and suit
    const x = p.left + corner.x - 4, y = p.top + corner.y - 4;
    return q.left >= x + corner.w + 8 || x >= q.left + tw || q.top >= y + corner.h + 8 || y >= q.top + th;
  };
  const ok = overlap ? (p, q) => clearOf(p, q) && clearOf(q, p) : apartOK;
  // The most hemmed-in seat chooses first; each takes its best spot
  // clear of the cards placed before it. A seat left without one
  // chooses first next time.
  const order = boxes.map((_, k) => k).sort((p, q) => options[p].length - options[q].length);
  let spots = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    spots = new Array(boxes.length);
    const stuck = order.find((k) => {
      const found = options[k].find((s) => spots.every((o) => !o || ok(s, o)));
      spots[k] = found;
      return !found;
    });
    if (stuck === undefined) return { spots: spots.map((s) => ({ left: s.left, top: s.top })), ok: true };
    if (!options[stuck].length || order[0] === stuck) break;
    order.splice(order.indexOf(stuck), 1);
    order.unshift(stuck);
  }
  // No layout: each card in front of its seat, as near as the felt lets it.
  return {
    ok: false,
    spots: boxes.map((box, k) => {
      if (spots[k]) return { left: spots[k].left, top: spots[k].top };
      const sx = box.left + box.w / 2, sy = box.top + box.h / 2;
      const f = Math.min(1, (Math.max(box.w, box.h) / 2 + 8 + Math.max(tw, th) / 2) / (Math.hypot(W / 2 - sx, H / 2 - sy) || 1));
      return { left: Math.max(2, Math.min(W - tw - 2, sx + (W / 2 - sx) * f - tw / 2)), top: Math.max(2, Math.min(H - th - 2, sy + (H / 2 - sy) * f - th / 2)) };
    }),
  };
}

// NEAR is how much nearer its own seat's box a trick card's middle is than
// any other's, at least (distance to its own over distance to another):
// the tests allow 0.75.
const NEAR = 0.73;

// The card sizes tried, largest first, each with the cards apart and
// then overlapping (clear of each other's rank and suit).
const SCALES = [1, 0.85, 0.72, 0.62, 0.52];

// layoutFelt places the seat boxes (sizes: each box's {w, h, rel}) and
// the trick's spots on a W×H felt with corner radii rx, ry, its cards
// tw×th at most with their rank and suit in corner ({x, y, w, h}): the
// largest cards that keep every rule, apart if they can be. The boxes'
// corners are whole pixels. It returns {boxes, spots, tw, th, ok}: ok
// false when the boxes do not fit apart, or (trick set) no card size
// keeps the trick's rules.
export function layoutFelt(W, H, sizes, rx, ry, tw, th, corner, trick) {
  const boxes = placeBoxes(W, H, sizes, rx, ry).map((b) => ({ ...b, left: Math.round(b.left), top: Math.round(b.top) }));
  const boxesOK = boxes.every((b, i) => boxes.every((o, j) => j <= i || gapBetween(b, o) >= 3));
  let best = null;
  for (const s of SCALES) {
    const w = Math.round(tw * s), h = Math.round(th * s);
    const options = spotsFor(W, H, boxes, w, h, rx, ry, NEAR);
    for (const overlap of [false, true]) {
      const r = placeTrick(W, H, boxes, options, w, h, corner, overlap);
      if (r.ok) return { boxes, spots: r.spots, tw: w, th: h, ok: boxesOK };
      best = { ...r, tw: w, th: h }; // none fits: the smallest cards, overlapping, are the best there are
    }
    if (!trick) break;
  }
  return { boxes, spots: best.spots, tw: best.tw, th: best.th, ok: boxesOK && !trick };
}

// feltHeight is the least height (to within 12 px), from low up to high,
// at which layoutFelt keeps every rule on a felt W wide (the corners'
// radii are rxOf(height) and ryOf(height)); high when none does.
export function feltHeight(W, low, high, sizes, rxOf, ryOf, tw, th, corner, trick) {
  const fits = (H) => layoutFelt(W, H, sizes, rxOf(H), ryOf(H), tw, th, corner, trick).ok;
  if (fits(low)) return low;
  if (!fits(high)) return high;
  // A few tries, halving the range (a taller felt has more room), to
  // within 12 px.
  let lo = low, hi = high;
  while (hi - lo > 12) {
    const mid = Math.round((lo + hi) / 2);
    if (fits(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
