// rankviz tree view: a Graphviz SVG tree to zoom, pan, click, fold, trace and replay.
//
// One module for every place a tree is explored: the app (a Streamlit
// components-v2 component), a notebook (an anywidget) and a one-file HTML
// export. Each host appends a few lines (host_*.js) that call
// renderView(root, key, data, send) on the view's DOM (tree_view.html)
// whenever the data from Python changes, and pass what the reader does back
// through `send(name, value)`: "select" and "toggle" with a node's stable id.
// A host with no Python behind it (the HTML file) sets data.local_folds, and
// folding then hides and shows subtrees on the drawing itself.
//
// The drawing is replaced only when its SVG changes; selection, trace, growth
// step and folding marks are classes on that one drawing, so nothing moves.
// Everything user-written reaches the page as text (textContent) or inside the
// SVG that Graphviz escaped; nothing is fetched from the network.
//
// Coordinates: the "drawing" is the SVG's own user space (Graphviz points,
// origin top-left of its viewBox). A view shows it at `scale` (1 = 100 %: one
// point is 4/3 CSS px) translated by (x, y) px. Each node's box in drawing
// units is read once per drawing from its outline's attributes, so zooming,
// the overview map, the trace card and the keyboard never query the DOM of
// all nodes, nor ask the browser for layout.

const PT_TO_PX = 4 / 3;            // 100 %: one point of the drawing is 4/3 CSS px
const MIN_SCALE = 0.02;
const MAX_SCALE = 8;
const STEP = 1.25;                 // one wheel notch or button press
const READABLE_PX = 11;            // a tree opens with node text at least this tall
const BLOCK_PX = 6;                // below this, text is hidden: nodes are coloured blocks
const MARGIN = 12;                 // px between the view's edge and a node it is anchored on
const SELECT_PATIENCE_MS = 4000;   // how long a click's selection outlives older server data
const SVG_NS = "http://www.w3.org/2000/svg";
const views = new Map();           // per component key: zoom and pan survive reruns
const groups = new Map();          // group name -> set of views drawn at one scale

function clamp(value, low, high) {
  return Math.min(high, Math.max(low, value));
}

function makeView(root) {
  return {
    root,
    viewport: root.querySelector(".rv-viewport"),
    stage: root.querySelector(".rv-stage"),
    tip: root.querySelector(".rv-tip"),
    card: root.querySelector(".rv-card"),
    readout: root.querySelector(".rv-zoom"),
    mini: root.querySelector(".rv-mini"),
    miniSvg: root.querySelector(".rv-mini-svg"),
    miniFrame: null,               // the overview's rectangle of what the view shows
    legendPin: root.querySelector(".rv-legend-pin"),
    legendBox: null,               // the drawing's legend in drawing units, when it has one
    legendFont: 9,                 // its smallest font (pt)
    shownLegend: null,             // the pin's size last written ("" when not pinned)
    ring: null,                    // the keyboard focus ring drawn around a node
    svg: null,
    svgText: null,
    width: 0,                      // drawing size in its own units (points)
    height: 0,
    w: 0,                          // viewport size in px, kept by a ResizeObserver
    h: 0,
    scale: 1,                      // 1 = 100 %
    x: 0,                          // translation of the drawing in px
    y: 0,
    mode: "open",                  // "open" or "fit": redone on resize; null: the reader moved it
    anchorId: null,                // the node the tree opened on (the one just split), else the root
    nodeFont: 10,                  // smallest font of node text (pt): decides the opening zoom
    minFont: Infinity,             // smallest font of any text (pt): decides when text hides
    blocks: false,
    shown: { scale: null },        // what apply() last wrote, to write only changes
    naturalHeight: 0,              // the height (px) its own tree asks for (sizeViewport)
    byId: new Map(),               // stable id -> node record
    localFolds: new Set(),         // stable ids folded on the drawing itself (data.local_folds)
    bySvg: new Map(),              // svg id -> node record
    kids: new Map(),               // svg id -> child records, in drawing order
    rootItem: null,
    tabItem: null,                 // the one node with tabindex 0 (roving tabindex)
    pending: null,                 // {id, time}: selected in the browser, not yet confirmed
    cardSize: { w: 0, h: 0 },
    data: null,
    send: null,
    renders: 0,
  };
}

// -- geometry ----------------------------------------------------------------

function pxPerUnit(view) {
  return view.scale * PT_TO_PX;
}

function measure(view) {
  view.w = view.viewport.clientWidth;
  view.h = view.viewport.clientHeight;
  sizeMinimap(view);
}

function apply(view) {
  if (!view.svg) return;
  // The whole drawing, one CSS px per unit, moved and scaled by a CSS
  // transform. Not by its viewBox: Chromium lays every SVG text out again when
  // the viewBox changes (about a second for 2,000 nodes), while a transform
  // only redraws what is on screen, still crisp. Nothing here reads layout.
  const k = pxPerUnit(view);
  const { w, h, shown } = view;
  view.svg.style.transform = `translate(${view.x}px, ${view.y}px) scale(${k})`;
  if (shown.scale !== view.scale) {
    view.readout.textContent = `${Math.round(view.scale * 100)} %`;
    view.root.dataset.scale = view.scale.toFixed(4);
    shown.scale = view.scale;
    // Semantic zoom: text too small to read is hidden and nodes are drawn as
    // blocks of their colour; one class on the root, switched only when crossed.
    const blocks = view.minFont * k < BLOCK_PX;
    if (blocks !== view.blocks) {
      view.blocks = blocks;
      view.root.classList.toggle("rv-blocks", blocks);
    }
  }
  // The overview is shown only when part of the tree is out of view.
  const whole = view.x >= -1 && view.y >= -1 && view.x + view.width * k <= w + 1
    && view.y + view.height * k <= h + 1;
  view.root.classList.toggle("rv-whole", whole);
  if (view.miniFrame) {
    view.miniFrame.setAttribute("x", String(-view.x / k));
    view.miniFrame.setAttribute("y", String(-view.y / k));
    view.miniFrame.setAttribute("width", String(w / k));
    view.miniFrame.setAttribute("height", String(h / k));
  }
  pinLegend(view);
  placeCard(view);
}

function fitScale(view) {
  if (!view.w || !view.h || !view.width) return 1;
  return Math.min(view.w / (view.width * PT_TO_PX), view.h / (view.height * PT_TO_PX), 1);
}

