// The win-probability chart at the end of a game: one line per seat, one point per position
// analysed (x: the decision number), drawn as SVG at the width it is shown at (the page passes
// its box's width and redraws on a resize), so that its text keeps its size (12 px, the legend
// 13 px) on a phone instead of being scaled down with the drawing.

const NS = "http://www.w3.org/2000/svg";
const COLORS = ["#1f6fd1", "#d1451f", "#2e9e48", "#8a3fc2"];

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** points: [{x, p: [per seat]}]; names: per seat ("seat 1 (AI level 3)"), two to a legend line
 * (one below 560 px). */
export function winChart(points, names, { width = 640, height = 260 } = {}) {
  const perLine = width >= 560 ? 2 : 1;
  const legendLines = Math.ceil(names.length / perLine);
  height += 16 * (legendLines - Math.ceil(names.length / 2)); // the plot keeps its height
  const pad = { left: 44, right: 12, top: 8 + 16 * legendLines, bottom: 30 };
  const w = width - pad.left - pad.right;
  const h = height - pad.top - pad.bottom;
  const maxX = Math.max(1, ...points.map((q) => q.x));
  const X = (x) => pad.left + (x / maxX) * w;
  const Y = (p) => pad.top + (1 - p) * h;
  const root = svg("svg", { class: "chart", viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
    "aria-label": "win probability per seat over the game" });
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    root.append(svg("line", { x1: pad.left, x2: pad.left + w, y1: Y(p), y2: Y(p), class: "grid" }));
    root.append(svg("text", { x: pad.left - 6, y: Y(p) + 4, "text-anchor": "end" }, `${Math.round(p * 100)}%`));
  }
  root.append(svg("text", { x: pad.left + w / 2, y: height - 6, "text-anchor": "middle" }, "decision"));
  names.forEach((name, seat) => {
    const pts = points.filter((q) => q.p[seat] !== undefined).map((q) => `${X(q.x).toFixed(1)},${Y(q.p[seat]).toFixed(1)}`);
    root.append(svg("polyline", { points: pts.join(" "), fill: "none", stroke: COLORS[seat % COLORS.length],
      "stroke-width": 2, "data-seat": seat }));
    root.append(svg("text", { x: pad.left + (seat % perLine) * 280, y: 18 + 16 * Math.floor(seat / perLine),
      style: `fill: ${COLORS[seat % COLORS.length]}; font-size: 13px`, class: "legend", "data-seat": seat }, `■ ${name}`));
  });
  return root;
}
