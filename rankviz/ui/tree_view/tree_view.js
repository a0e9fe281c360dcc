// rankviz tree view: a Graphviz SVG tree to zoom, pan, click, fold, trace and replay.
//
// Written for Streamlit's components v2: Streamlit calls the default export on
// mount and again whenever the data from Python changes, with the same DOM.
// The drawing is replaced only when its SVG changes; selection, trace, growth
// step and folding marks are classes on that one drawing, so nothing moves.
// Everything user-written reaches the page as text (textContent) or inside the
// SVG that Graphviz escaped; nothing is fetched from the network.

const PT_TO_PX = 4 / 3;            // 100 %: one point of the drawing is 4/3 CSS px
const MIN_SCALE = 0.02;
const MAX_SCALE = 8;
const STEP = 1.25;                 // one wheel notch or button press
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
    svg: null,
    svgText: null,
    width: 0,                      // drawing size in points
    height: 0,
    scale: 1,                      // 1 = 100 %
    x: 0,                          // translation of the drawing in px
    y: 0,
    fitted: false,
    byId: new Map(),               // stable id -> node record
    bySvg: new Map(),              // svg id -> node record
    data: null,
    send: null,
  };
}

// -- geometry ----------------------------------------------------------------

function apply(view) {
  if (!view.svg) return;
  // The SVG element fills the viewport and its viewBox is the part of the
  // drawing on screen: the browser draws only that, crisp at any zoom.
  const k = view.scale * PT_TO_PX;
  const w = view.viewport.clientWidth;
  const h = view.viewport.clientHeight;
  view.svg.setAttribute("width", String(w));
  view.svg.setAttribute("height", String(h));
  view.svg.setAttribute("viewBox", `${-view.x / k} ${-view.y / k} ${w / k} ${h / k}`);
  view.readout.textContent = `${Math.round(view.scale * 100)} %`;
  view.root.dataset.scale = view.scale.toFixed(4);
  placeCard(view);
}

function fitScale(view) {
  const w = view.viewport.clientWidth;
  const h = view.viewport.clientHeight;
  if (!w || !h || !view.width) return 1;
  return Math.min(w / (view.width * PT_TO_PX), h / (view.height * PT_TO_PX), 1);
}

function groupScale(view) {
  const name = view.data && view.data.group;
  if (!name || !groups.has(name)) return fitScale(view);
  let scale = Infinity;
  for (const other of groups.get(name)) {
    if (other.svg && other.root.isConnected) scale = Math.min(scale, fitScale(other));
  }
  return Number.isFinite(scale) ? scale : fitScale(view);
}

function center(view) {
  const w = view.viewport.clientWidth;
  const k = view.scale * PT_TO_PX;
  view.x = Math.max(0, (w - view.width * k) / 2);
  view.y = 0;
}

function fit(view, spread = true) {
  view.scale = groupScale(view);
  center(view);
  view.fitted = true;
  apply(view);
  // The views of a group drawn before this one were fitted without it: while
  // nobody has zoomed them, they take the group's scale too.
  const name = view.data && view.data.group;
  if (spread && name && groups.has(name)) {
    for (const other of groups.get(name)) {
      if (other !== view && other.svg && other.fitted && other.root.isConnected
          && Math.abs(other.scale - view.scale) > 1e-6) fit(other, false);
    }
  }
}

function zoomAt(view, factor, px, py, spread = true) {
  const scale = clamp(view.scale * factor, MIN_SCALE, MAX_SCALE);
  const ratio = scale / view.scale;
  view.x = px - (px - view.x) * ratio;
  view.y = py - (py - view.y) * ratio;
  view.scale = scale;
  view.fitted = false;
  apply(view);
  const name = view.data && view.data.group;
  if (spread && name && groups.has(name)) {
    for (const other of groups.get(name)) {
      if (other !== view && other.svg) {
        zoomAt(other, scale / other.scale, other.viewport.clientWidth / 2, 0, false);
      }
    }
  }
}

function zoomCenter(view, factor) {
  zoomAt(view, factor, view.viewport.clientWidth / 2, view.viewport.clientHeight / 2);
}

function actualSize(view) {
  const w = view.viewport.clientWidth / 2;
  const h = view.viewport.clientHeight / 2;
  zoomAt(view, 1 / view.scale, w, h);
}

// -- the drawing -------------------------------------------------------------

function outerShape(group) {
  // The first path or polygon of a Graphviz node is its box; the rest are cells.
  return group.querySelector("path, polygon");
}