function readableScale(view) {
  return Math.min(MAX_SCALE, READABLE_PX / (view.nodeFont * PT_TO_PX));
}

function groupViews(view) {
  // The views drawn at one scale with this one (itself included).
  const name = view.data && view.data.group;
  const members = [view];
  if (name && groups.has(name)) {
    for (const other of groups.get(name)) {
      if (other !== view && other.svg && other.root.isConnected) members.push(other);
    }
  }
  return members;
}

function openingScale(view) {
  // Fit the whole tree when its text is readable so; otherwise the readable
  // zoom. A group shares one scale: the smallest fit, unless a view needs the
  // readable zoom, and then the largest readable one.
  let fit = Infinity;
  let readable = 0;
  for (const member of groupViews(view)) {
    fit = Math.min(fit, fitScale(member));
    readable = Math.max(readable, readableScale(member));
  }
  return Math.max(fit, readable);
}

function groupFitScale(view) {
  return Math.min(...groupViews(view).map(fitScale));
}

function focusItem(view) {
  // The node the buttons centre on: the inspected one, else the root.
  const selected = view.byId.get(selectedId(view));
  return selected && selected.box ? selected : view.rootItem;
}

function centreOn(view, item, sx, sy) {
  // Put the centre of a node's box (or of the drawing) at screen point (sx, sy).
  const k = pxPerUnit(view);
  const box = item && item.box ? item.box : { x: 0, y: 0, width: view.width, height: view.height };
  view.x = sx - (box.x + box.width / 2) * k;
  view.y = sy - (box.y + box.height / 2) * k;
}

function keepDrawingInView(view) {
  // Never show empty space where the drawing could be: a drawing smaller than
  // the view is centred across and starts at the top (or left, drawn left to
  // right); a larger one covers the view.
  const k = pxPerUnit(view);
  const across = view.width * k;
  const down = view.height * k;
  const leftToRight = view.data && view.data.direction === "LR";
  view.x = across <= view.w ? (leftToRight ? 0 : (view.w - across) / 2) : clamp(view.x, view.w - across, 0);
  view.y = down <= view.h ? (leftToRight ? (view.h - down) / 2 : 0) : clamp(view.y, view.h - down, 0);
}

function anchor(view) {
  // Opening position: the node just split (the player) in the middle, else
  // the root at the top centre (left middle when drawn left to right). A
  // resize keeps the node chosen when the tree opened.
  const current = view.byId.get(view.anchorId);
  const item = current && current.box ? current : view.rootItem;
  const k = pxPerUnit(view);
  if (item === current || !item) {
    centreOn(view, item, view.w / 2, onScreenMiddle(view));
  } else if (view.data.direction === "LR") {
    centreOn(view, item, MARGIN + (item.box.width * k) / 2, view.h / 2);
  } else {
    centreOn(view, item, view.w / 2, MARGIN + (item.box.height * k) / 2);
  }
  keepDrawingInView(view);
}

function onScreenMiddle(view) {
  // The middle of the part of the view that is on the screen (a view taller
  // than what is left of the screen below its top shows its node there).
  const top = view.viewport.getBoundingClientRect().top;
  const low = clamp(-top, 0, view.h);
  const high = clamp(window.innerHeight - top, 0, view.h);
  return high - low >= 120 ? (low + high) / 2 : view.h / 2;
}

function open(view, spread = true, fresh = false) {
  if (fresh) view.anchorId = view.data.current;
  view.scale = openingScale(view);
  view.mode = "open";
  anchor(view);
  apply(view);
  // The views of a group drawn before this one opened without it: while
  // nobody has moved them, they take the group's scale too.
  if (!spread) return;
  for (const other of groupViews(view)) {
    if (other !== view && other.mode && Math.abs(other.scale - view.scale) > 1e-6) {
      if (other.mode === "open") open(other, false);
      else fit(other, false);
    }
  }
}

function fit(view, spread = true) {
  // The whole tree in view, around the inspected node (else the root).
  view.scale = groupFitScale(view);
  view.mode = "fit";
  centreOn(view, focusItem(view), view.w / 2, view.h / 2);
  keepDrawingInView(view);
  apply(view);
  if (!spread) return;
  for (const other of groupViews(view)) {
    if (other !== view && other.mode && Math.abs(other.scale - view.scale) > 1e-6) fit(other, false);
  }
}

function spreadScale(view) {
  // The other views of a group zoom to the same scale, about their top centre.
  for (const other of groupViews(view)) {
    if (other !== view) zoomAt(other, view.scale / other.scale, other.w / 2, 0, false);
  }
}

function zoomAt(view, factor, px, py, spread = true) {
  const scale = clamp(view.scale * factor, MIN_SCALE, MAX_SCALE);
  const ratio = scale / view.scale;
  view.x = px - (px - view.x) * ratio;
  view.y = py - (py - view.y) * ratio;
  view.scale = scale;
  view.mode = null;
  apply(view);
  if (spread) spreadScale(view);
}

function zoomCenter(view, factor) {
  zoomAt(view, factor, view.w / 2, view.h / 2);
}

function actualSize(view) {
  // 100 %, centred on the inspected node (else the root), never on empty space.
  view.scale = 1;
  view.mode = null;
  centreOn(view, focusItem(view), view.w / 2, view.h / 2);
  keepDrawingInView(view);
  apply(view);
  spreadScale(view);
}

function moving(view) {
  // While the reader zooms or drags, the drawing is its own compositor layer:
  // frames then move a picture instead of drawing thousands of texts again
  // (2,000 nodes: 20-25 fps without, about 55 with, in headless Chromium).
  // Once still, it is drawn again crisp at the new zoom.
  if (!view.svg) return;
  view.svg.classList.add("rv-moving");
  clearTimeout(view.still);
  view.still = setTimeout(() => { if (view.svg) view.svg.classList.remove("rv-moving"); }, 250);
}

function panBy(view, dx, dy) {
  view.x += dx;
  view.y += dy;
  view.mode = null;
  apply(view);
}

function reveal(view, item) {
  // Pan the least that brings a node wholly into view (the keyboard's focus).
  if (!item.box) return;
  const k = pxPerUnit(view);
  const left = view.x + item.box.x * k;
  const top = view.y + item.box.y * k;
  const right = left + item.box.width * k;
  const bottom = top + item.box.height * k;
  let dx = 0;
  let dy = 0;
  if (right - left > view.w - 2 * MARGIN || left < MARGIN) dx = MARGIN - left;
  else if (right > view.w - MARGIN) dx = view.w - MARGIN - right;
  if (bottom - top > view.h - 2 * MARGIN || top < MARGIN) dy = MARGIN - top;
  else if (bottom > view.h - MARGIN) dy = view.h - MARGIN - bottom;
  if (dx || dy) panBy(view, dx, dy);
}

// -- the drawing -------------------------------------------------------------

function outerShape(group) {
  // The first path or polygon of a Graphviz node is its box; the rest are cells.
  return group.querySelector("path, polygon");
}

function shapeBox(shape) {
  // The box of a node from its outline's coordinates (getBBox gives zeros
  // while the view sits in a hidden tab), in the coordinates of its group.
  const text = shape.getAttribute("points") || shape.getAttribute("d") || "";
  const numbers = (text.match(/-?\d+(?:\.\d+)?(?:e-?\d+)?/g) || []).map(Number);
  const xs = numbers.filter((_, k) => k % 2 === 0);
  const ys = numbers.filter((_, k) => k % 2 === 1);
  if (!xs.length || !ys.length) return null;
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

function graphTransform(svg) {
  // Graphviz draws inside <g id="graph0" transform="scale(s s) rotate(0)
  // translate(tx ty)">: a point p of a node is at s * (p + t) in the drawing.
  const graph = svg.querySelector("g.graph") || svg.querySelector("g");
  const text = (graph && graph.getAttribute("transform")) || "";
  const scale = /scale\(\s*(-?[\d.]+)(?:[\s,]+(-?[\d.]+))?\s*\)/.exec(text);
  const move = /translate\(\s*(-?[\d.]+)(?:[\s,]+(-?[\d.]+))?\s*\)/.exec(text);
  const sx = scale ? Number(scale[1]) : 1;
  return {
    graph,
    sx, sy: scale && scale[2] !== undefined ? Number(scale[2]) : sx,
    tx: move ? Number(move[1]) : 0, ty: move && move[2] !== undefined ? Number(move[2]) : 0,
  };
}

function toDrawing(t, box) {
  return box && {
    x: t.sx * (box.x + t.tx), y: t.sy * (box.y + t.ty),
    width: t.sx * box.width, height: t.sy * box.height,
  };
}

function fontSizes(svg) {
  // Smallest font (pt) of node text, and of any text: read once per drawing.
  let node = Infinity;
  let any = Infinity;
  for (const text of svg.querySelectorAll("text")) {
    const size = parseFloat(text.getAttribute("font-size"));
    if (!(size > 0) || !text.textContent.trim()) continue;
    any = Math.min(any, size);
    const group = text.closest("g.node");
    if (group && group.hasAttribute("data-node-id")) node = Math.min(node, size);
  }
  return { node: Number.isFinite(node) ? node : (Number.isFinite(any) ? any : 10), any };
}

function accessibleDescription(item) {
  // The node's whole record ("#5 · A2 <= 4.5", its numbers, why it splits or
  // stops, its whole ranking), which the box may cut short.
  return (item.details || []).join(". ");
}

function loadSvg(view, data) {
  view.localFolds.clear();          // a new drawing: folds on the old one are gone
  const parsed = new DOMParser().parseFromString(data.svg, "image/svg+xml");
  const svg = parsed.documentElement;
  if (svg.nodeName !== "svg") return;
  // Native tooltips would show over the hover card: drop them.
  for (const title of svg.querySelectorAll("title")) title.remove();
  for (const link of svg.querySelectorAll("a")) {
    link.removeAttribute("xlink:title");
    link.removeAttributeNS("http://www.w3.org/1999/xlink", "title");
  }
  const node = document.importNode(svg, true);
  node.classList.add("rv-svg");
  // The nodes are the tree's items; the drawing around them is no image of its own.
  node.setAttribute("role", "presentation");
  view.stage.replaceChildren(node);
  view.svg = node;
  view.svgText = data.svg;
  const box = (svg.getAttribute("viewBox") || "").trim().split(/[\s,]+/).map(Number);
  view.width = box.length === 4 && box[2] > 0 ? box[2] : data.width;
  view.height = box.length === 4 && box[3] > 0 ? box[3] : data.height;
  view.shown = { scale: null };
  node.setAttribute("width", String(view.width));
  node.setAttribute("height", String(view.height));
  node.setAttribute("viewBox", `0 0 ${view.width} ${view.height}`);
  view.byId.clear();
  view.bySvg.clear();
  view.kids.clear();
  view.rootItem = null;
  const t = graphTransform(node);
  // One pass over the groups, not a selector query per node: that was quadratic in the
  // number of nodes (thousands on a large upload).
  const groups = new Map();
  for (const g of node.querySelectorAll("g.node, g.edge")) groups.set(g.id, g);
  for (const record of data.nodes) {
    const group = groups.get(record.svg);
    if (!group || !group.classList.contains("node")) continue;
    const shape = outerShape(group);
    const local = shape ? shapeBox(shape) : null;
    const item = {
      ...record, laidFolded: record.folded, group, shape, local, box: toDrawing(t, local), edge: null, toggle: null,
    };
    if (record.edge) item.edge = groups.get(record.edge) || null;
    group.classList.add(record.leaf ? "rv-leaf" : "rv-internal");
    group.setAttribute("data-node-id", String(record.id));
    if (shape) shape.classList.add("rv-shape");
    view.byId.set(record.id, item);
    view.bySvg.set(record.svg, item);
    if (record.parent === null || record.parent === undefined) view.rootItem = view.rootItem || item;
    else {
      if (!view.kids.has(record.parent)) view.kids.set(record.parent, []);
      view.kids.get(record.parent).push(item);
    }
  }
  const fonts = fontSizes(node);
  view.nodeFont = fonts.node;
  view.minFont = fonts.any;
  view.blocks = false;
  view.root.classList.remove("rv-blocks");
  orderChildren(view);
  for (const item of view.byId.values()) {
    makeTreeItem(view, item);
    if (!item.leaf) addToggle(view, item, t.graph);
  }
  view.ring = document.createElementNS(SVG_NS, "rect");
  view.ring.setAttribute("class", "rv-ring");
  view.ring.setAttribute("rx", "8");
  (t.graph || node).appendChild(view.ring);
  view.tabItem = null;
  buildMinimap(view, t);
  buildLegendPin(view, t);
  describe(view, data);
}

function orderChildren(view) {
  // Children in reading order (left to right, or top to bottom when drawn left
  // to right), for the arrow keys.
  const across = view.data.direction === "LR" ? "y" : "x";
  for (const list of view.kids.values()) {
    list.sort((a, b) => (a.box ? a.box[across] : 0) - (b.box ? b.box[across] : 0));
  }
}

function depthOf(view, item) {
  // Kept per item: walking up from every node was quadratic on deep chains.
  const path = [];
  let up = item;
  while (up && up.level === undefined) {
    path.push(up);
    up = view.bySvg.get(up.parent);
  }
  let level = up ? up.level : 0;
  for (let k = path.length - 1; k >= 0; k -= 1) path[k].level = ++level;
  return item.level;
}

function makeTreeItem(view, item) {
  // Each node is a tree item: focusable (roving tabindex). Its name is the
  // text its box shows (its test or ranking and "#5 · n = …"), so that what a
  // speech user says matches what they see even where the view cuts the box;
  // an aria-label would not match a box cut at the view's edge (axe:
  // label-content-name-mismatch). The whole record is its description.
  const g = item.group;
  g.setAttribute("role", "treeitem");
  g.setAttribute("tabindex", "-1");
  g.setAttribute("aria-description", accessibleDescription(item));
  g.setAttribute("aria-level", String(depthOf(view, item)));
  if (!item.leaf) g.setAttribute("aria-expanded", item.folded ? "false" : "true");
  const siblings = view.kids.get(item.parent);
  if (siblings) {
    g.setAttribute("aria-setsize", String(siblings.length));
    g.setAttribute("aria-posinset", String(siblings.indexOf(item) + 1));
  }
  // The <a> Graphviz wraps a node's drawing in is no link: keep it out of the way.
  for (const link of g.querySelectorAll("a")) link.setAttribute("role", "presentation");
}

function describe(view, data) {
  // Say only what this drawing does: a plain drawing (no tree nodes) zooms and pans.
  const hint = view.root.querySelector(".rv-hint");
  const tree = data.nodes.length > 0;
  view.viewport.setAttribute("role", tree ? "tree" : "img");
  if (hint) {
    const parts = ["wheel: zoom", "drag: pan"];
    if (tree && data.selectable) parts.push("click: inspect");
    if (data.nodes.some((record) => !record.leaf)) parts.push("⊖: collapse");
    if (tree) parts.push("Tab: keys");
    hint.textContent = parts.join(" · ");
    hint.title = hint.textContent;  // (cut with an ellipsis where the bar is narrow)
  }
}

function addToggle(view, item, graph) {
  // A small round button at the bottom (top-down) or right (left to right) of
  // the box: "−" folds the subtree away, "+" opens a folded one. For the mouse;
  // the keyboard folds with Space on the node (aria-expanded says which).
  if (!item.local) return;
  const box = item.local;
  const leftToRight = view.data.direction === "LR";
  const cx = leftToRight ? box.x + box.width : box.x + box.width / 2;
  const cy = leftToRight ? box.y + box.height / 2 : box.y + box.height;
  const toggle = document.createElementNS(SVG_NS, "g");
  toggle.setAttribute("class", "rv-toggle");
  toggle.setAttribute("data-node-id", String(item.id));
  toggle.setAttribute("aria-hidden", "true");
  const label = `${item.folded ? "Expand" : "Collapse"} node #${item.id}`;
  toggle.setAttribute("aria-label", label);
  const circle = document.createElementNS(SVG_NS, "circle");
  circle.setAttribute("cx", String(cx));
  circle.setAttribute("cy", String(cy));
  circle.setAttribute("r", "7");
  const sign = document.createElementNS(SVG_NS, "text");
  sign.setAttribute("x", String(cx));
  sign.setAttribute("y", String(cy + 4));
  sign.setAttribute("text-anchor", "middle");
  sign.textContent = item.folded ? "+" : "\u2212";
  const hint = document.createElementNS(SVG_NS, "title");
  hint.textContent = label;
  toggle.append(circle, sign, hint);
  (graph || item.group.parentNode).appendChild(toggle);
  item.toggle = toggle;
}

// -- the legend, pinned --------------------------------------------------------

function buildLegendPin(view, t) {
  // A copy of the drawing's legend (Graphviz's node "legend": what the colours
  // and numbers mean) for the view's bottom-left corner. The drawing keeps its
  // own, as every export does; the copy stands in for it while it is out of
  // view, which a tree wider than the view at its readable zoom leaves it.
  view.legendBox = null;
  const pin = view.legendPin;
  if (!pin) return;
  const original = view.svg.querySelector("g#legend");
  let local = null;
  for (const shape of original ? original.querySelectorAll("polygon, path") : []) {
    const box = shapeBox(shape);
    if (!box) continue;
    local = local ? union(local, box) : box;
  }
  const box = toDrawing(t, local);
  const copySvg = pin.querySelector("svg");
  const none = !box || !box.width || !box.height;
  view.root.classList.toggle("rv-no-legend", none);
  if (none || !copySvg) {
    copySvg && copySvg.replaceChildren();
    pin.hidden = true;
    view.root.classList.remove("rv-legend-pinned");
    return;
  }
  const copy = original.cloneNode(true);
  for (const element of [copy, ...copy.querySelectorAll("[id]")]) element.removeAttribute("id");
  const frame = document.createElementNS(SVG_NS, "g");
  const placed = t.graph && t.graph.getAttribute("transform");
  if (placed) frame.setAttribute("transform", placed);
  frame.appendChild(copy);
  copySvg.replaceChildren(frame);
  // Half a point around the box: its border's stroke lies half outside it.
  copySvg.setAttribute("viewBox", `${box.x - 0.5} ${box.y - 0.5} ${box.width + 1} ${box.height + 1}`);
  view.legendBox = box;
  view.legendFont = fontSizes(original).node;  // no tree node in it: its smallest text
  view.shownLegend = null;
}

function union(a, b) {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}

function pinLegend(view) {
  // Pinned while the drawing's legend is not wholly in view (its border's
  // stroke included) or its text is hidden (blocks), unless the reader
  // turned the copy off; then at the drawing's zoom, but never smaller than
  // readable nor larger than 100 %. The drawing's own is hidden meanwhile,
  // so no half-cut second legend shows at the edge.
  const box = view.legendBox;
  const pin = view.legendPin;
  if (!pin) return;
  let pinned = false;
  let width = 0;
  let height = 0;
  if (box && !view.root.classList.contains("rv-legend-off")) {
    const k = pxPerUnit(view);
    const left = view.x + (box.x - 0.5) * k;
    const top = view.y + (box.y - 0.5) * k;
    const inView = left >= 0 && top >= 0
      && left + (box.width + 1) * k <= view.w && top + (box.height + 1) * k <= view.h;
    pinned = !inView || view.blocks;
    const scale = clamp(view.scale, READABLE_PX / (view.legendFont * PT_TO_PX), 1) * PT_TO_PX;
    width = Math.round((box.width + 1) * scale);
    height = Math.round((box.height + 1) * scale);
  }
  const shown = pinned ? `${width}x${height}` : "";
  if (shown === view.shownLegend) return;
  view.shownLegend = shown;
  pin.hidden = !pinned;
  view.root.classList.toggle("rv-legend-pinned", pinned);
  if (pinned) {
    pin.style.width = `${width}px`;
    pin.style.height = `${height}px`;
  }
}

// -- the overview map ----------------------------------------------------------

function buildMinimap(view, t) {
  // A cheap rendition of the whole drawing: each node's box in its fill colour
  // and one path for all edges, built once per drawing; only the frame moves.
  const svg = view.miniSvg;
  if (!svg) return;
  const items = [...view.byId.values()].filter((item) => item.box);
  const parts = [];
  const edges = [];
  for (const item of items) {
    const rect = document.createElementNS(SVG_NS, "rect");
    rect.setAttribute("x", String(item.box.x));
    rect.setAttribute("y", String(item.box.y));
    rect.setAttribute("width", String(item.box.width));
    rect.setAttribute("height", String(item.box.height));
    rect.setAttribute("fill", item.shape.getAttribute("fill") || "#d9d9d9");
    rect.setAttribute("data-node-id", String(item.id));
    parts.push(rect);
    const parent = view.bySvg.get(item.parent);
    if (parent && parent.box) {
      const a = parent.box;
      const b = item.box;
      edges.push(view.data.direction === "LR"
        ? `M${a.x + a.width},${a.y + a.height / 2}L${b.x},${b.y + b.height / 2}`
        : `M${a.x + a.width / 2},${a.y + a.height}L${b.x + b.width / 2},${b.y}`);
    }
  }
  const lines = document.createElementNS(SVG_NS, "path");
  lines.setAttribute("class", "rv-mini-edges");
  lines.setAttribute("d", edges.join(""));
  view.miniFrame = document.createElementNS(SVG_NS, "rect");
  view.miniFrame.setAttribute("class", "rv-mini-frame");
  svg.replaceChildren(lines, ...parts, view.miniFrame);
  svg.setAttribute("viewBox", `0 0 ${view.width} ${view.height}`);
  view.root.classList.toggle("rv-no-map", items.length === 0);
  sizeMinimap(view);
}

function sizeMinimap(view) {
  // The drawing's shape, at most 200 x 150 px and a quarter of the view's
  // width and height; very flat or tall drawings letterboxed.
  if (!view.mini || !view.width) return;
  const maxW = clamp(0.25 * (view.w || 800), 80, 200);
  const maxH = clamp(0.25 * (view.h || 480), 50, 150);
  const ratio = view.width / Math.max(1, view.height);
  const w = ratio >= maxW / maxH ? maxW : Math.max(40, maxH * ratio);
  const h = ratio >= maxW / maxH ? Math.max(30, maxW / ratio) : maxH;
  view.mini.style.width = `${Math.round(w)}px`;
  view.mini.style.height = `${Math.round(h)}px`;
}

function miniPoint(view, event) {
  // The drawing's point under the pointer in the overview.
  const matrix = view.miniSvg.getScreenCTM();
  if (!matrix) return null;
  return new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
}

function centreOnPoint(view, point) {
  const k = pxPerUnit(view);
  view.x = view.w / 2 - point.x * k;
  view.y = view.h / 2 - point.y * k;
  view.mode = null;
  apply(view);
}

function wireMinimap(view) {
  // Click or drag in the overview: the view centres on that point, same zoom.
  const mini = view.mini;
  if (!mini) return;
  let dragging = false;
  const move = (event) => {
    const point = miniPoint(view, event);
    if (point) centreOnPoint(view, point);
  };
  mini.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    event.stopPropagation();     // not a pan of the view under it
    event.preventDefault();
    dragging = true;
    if (mini.setPointerCapture) mini.setPointerCapture(event.pointerId);
    move(event);
  });
  mini.addEventListener("pointermove", (event) => {
    event.stopPropagation();     // no hover card for the nodes under the map
    if (dragging) {
      moving(view);
      move(event);
    }
  });
  const stop = (event) => {
    event.stopPropagation();
    dragging = false;
  };
  mini.addEventListener("pointerup", stop);
  mini.addEventListener("pointercancel", stop);
}