function loadSvg(view, data) {
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
  view.stage.replaceChildren(node);
  view.svg = node;
  view.svgText = data.svg;
  view.width = data.width;
  view.height = data.height;
  view.byId.clear();
  view.bySvg.clear();
  for (const record of data.nodes) {
    const group = node.querySelector(`g.node[id="${record.svg}"]`);
    if (!group) continue;
    const item = { ...record, group, shape: outerShape(group), edge: null };
    if (record.edge) item.edge = node.querySelector(`g.edge[id="${record.edge}"]`);
    group.classList.add(record.leaf ? "rv-leaf" : "rv-internal");
    group.setAttribute("data-node-id", String(record.id));
    if (item.shape) item.shape.classList.add("rv-shape");
    view.byId.set(record.id, item);
    view.bySvg.set(record.svg, item);
    if (!record.leaf) addToggle(view, item);
  }
  // Say only what this drawing does: a plain drawing (no tree nodes) zooms and pans.
  const hint = view.root.querySelector(".rv-hint");
  if (hint) {
    const parts = ["wheel: zoom", "drag: pan"];
    if (data.nodes.length && data.selectable) parts.push("click: inspect");
    if (data.nodes.some((record) => !record.leaf)) parts.push("⊖: collapse");
    hint.textContent = parts.join(" · ");
  }
}

function shapeBox(shape) {
  // The box of a node from its outline's coordinates (getBBox gives zeros
  // while the view sits in a hidden tab).
  const text = shape.getAttribute("points") || shape.getAttribute("d") || "";
  const numbers = (text.match(/-?\d+(?:\.\d+)?/g) || []).map(Number);
  const xs = numbers.filter((_, k) => k % 2 === 0);
  const ys = numbers.filter((_, k) => k % 2 === 1);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

function addToggle(view, item) {
  // A small round button at the bottom (top-down) or right (left to right) of
  // the box: "−" folds the subtree away, "+" opens a folded one.
  if (!item.shape) return;
  const box = shapeBox(item.shape);
  const leftToRight = view.data.direction === "LR";
  const cx = leftToRight ? box.x + box.width : box.x + box.width / 2;
  const cy = leftToRight ? box.y + box.height / 2 : box.y + box.height;
  const ns = "http://www.w3.org/2000/svg";
  const toggle = document.createElementNS(ns, "g");
  toggle.setAttribute("class", "rv-toggle");
  toggle.setAttribute("data-node-id", String(item.id));
  toggle.setAttribute("role", "button");
  const label = `${item.folded ? "Expand" : "Collapse"} node #${item.id}`;
  toggle.setAttribute("aria-label", label);
  const circle = document.createElementNS(ns, "circle");
  circle.setAttribute("cx", String(cx));
  circle.setAttribute("cy", String(cy));
  circle.setAttribute("r", "7");
  const sign = document.createElementNS(ns, "text");
  sign.setAttribute("x", String(cx));
  sign.setAttribute("y", String(cy + 4));
  sign.setAttribute("text-anchor", "middle");
  sign.textContent = item.folded ? "+" : "\u2212";
  const hint = document.createElementNS(ns, "title");
  hint.textContent = label;
  toggle.append(circle, sign, hint);
  item.group.parentNode.appendChild(toggle);
  item.toggle = toggle;
}

function mark(view, data) {
  const revealed = data.revealed ? new Set(data.revealed) : null;
  const path = new Set(data.path || []);
  for (const item of view.byId.values()) {
    const future = revealed !== null && !revealed.has(item.id);
    const classes = [
      ["rv-selected", item.id === data.selected],
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
  const key = view.root.querySelector(".rv-key");
  const entries = [];
  if (data.current !== null && data.current !== undefined) entries.push(["rv-key-current", "just split"]);
  if (data.selected !== null && data.selected !== undefined) entries.push(["rv-key-selected", "inspected"]);
  if (path.size) entries.push(["rv-key-path", "traced path"]);
  key.replaceChildren(...entries.map(([cls, text]) => {
    const span = document.createElement("span");
    span.className = cls;
    span.textContent = text;
    return span;
  }));
  placeCard(view);
}

function placeCard(view) {
  const data = view.data;
  const trace = data && data.trace;
  const item = trace && view.byId.get(trace.node);
  if (!item || !view.svg) {
    view.card.hidden = true;
    return;
  }
  view.card.hidden = false;
  const box = item.group.getBoundingClientRect();
  const port = view.viewport.getBoundingClientRect();
  const w = view.card.offsetWidth;
  const h = view.card.offsetHeight;
  // Right of the leaf, else left of it, else below or above it: never on the
  // leaf it describes when there is room elsewhere; always inside the view.
  let left = box.right - port.left + 8;
  let top = box.top - port.top;
  if (left + w > port.width - 4) {
    left = box.left - port.left - w - 8;
    if (left < 4) {
      left = box.left - port.left + (box.width - w) / 2;
      top = box.bottom - port.top + 8;
      if (top + h > port.height - 4) top = box.top - port.top - h - 8;
    }
  }
  view.card.style.left = `${clamp(left, 4, Math.max(4, port.width - w - 4))}px`;
  view.card.style.top = `${clamp(top, 4, Math.max(4, port.height - h - 4))}px`;
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

// -- interaction -------------------------------------------------------------

function nodeAt(view, target) {
  const group = target.closest && target.closest("g.node");
  return group ? view.bySvg.get(group.id) : undefined;
}

function wire(view) {
  const port = view.viewport;
  let drag = null;
  port.addEventListener("wheel", (event) => {
    event.preventDefault();
    const rect = port.getBoundingClientRect();
    // Trackpads send small deltas (and ctrlKey for a pinch): zoom in proportion.
    const amount = clamp(-event.deltaY * (event.deltaMode === 1 ? 33 : 1), -300, 300);
    zoomAt(view, Math.pow(STEP, amount / 100), event.clientX - rect.left, event.clientY - rect.top);
  }, { passive: false });
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
        view.x = drag.x0 + dx;
        view.y = drag.y0 + dy;
        view.fitted = false;
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
      view.send("toggle", Number(toggle.getAttribute("data-node-id")));
      return;
    }
    const item = nodeAt(view, event.target);
    if (item && view.data.selectable) view.send("select", item.id);
  };
  port.addEventListener("pointerup", release);
  port.addEventListener("pointercancel", () => { drag = null; port.classList.remove("rv-dragging"); });
  port.addEventListener("pointerleave", () => { view.tip.hidden = true; });
  port.addEventListener("keydown", (event) => {
    const moves = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] };
    if (event.key === "+" || event.key === "=") zoomCenter(view, STEP);
    else if (event.key === "-" || event.key === "_") zoomCenter(view, 1 / STEP);
    else if (event.key === "0") actualSize(view);
    else if (event.key === "f" || event.key === "F") fit(view);
    else if (moves[event.key]) {
      view.x += moves[event.key][0];
      view.y += moves[event.key][1];
      view.fitted = false;
      apply(view);
    } else return;
    event.preventDefault();
  });
  const buttons = {
    "rv-in": () => zoomCenter(view, STEP),
    "rv-out": () => zoomCenter(view, 1 / STEP),
    "rv-fit": () => fit(view),
    "rv-actual": () => actualSize(view),
  };
  for (const [cls, action] of Object.entries(buttons)) {
    view.root.querySelector(`.${cls}`).addEventListener("click", action);
  }
  new ResizeObserver(() => { if (view.fitted) fit(view); else placeCard(view); }).observe(port);
}