// -- marks: selection, player, trace -------------------------------------------

function selectedId(view) {
  // A node selected in the browser stays selected until the server agrees, or
  // for a while if it does not answer (then the server's choice wins).
  const pending = view.pending;
  if (pending && Date.now() - pending.time < SELECT_PATIENCE_MS) return pending.id;
  const data = view.data;
  return data && data.selected !== undefined ? data.selected : null;
}

function showSelected(view) {
  const id = selectedId(view);
  for (const item of view.byId.values()) {
    const on = item.id === id;
    if (item.group.classList.contains("rv-selected") !== on) {
      item.group.classList.toggle("rv-selected", on);
      item.group.setAttribute("aria-selected", on ? "true" : "false");
    }
  }
  updateKey(view);
}

function selectLocally(view, item) {
  // The outline moves at once, in this frame; Python is told after.
  view.pending = { id: item.id, time: Date.now() };
  const before = view.root.querySelector("g.node.rv-selected");
  if (before && before !== item.group) {
    before.classList.remove("rv-selected");
    before.setAttribute("aria-selected", "false");
  }
  item.group.classList.add("rv-selected");
  item.group.setAttribute("aria-selected", "true");
  updateKey(view);
  setTabItem(view, item);
  view.send("select", item.id);
}

function descendants(view, item) {
  const out = [];
  const todo = [...(view.kids.get(item.svg) || [])];
  while (todo.length) {
    const next = todo.pop();
    out.push(next);
    todo.push(...(view.kids.get(next.svg) || []));
  }
  return out;
}

function foldInPlace(view, item) {
  // No Python to lay the tree out again: fold on the drawing itself. A node
  // is hidden while any node above it is folded, so nested folds unfold right.
  // A node laid out folded has no subtree in the drawing to show.
  if (item.laidFolded) return;
  if (item.folded) view.localFolds.delete(item.id);
  else view.localFolds.add(item.id);
  for (const other of view.byId.values()) {
    other.folded = other.laidFolded || view.localFolds.has(other.id);
    let above = view.bySvg.get(other.parent);
    let hidden = false;
    while (above && !hidden) {
      hidden = view.localFolds.has(above.id);
      above = view.bySvg.get(above.parent);
    }
    for (const part of [other.group, other.edge, other.toggle]) {
      if (part) part.classList.toggle("rv-folding", hidden);
    }
    if (!other.leaf) other.group.setAttribute("aria-expanded", other.folded ? "false" : "true");
    if (other.toggle) {
      const sign = other.toggle.querySelector("text");
      if (sign) sign.textContent = other.folded ? "+" : "\u2212";
    }
  }
}

function toggleLocally(view, item) {
  // Folding hides the subtree at once; unfolding shows the button as busy.
  // Python then lays the tree out again and sends the new drawing.
  if (item.leaf) return;
  if (view.data.local_folds) {
    foldInPlace(view, item);
    return;
  }
  if (!item.folded) {
    for (const below of descendants(view, item)) {
      below.group.classList.add("rv-folding");
      if (below.edge) below.edge.classList.add("rv-folding");
      if (below.toggle) below.toggle.classList.add("rv-folding");
    }
    item.group.setAttribute("aria-expanded", "false");
  }
  if (item.toggle) {
    item.toggle.classList.add("rv-busy");
    const sign = item.toggle.querySelector("text");
    if (sign) sign.textContent = item.folded ? "\u2026" : "+";
  }
  view.send("toggle", item.id);
}