function sizeViewport(view, data) {
  // As tall as the drawing fitted to the width, within the page's limits and,
  // when the view starts on the first screen, not past its bottom edge.
  const width = view.viewport.clientWidth || view.root.clientWidth || 800;
  const natural = data.height * PT_TO_PX * Math.min(1, width / (data.width * PT_TO_PX));
  const low = data.min_height || 160;
  let high = data.max_height || 560;
  const room = window.innerHeight - view.viewport.getBoundingClientRect().top - 40;
  // On the first screen: down to its bottom edge. Starting lower, the reader
  // scrolls to it: then as tall as a screen shows whole.
  high = Math.min(high, room >= 240 ? room : Math.max(240, window.innerHeight - 120));
  const height = clamp(Math.ceil(natural) + 16, low, Math.max(low, high));
  view.viewport.style.height = `${height}px`;
}

export default function (component) {
  const { data, parentElement, setTriggerValue, key } = component;
  const root = parentElement.querySelector(".rv-root");
  let view = views.get(key);
  if (!view || view.root !== root) {
    const kept = view;
    view = makeView(root);
    if (kept) Object.assign(view, { scale: kept.scale, x: kept.x, y: kept.y, fitted: kept.fitted });
    views.set(key, view);
    wire(view);
  }
  view.send = (name, value) => setTriggerValue(name, value);
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
    // A new tree gets a view of its own height; a fold of the same tree keeps it.
    if (firstDrawing || newTree) sizeViewport(view, data);
    loadSvg(view, data);
    if (firstDrawing || newTree || view.fitted) fit(view);
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
    placeCard(view);
  }
  root.dataset.ready = "1";
  return () => {
    if (data.group && groups.has(data.group)) groups.get(data.group).delete(view);
  };
}