function mark(view, data) {
  const revealed = data.revealed ? new Set(data.revealed) : null;
  const path = new Set(data.path || []);
  if (view.pending && (view.pending.id === data.selected || Date.now() - view.pending.time >= SELECT_PATIENCE_MS)) {
    view.pending = null;
  }
  for (const item of view.byId.values()) {
    const future = revealed !== null && !revealed.has(item.id);
    const classes = [
      ["rv-current", item.id === data.current],
      ["rv-path", path.has(item.id)],
      ["rv-future", future],
    ];
    for (const [name, on] of classes) item.group.classList.toggle(name, on);
    if (item.edge) {
      item.edge.classList.toggle("rv-path", path.has(item.id) && path.has(view.bySvg.get(item.parent)?.id));
      item.edge.classList.toggle("rv-future", future);
    }
    if (item.toggle) item.toggle.classList.toggle("rv-future", future);
  }
  showSelected(view);
  if (!view.tabItem || !view.tabItem.group.isConnected) {
    setTabItem(view, view.byId.get(selectedId(view)) || view.rootItem);
  }
}

function updateKey(view) {
  const data = view.data;
  const key = view.root.querySelector(".rv-key");
  const entries = [];
  if (data.current !== null && data.current !== undefined) entries.push(["rv-key-current", "just split"]);
  if (selectedId(view) !== null && selectedId(view) !== undefined) entries.push(["rv-key-selected", "inspected"]);
  if (data.path && data.path.length) entries.push(["rv-key-path", "traced path"]);
  key.replaceChildren(...entries.map(([cls, text]) => {
    const span = document.createElement("span");
    span.className = cls;
    span.textContent = text;
    return span;
  }));
}

function placeCard(view) {
  const data = view.data;
  const trace = data && data.trace;
  const item = trace && view.byId.get(trace.node);
  if (!item || !item.box || !view.svg) {
    view.card.hidden = true;
    return;
  }
  view.card.hidden = false;
  // From the node's box in the drawing: no layout read per frame.
  const k = pxPerUnit(view);
  const box = {
    left: view.x + item.box.x * k, top: view.y + item.box.y * k,
    width: item.box.width * k, height: item.box.height * k,
  };
  box.right = box.left + box.width;
  box.bottom = box.top + box.height;
  const { w, h } = view.cardSize;
  // Right of the leaf, else left of it, else below or above it: never on the
  // leaf it describes when there is room elsewhere; always inside the view.
  let left = box.right + 8;
  let top = box.top;
  if (left + w > view.w - 4) {
    left = box.left - w - 8;
    if (left < 4) {
      left = box.left + (box.width - w) / 2;
      top = box.bottom + 8;
      if (top + h > view.h - 4) top = box.top - h - 8;
    }
  }
  view.card.style.left = `${clamp(left, 4, Math.max(4, view.w - w - 4))}px`;
  view.card.style.top = `${clamp(top, 4, Math.max(4, view.h - h - 4))}px`;
}

function showTip(view, item, event) {
  view.tip.replaceChildren(...item.details.map((line, k) => {
    const div = document.createElement("div");
    div.textContent = line;
    if (k === 0) div.className = "rv-tip-head";
    return div;
  }));
  view.tip.hidden = false;
  const port = view.viewport.getBoundingClientRect();
  const x = event.clientX - port.left + 14;
  const y = event.clientY - port.top + 14;
  const w = view.tip.offsetWidth;
  const h = view.tip.offsetHeight;
  view.tip.style.left = `${Math.max(4, Math.min(x, port.width - w - 4))}px`;
  view.tip.style.top = `${y + h > port.height ? Math.max(4, y - h - 28) : y}px`;
}

// -- keyboard ------------------------------------------------------------------

function setTabItem(view, item) {
  // Roving tabindex: Tab enters the tree on this one node.
  if (!item) return;
  if (view.tabItem && view.tabItem !== item && view.tabItem.group.isConnected) {
    view.tabItem.group.setAttribute("tabindex", "-1");
  }
  item.group.setAttribute("tabindex", "0");
  view.tabItem = item;
}

function visible(item) {
  return item && !item.group.classList.contains("rv-future") && !item.group.classList.contains("rv-folding");
}

function focusNode(view, item) {
  if (!visible(item)) return;
  setTabItem(view, item);
  item.group.focus({ preventScroll: true });
  reveal(view, item);
  showRing(view, item);
}

function showRing(view, item) {
  if (!view.ring || !item.local) return;
  const pad = 5;
  view.ring.setAttribute("x", String(item.local.x - pad));
  view.ring.setAttribute("y", String(item.local.y - pad));
  view.ring.setAttribute("width", String(item.local.width + 2 * pad));
  view.ring.setAttribute("height", String(item.local.height + 2 * pad));
  view.ring.classList.add("rv-on");
}

function neighbour(view, item, key) {
  // Arrow keys walk the tree: towards the root, to the first child, between
  // siblings. Drawn left to right, the axes swap.
  const leftToRight = view.data.direction === "LR";
  const up = leftToRight ? "ArrowLeft" : "ArrowUp";
  const down = leftToRight ? "ArrowRight" : "ArrowDown";
  const back = leftToRight ? "ArrowUp" : "ArrowLeft";
  const forth = leftToRight ? "ArrowDown" : "ArrowRight";
  const children = (view.kids.get(item.svg) || []).filter(visible);
  const siblings = (view.kids.get(item.parent) || []).filter(visible);
  const at = siblings.indexOf(item);
  if (key === up) return view.bySvg.get(item.parent);
  if (key === down) return children[0];
  if (key === back) return at > 0 ? siblings[at - 1] : undefined;
  if (key === forth) return at >= 0 ? siblings[at + 1] : undefined;
  if (key === "Home") return view.rootItem;
  return undefined;
}

function onNodeKey(view, item, event) {
  // Keys on a focused node; returns whether the key was used.
  if (event.key === "Enter") {
    if (view.data.selectable) selectLocally(view, item);
    return true;
  }
  if (event.key === " ") {
    toggleLocally(view, item);
    return true;
  }
  if (event.key === "Escape") {
    view.ring.classList.remove("rv-on");
    view.viewport.focus({ preventScroll: true });
    return true;
  }
  const next = neighbour(view, item, event.key);
  if (next) focusNode(view, next);
  return next !== undefined || event.key.startsWith("Arrow");
}

function onViewKey(view, event) {
  // Keys on the viewport itself: zoom, fit, 100 %, map, legend, pan, full screen.
  const moves = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] };
  if (event.key === "+" || event.key === "=") zoomCenter(view, STEP);
  else if (event.key === "-" || event.key === "_") zoomCenter(view, 1 / STEP);
  else if (event.key === "0") actualSize(view);
  else if (event.key === "f" || event.key === "F") fit(view);
  else if (event.key === "m" || event.key === "M") toggleMap(view);
  else if (event.key === "l" || event.key === "L") toggleLegend(view);
  else if (moves[event.key] && event.target === view.viewport) panBy(view, ...moves[event.key]);
  else return false;
  return true;
}

// -- full screen and the map button --------------------------------------------

function setOverlay(view, on) {
  // Without the Fullscreen API: the view covers the window (Escape leaves).
  view.root.classList.toggle("rv-full", on);
  fullscreenChanged(view);
}

function isFullscreen(view) {
  // The view lives in a shadow root: the document names its host; the shadow root names the view.
  const scope = view.root.getRootNode();
  return (scope.fullscreenElement || document.fullscreenElement) === view.root;
}

function toggleFullscreen(view) {
  const root = view.root;
  if (isFullscreen(view)) {
    document.exitFullscreen();
  } else if (root.classList.contains("rv-full")) {
    setOverlay(view, false);
  } else if (root.requestFullscreen && document.fullscreenEnabled) {
    root.requestFullscreen().catch(() => setOverlay(view, true));
  } else {
    setOverlay(view, true);
  }
}

function fullscreenChanged(view) {
  const on = isFullscreen(view) || view.root.classList.contains("rv-full");
  view.root.classList.toggle("rv-fullscreen", on);
  const button = view.root.querySelector(".rv-full-button");
  button.setAttribute("aria-pressed", on ? "true" : "false");
  button.title = on ? "Leave full screen (Esc)" : "Full screen (Esc leaves)";
}

function toggleOverlay(view, name) {
  // The map or the legend's copy ("rv-map", "rv-legend"): its button's class, and "<name>-off" on the root.
  const hidden = view.root.classList.toggle(`${name}-off`);
  view.root.querySelector(`.${name}`).setAttribute("aria-pressed", hidden ? "false" : "true");
}

function toggleMap(view) {
  toggleOverlay(view, "rv-map");
}

function toggleLegend(view) {
  toggleOverlay(view, "rv-legend");
  pinLegend(view);
}

// -- interaction -------------------------------------------------------------

function nodeAt(view, target) {
  const group = target.closest && target.closest("g.node");
  return group ? view.bySvg.get(group.id) : undefined;
}

function wireWheel(view) {
  // Wheel events come faster than frames: add them up and zoom once a frame,
  // about the last pointer position.
  const port = view.viewport;
  let pending = null;
  port.addEventListener("wheel", (event) => {
    event.preventDefault();
    const rect = port.getBoundingClientRect();
    const onMap = view.mini && view.mini.contains(event.target);
    // Trackpads send small deltas (and ctrlKey for a pinch): zoom in proportion.
    const amount = clamp(-event.deltaY * (event.deltaMode === 1 ? 33 : 1), -300, 300);
    if (!pending) {
      pending = { amount: 0 };
      requestAnimationFrame(() => {
        const { amount: total, px, py } = pending;
        pending = null;
        moving(view);
        zoomAt(view, Math.pow(STEP, total / 100), px, py);
      });
    }
    pending.amount += amount;
    pending.px = onMap ? view.w / 2 : event.clientX - rect.left;
    pending.py = onMap ? view.h / 2 : event.clientY - rect.top;
  }, { passive: false });
}

function wire(view) {
  const port = view.viewport;
  let drag = null;
  wireWheel(view);
  wireMinimap(view);
  port.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    drag = { x: event.clientX, y: event.clientY, x0: view.x, y0: view.y, moved: false, id: event.pointerId };
  });
  port.addEventListener("pointermove", (event) => {
    if (drag) {
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) > 4) {
        drag.moved = true;
        port.setPointerCapture(drag.id);
        port.classList.add("rv-dragging");
        view.tip.hidden = true;
      }
      if (drag.moved) {
        moving(view);
        view.x = drag.x0 + dx;
        view.y = drag.y0 + dy;
        view.mode = null;
        apply(view);
      }
      return;
    }
    const item = nodeAt(view, event.target);
    if (item) showTip(view, item, event);
    else view.tip.hidden = true;
  });
  const release = (event) => {
    if (!drag) return;
    const moved = drag.moved;
    drag = null;
    port.classList.remove("rv-dragging");
    if (moved) return;
    const toggle = event.target.closest && event.target.closest(".rv-toggle");
    if (toggle) {
      const item = view.byId.get(Number(toggle.getAttribute("data-node-id")));
      if (item) toggleLocally(view, item);
      return;
    }
    const item = nodeAt(view, event.target);
    if (item && view.data.selectable) selectLocally(view, item);
  };
  port.addEventListener("pointerup", release);
  port.addEventListener("pointercancel", () => { drag = null; port.classList.remove("rv-dragging"); });
  port.addEventListener("pointerleave", () => { view.tip.hidden = true; });
  port.addEventListener("keydown", (event) => {
    const item = event.target !== port ? nodeAt(view, event.target) : undefined;
    const used = (item && onNodeKey(view, item, event)) || onViewKey(view, event);
    if (used) event.preventDefault();
  });
  // The focus ring follows keyboard focus only; a click does not move the view.
  port.addEventListener("focusin", (event) => {
    const item = nodeAt(view, event.target);
    if (item && event.target.matches(":focus-visible")) {
      setTabItem(view, item);
      reveal(view, item);
      showRing(view, item);
    }
  });
  port.addEventListener("focusout", () => { if (view.ring) view.ring.classList.remove("rv-on"); });
  view.root.addEventListener("keydown", (event) => {
    // Escape leaves full screen from anywhere in the view but a focused node
    // (there it first gives the focus back to the viewport). Browsers leave
    // the Fullscreen API's mode on Escape themselves; not every one does.
    if (event.key !== "Escape" || event.defaultPrevented) return;
    if (view.root.classList.contains("rv-full")) setOverlay(view, false);
    else if (isFullscreen(view)) document.exitFullscreen();
  });
  const buttons = {
    "rv-in": () => zoomCenter(view, STEP),
    "rv-out": () => zoomCenter(view, 1 / STEP),
    "rv-fit": () => fit(view),
    "rv-actual": () => actualSize(view),
    "rv-map": () => toggleMap(view),
    "rv-legend": () => toggleLegend(view),
    "rv-full-button": () => toggleFullscreen(view),
  };
  for (const [cls, action] of Object.entries(buttons)) {
    view.root.querySelector(`.${cls}`).addEventListener("click", action);
  }
  document.addEventListener("fullscreenchange", () => fullscreenChanged(view));
  new ResizeObserver(() => {
    measure(view);
    if (!view.svg) return;
    if (view.mode === "open") open(view);
    else if (view.mode === "fit") fit(view);
    else apply(view);
  }).observe(port);
}

function sizeViewport(view, data) {
  // Tall enough for the tree at its opening zoom, within the page's limits:
  // down to the bottom of the screen when the view starts on it, and at least
  // 60 % of the window's height when the tree needs it (the reader scrolls).
  const width = view.viewport.clientWidth || view.root.clientWidth || 800;
  const screen = window.innerHeight;
  const low = data.min_height || 160;
  const room = screen - view.viewport.getBoundingClientRect().top - 24;
  const high = Math.min(data.max_height || Infinity, Math.max(0.6 * screen, Math.min(room, screen - 80)));
  const across = view.width * PT_TO_PX;
  const down = view.height * PT_TO_PX;
  const fitted = Math.min(1, width / across, Math.max(1, high - 16) / down);
  const scale = Math.max(fitted, readableScale(view));
  const height = clamp(Math.ceil(down * scale) + 16, low, Math.max(low, high));
  view.naturalHeight = Math.round(height);
  // Views drawn side by side (a group) take the tallest one's height, so the rows below them line up.
  const members = groupViews(view);
  const tallest = Math.max(...members.map((member) => member.naturalHeight || 0));
  for (const member of members) member.viewport.style.height = `${tallest}px`;
}

function renderView(root, key, data, send) {
  // Draw `data` in the view DOM `root`; `key` names the view across calls
  // (its zoom and pan survive new data). Returns the clean-up for the host.
  let view = views.get(key);
  if (!view || view.root !== root) {
    const kept = view;
    view = makeView(root);
    if (kept) {
      Object.assign(view, {
        scale: kept.scale, x: kept.x, y: kept.y, mode: kept.mode, layoutKey: kept.layoutKey, anchorId: kept.anchorId,
      });
    }
    views.set(key, view);
    wire(view);
  }
  view.renders += 1;
  root.dataset.renders = String(view.renders);
  view.send = send;
  const previousGroup = view.data && view.data.group;
  view.data = data;
  if (previousGroup && groups.has(previousGroup)) groups.get(previousGroup).delete(view);
  if (data.group) {
    if (!groups.has(data.group)) groups.set(data.group, new Set());
    groups.get(data.group).add(view);
  }
  root.querySelector(".rv-caption").textContent = data.label || "";
  view.viewport.setAttribute("aria-label", data.label || "tree");
  const firstDrawing = !view.svg;
  const newTree = view.layoutKey !== data.layout_key;
  if (view.svgText !== data.svg) {
    loadSvg(view, data);
    // A new tree gets a view of its own height; a fold of the same tree keeps it.
    if (firstDrawing || newTree) sizeViewport(view, data);
    measure(view);
    if (newTree || view.mode === "open") open(view, true, newTree);
    else if (view.mode === "fit") fit(view);
    else apply(view);
  }
  view.layoutKey = data.layout_key;
  mark(view, data);
  if (data.trace) {
    view.card.replaceChildren(...data.trace.lines.map((line, k) => {
      const div = document.createElement("div");
      div.textContent = line;
      if (k === 0) div.className = "rv-tip-head";
      return div;
    }));
    view.card.hidden = false;
    view.cardSize = { w: view.card.offsetWidth, h: view.card.offsetHeight };
  }
  placeCard(view);
  root.dataset.ready = "1";
  return () => {
    if (data.group && groups.has(data.group)) groups.get(data.group).delete(view);
  };
}
