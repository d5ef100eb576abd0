// tapology serve: the page.  The server says what is where (tiles, sides, pieces, legal turns); this file draws it
// as SVG and sends clicks back.  No build step: plain ES2020.
"use strict";

const $ = (id) => document.getElementById(id);
const NS = "http://www.w3.org/2000/svg";
const GLYPH = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };

function say(text, error = false) {
  const m = $("msg");
  m.textContent = text || "";
  m.className = error ? "error" : "";
}

async function api(path, body, token) {
  const opts = { headers: {} };
  if (body !== undefined) {
    opts.method = "POST";
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  if (token) opts.headers["X-Seat"] = token;
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new Error("the server does not answer: " + e.message);
  }
  let data;
  try {
    data = await res.json();
  } catch (e) {
    throw new Error(`the server answered ${res.status} without JSON`);
  }
  if (!res.ok) {
    const err = new Error(data.error || `error ${res.status}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

const f2 = (x) => Math.round(x * 100) / 100;

// ---- pan and zoom ----------------------------------------------------------------------------------------
// The SVG is as big as its drawing at the current zoom, inside a frame that clips it; panning moves it by a CSS
// transform (the compositor moves the painted picture: nothing is drawn again, however many tiles), and zooming
// scales it at once and draws it again at the new size when the wheel stops.
function panZoom(svg) {
  const stage = document.createElement("div");
  stage.className = "stage " + svg.getAttribute("class").replace("pic", "").trim();
  svg.parentNode.insertBefore(stage, svg);
  const mover = document.createElement("div");
  mover.className = "mover";
  stage.appendChild(mover);
  mover.appendChild(svg);
  svg.setAttribute("class", "drawing");
  const st = { k: 1, s: 1, tx: 0, ty: 0, box: [0, 0, 1, 1], drag: null, moved: false, timer: null, cell: 48 };
  svg._view = st;
  // whole pixels: a fractional offset makes the browser paint the picture again (text is placed to the pixel)
  const place = () => { mover.style.transform = `translate(${Math.round(st.tx)}px,${Math.round(st.ty)}px) scale(${st.s})`; };
  const size = () => {
    const [x0, y0, x1, y1] = st.box;
    svg.setAttribute("viewBox", `${f2(x0)} ${f2(y0)} ${f2(x1 - x0)} ${f2(y1 - y0)}`);
    svg.setAttribute("width", f2((x1 - x0) * st.k));
    svg.setAttribute("height", f2((y1 - y0) * st.k));
    // level of detail: tile ids and orientation flags only where a tile is big enough on screen to read them
    svg.classList.toggle("far", st.k * (st.cell || 48) < 18);
  };
  const visible = () => {
    const r = stage.getBoundingClientRect();
    st.w = r.width / (st.k * st.s); st.h = r.height / (st.k * st.s);
  };
  st.fit = (x0, y0, x1, y1) => {
    const r = stage.getBoundingClientRect();
    const W = r.width || 400, H = r.height || 400;
    st.box = [x0, y0, x1, y1];
    st.k = Math.min(W / (x1 - x0), H / (y1 - y0));
    st.s = 1;
    st.tx = (W - (x1 - x0) * st.k) / 2; st.ty = (H - (y1 - y0) * st.k) / 2;
    size(); place(); visible();
  };
  // zoom by f about the stage point (px, py), drawn again at once
  st.zoom = (f, px, py) => {
    st.tx = px - (px - st.tx) * f; st.ty = py - (py - st.ty) * f; st.k *= f * st.s; st.s = 1;
    size(); place(); visible();
  };
  st.panBy = (dx, dy) => { st.tx -= dx * st.k * st.s; st.ty -= dy * st.k * st.s; place(); };
  stage.addEventListener("pointerdown", (e) => {
    st.drag = { x: e.clientX, y: e.clientY, tx: st.tx, ty: st.ty };
    st.moved = false;
  });
  stage.addEventListener("pointermove", (e) => {
    if (!st.drag) return;
    const dx = e.clientX - st.drag.x, dy = e.clientY - st.drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 4) st.moved = true;
    if (!st.moved) return;
    st.tx = st.drag.tx + dx; st.ty = st.drag.ty + dy;
    place();
  });
  const end = () => { st.drag = null; };
  stage.addEventListener("pointerup", end);
  stage.addEventListener("pointerleave", end);
  stage.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = stage.getBoundingClientRect();
    const f = Math.exp(-e.deltaY * 0.0015);
    const px = e.clientX - r.left, py = e.clientY - r.top;
    st.tx = px - (px - st.tx) * f; st.ty = py - (py - st.ty) * f; st.s *= f;
    place(); visible();
    clearTimeout(st.timer);
    st.timer = setTimeout(() => { st.k *= st.s; st.s = 1; size(); place(); visible(); }, 250);
  }, { passive: false });
  // a click that ended a drag is not a click on a tile
  stage.addEventListener("click", (e) => { if (st.moved) { e.stopImmediatePropagation(); st.moved = false; } }, true);
  return st;
}

// ---- drawing placed tiles -------------------------------------------------------------------------------
// cells: [[x, y, tile, orientation drawn], ...]; shapes: the grid's polygon, sides and matrices (server side).
function polyPoints(shapes) {
  return shapes.poly.map((p) => p.join(",")).join(" ");
}

function cellsSvg(cells, shapes, tiles, opts = {}) {
  const poly = polyPoints(shapes);
  const s = shapes.scale;
  const out = [];
  const labels = opts.labels || null;
  const pieces = opts.pieces || null;
  // a half arrow (a flag): chiral, so that a mirrored copy of a tile is told from a turned one
  const arrow = `M0,${f2(-s * 0.38)} L${f2(s * 0.13)},${f2(-s * 0.24)} L0,${f2(-s * 0.24)} Z M${f2(-s * 0.02)},${f2(-s * 0.38)} h${f2(s * 0.04)} v${f2(s * 0.2)} h${f2(-s * 0.04)} Z`;
  for (let k = 0; k < cells.length; k++) {
    const [x, y, t, g] = cells[k];
    const tile = tiles[t];
    const m = shapes.matrix[g];
    const cls = opts.faded && opts.faded.has(k) ? "cell faded" : "cell";
    let inner = `<polygon points="${poly}" fill="${tile.colour}"/>` +
      `<path class="arrow" d="${arrow}" transform="matrix(${m[0]},${m[1]},${m[2]},${m[3]},0,0)"/>` +
      `<text x="${f2(-s * 0.42)}" y="${f2(s * 0.4)}">${esc(labels ? labels[t] : tile.id)}</text>`;
    if (pieces && pieces[t]) inner += pieceSvg(pieces[t], g, shapes, opts.chess);
    out.push(`<g class="${cls}" data-k="${k}" data-t="${t}" transform="translate(${x},${y})">${inner}</g>`);
  }
  return out.join("");
}

function pieceSvg(p, g, shapes, chess) {
  // chess pieces as chess glyphs, other games' pieces by their symbol in the owner's colour; a piece that
  // carries a frame is drawn turned by it and by the copy it stands on, the others upright
  const glyph = chess ? GLYPH[p.s] : undefined;
  let tr = "";
  if (p.r) {
    const m = shapes.matrix[shapes.compose[p.f][g]];
    tr = ` transform="matrix(${m[0]},${m[1]},${m[2]},${m[3]},0,0)"`;
  }
  if (glyph) return `<text class="piece"${tr}>${glyph}</text>`;
  return `<text class="sym o${p.o}"${tr}>${esc(p.s)}</text>`;
}

function extent(cells, s) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const c of cells) {
    x0 = Math.min(x0, c[0]); y0 = Math.min(y0, c[1]); x1 = Math.max(x1, c[0]); y1 = Math.max(y1, c[1]);
  }
  if (!cells.length) return [-s, -s, s, s];
  return [x0 - s, y0 - s, x1 + s, y1 + s];
}

function sideLine(x, y, seg, cls, data) {
  if (cls === "side") {
    // a clickable band along the side (a line has no area to click on)
    const x1 = x + seg[0], y1 = y + seg[1], x2 = x + seg[2], y2 = y + seg[3];
    const len = Math.hypot(x2 - x1, y2 - y1) || 1, nx = -(y2 - y1) / len * 6, ny = (x2 - x1) / len * 6;
    const ax = (x2 - x1) * 0.12, ay = (y2 - y1) * 0.12;
    const pts = [[x1 + ax + nx, y1 + ay + ny], [x2 - ax + nx, y2 - ay + ny], [x2 - ax - nx, y2 - ay - ny], [x1 + ax - nx, y1 + ay - ny]];
    return `<polygon class="side" ${data} points="${pts.map((p) => f2(p[0]) + "," + f2(p[1])).join(" ")}"/>`;
  }
  return `<line class="${cls}" ${data} x1="${f2(x + seg[0])}" y1="${f2(y + seg[1])}" x2="${f2(x + seg[2])}" y2="${f2(y + seg[3])}"/>`;
}

function markCells(svg, cls, pred) {
  for (const el of svg.querySelectorAll("g.cell." + cls)) el.classList.remove(cls);
  if (!pred) return;
  for (const el of svg.querySelectorAll("g.cell")) if (pred(+el.dataset.t, +el.dataset.k)) el.classList.add(cls);
}

function classification(c) {
  const bits = [`<b id="surface">${esc(c.surface)}</b>`, `χ = ${c.euler_characteristic}`,
    c.orientable ? "orientable" : "non-orientable",
    c.boundary_components ? `${c.boundary_components} boundary component${c.boundary_components > 1 ? "s" : ""}` : "no boundary"];
  if (c.genus !== null && c.genus !== undefined) bits.push(`genus ${c.genus}`);
  if (!c.manifold) bits.push("not a manifold");
  return bits.join(" · ");
}

// ---- the workshop ---------------------------------------------------------------------------------------
const W = { id: null, state: null, shapes: null, picked: null, centre: 0, coverView: null, tiles: [] };

// tiles as the page knows them: every tile of a small board, the tiles in view of a big one
function learnTiles(into, d) {
  if (d.tiles && d.tiles.length) d.tiles.forEach((t, i) => { into[i] = t; });
  if (d.tile_info) for (const [t, id, colour, state] of d.tile_info) into[t] = { id, colour, state };
}

async function wsOpen(body) {
  say(`opening ${body.board || body.name || "the board"}…`);
  try {
    const d = await api("/api/workshop", body);
    W.id = d.id; W.shapes = d.shapes; W.picked = null; W.centre = 0;
    $("refusal").hidden = true;
    wsShow(d);
    await wsCover();
    say(`opened ${d.name}: ${d.n_tiles} tiles`);
  } catch (e) { say(e.message, true); }
}

function wsShow(d, changed) {
  W.state = d;
  W.tiles = [];
  learnTiles(W.tiles, d);
  $("classification").innerHTML = classification(d.classification);
  $("tapings").innerHTML = d.tapings.map((t) => `<li>${esc(t)}</li>`).join("");
  $("ws-undo").disabled = !d.can_undo;
  $("ws-redo").disabled = !d.can_redo;
  $("ws-download").href = `/api/workshop/${W.id}/board.toml`;
  drawNet(d);
  if (changed) markCells($("net"), "flash", (t) => changed.includes(t));
}

function drawNet(d) {
  const svg = $("net");
  if (!d.net) {
    svg.innerHTML = `<text x="10" y="20">the board has ${d.n_tiles} tiles: see its cover</text>`;
    return;
  }
  const cells = d.net.cells;
  const sh = W.shapes;
  let html = cellsSvg(cells, sh, d.tiles);
  const at = {};
  cells.forEach((c) => { at[c[2]] = c; });
  const names = sh.side_names;
  const ids = {};
  d.tiles.forEach((t, i) => { ids[t.id] = i; });
  const sideOf = (txt) => { const i = txt.lastIndexOf("."); return [ids[txt.slice(0, i)], names.indexOf(txt.slice(i + 1))]; };
  for (const [t, s] of d.open_sides) {
    const c = at[t];
    if (!c) continue;
    html += sideLine(c[0], c[1], sh.sides[c[3]][s], "side", `data-t="${t}" data-s="${s}"`);
    html += sideLine(c[0], c[1], sh.sides[c[3]][s], "edge", "");
  }
  for (const p of d.net.pairs) {
    for (const side of p.sides) {
      const [t, s] = sideOf(side);
      const c = at[t];
      if (!c) continue;
      const seg = sh.sides[c[3]][s];
      const mx = c[0] + (seg[0] + seg[2]) / 2 * 0.8, my = c[1] + (seg[1] + seg[3]) / 2 * 0.8;
      html += `<text class="pair" x="${f2(mx)}" y="${f2(my)}">${esc(p.label)}${p.flip ? "~" : ""}</text>`;
    }
  }
  svg.innerHTML = html;
  if (!svg._view) panZoom(svg);
  const e = extent(cells, sh.scale);
  svg._view.fit(...e);
}

async function wsCover() {
  if (!W.id) return;
  const r = Math.max(0, Math.min(60, parseInt($("ws-radius").value || "3", 10)));
  try {
    const d = await api(`/api/workshop/${W.id}/cover?tile=${W.centre}&radius=${r}`);
    const svg = $("ws-cover");
    learnTiles(W.tiles, d);
    svg.innerHTML = cellsSvg(d.cells, W.shapes, W.tiles) + edgesSvg(d, W.shapes);
    $("ws-centre").textContent = W.tiles[W.centre].id;
    if (!svg._view) panZoom(svg);
    svg._view.fit(...extent(d.cells, W.shapes.scale));
    W.coverView = d;
    await wsChart();
  } catch (e) { say(e.message, true); }
}

async function wsChart() {
  // the chart of the centre tile; the cells whose entry changed since it was last drawn flash
  const d = await api(`/api/workshop/${W.id}/chart?tile=${W.centre}`);
  learnTiles(W.tiles, d);
  const svg = $("ws-chart");
  svg.innerHTML = cellsSvg(d.cells, W.shapes, W.tiles);
  if (!svg._view) panZoom(svg);
  svg._view.fit(...extent(d.cells, W.shapes.scale));
  $("ws-chart-of").textContent = W.tiles[W.centre].id;
  const key = (c) => `${c[0]},${c[1]}`;
  const before = W.chartOf === W.centre && W.chart ? new Map(W.chart.map((c) => [key(c), `${c[2]}/${c[3]}`])) : null;
  if (before) {
    d.cells.forEach((c, k) => {
      if (before.get(key(c)) !== `${c[2]}/${c[3]}`) svg.querySelector(`g.cell[data-k='${k}']`).classList.add("flash");
    });
  }
  W.chart = d.cells; W.chartOf = W.centre;
}

function edgesSvg(d, sh) {
  let html = "";
  for (const [k, s] of d.edges) {
    const c = d.cells[k];
    html += sideLine(c[0], c[1], sh.sides[c[3]][s], "edge", "");
  }
  return html;
}

async function wsAct(act, extra = {}) {
  try {
    const d = await api(`/api/workshop/${W.id}/${act}`, { version: W.state.version, ...extra });
    if (d.refused) {
      const r = d.refused;
      $("refusal").hidden = false;
      $("refusal").innerHTML = `<b>refused: ${esc(r.taping)}</b>\n${esc(r.text)}\n\n<b>minimal set of tapings that cannot hold together:</b> ${esc(r.minimal.join(", "))}`;
      markCells($("net"), "bad", (t) => r.cells.includes(t));
      say(`refused: ${r.taping}`, true);
      return;
    }
    $("refusal").hidden = true;
    wsShow(d, d.changed);
    await wsCover();
    say(act === "tape" ? `taped ${d.tapings[d.tapings.length - 1]}: now a ${d.classification.surface}` : `${act} done`);
  } catch (e) {
    say(e.message, true);
    if (e.status === 409 && W.id) wsReload();
  }
}

async function wsReload() {
  // a stale picture: show the board as it is now
  try {
    wsShow(await api(`/api/workshop/${W.id}`));
    await wsCover();
  } catch (e) { say(e.message, true); }
}

function wsClick(e) {
  const side = e.target.closest(".side");
  if (side) {
    const t = +side.dataset.t, s = +side.dataset.s;
    if (!W.picked) {
      W.picked = [t, s];
      side.classList.add("picked");
      say(`side ${W.tiles[t].id}.${W.shapes.side_names[s]} picked: now click the side to tape it to`);
      return;
    }
    const [t0, s0] = W.picked;
    W.picked = null;
    for (const el of $("net").querySelectorAll(".picked")) el.classList.remove("picked");
    if (t0 === t && s0 === s) { say("unpicked"); return; }
    wsAct("tape", { tile: t0, side: s0, other: t, other_side: s, flip: $("ws-flip").checked });
    return;
  }
  const cell = e.target.closest("g.cell");
  if (cell) {
    W.centre = +cell.dataset.t;
    wsCover();
  }
}

function coverClick(e) {
  const cell = e.target.closest("g.cell");
  if (!cell) return;
  const t = +cell.dataset.t;
  markCells(e.currentTarget, "same", (u) => u === t);
  const n = e.currentTarget.querySelectorAll("g.cell.same").length;
  const tiles = W.tiles;
  say(`tile ${tiles[t] ? tiles[t].id : t}: ${n} cop${n === 1 ? "y" : "ies"} in this window`);
}

// ---- play -----------------------------------------------------------------------------------------------
const P = { code: null, token: null, state: null, shapes: null, cover: null, sel: null, sock: null, sidePick: null, radius: 4,
  byTile: [], marks: {}, drawn: [] };

function savedToken(code) { try { return sessionStorage.getItem("seat:" + code); } catch (e) { return null; } }
function keepToken(code, tok) { try { if (tok) sessionStorage.setItem("seat:" + code, tok); } catch (e) { /* private mode */ } }

async function plStart(d) {
  P.code = d.code; P.token = d.token || savedToken(d.code); P.shapes = d.shapes; P.sel = null;
  keepToken(d.code, d.token);
  $("pl-code").value = d.code;
  location.hash = "game=" + d.code;
  const n = d.tiles.length;
  P.radius = Math.min(12, Math.ceil(Math.sqrt(n)) + 1);
  P.centre = Math.floor(n / 2);
  await plCover(d);
  plShow(d);
  plWatch();
}

async function plCover(d) {
  const c = await api(`/api/game/${P.code}/cover?tile=${P.centre}&radius=${P.radius}`);
  P.cover = c;
  P.state = d;
  plDrawBoard();
  const svg = $("pl-cover");
  if (!svg._view) panZoom(svg);
  svg._view.fit(...extent(c.cells, P.shapes.scale));
}

function plDrawBoard() {
  const d = P.state, c = P.cover, sh = P.shapes;
  const svg = $("pl-cover");
  let html = cellsSvg(c.cells, sh, d.tiles, { pieces: d.pieces, chess: d.chess, labels: d.squares || null });
  html += edgesSvg(c, sh);
  if (d.moves.some((m) => m.tape)) {
    for (const [k, s] of c.edges) {
      const cc = c.cells[k];
      html += sideLine(cc[0], cc[1], sh.sides[cc[3]][s], "side", `data-t="${cc[2]}" data-s="${s}"`);
    }
  }
  html += winLine(d, c, sh);
  svg.innerHTML = html;
  P.byTile = [];
  for (const el of svg.querySelectorAll("g.cell")) (P.byTile[+el.dataset.t] ||= []).push(el);
  P.marks = {};
  P.drawn = d.pieces;
  plMarks();
}

function winLine(d, c, sh) {
  // the winning line drawn through consecutive copies on the cover (across a seam where it wraps)
  if (!d.line) return "";
  const at = new Map();
  for (const cell of c.cells) at.set(`${Math.round(cell[0])},${Math.round(cell[1])}`, cell[2]);
  const s = sh.scale;
  const dirs = [[s, 0], [0, s], [s, s], [s, -s]];
  let best = null;
  for (const cell of c.cells) {
    if (cell[2] !== d.line[0]) continue;
    for (const [dx, dy] of dirs) {
      for (const sign of [1, -1]) {
        let ok = true;
        for (let i = 1; i < d.line.length && ok; i++) {
          ok = at.get(`${Math.round(cell[0] + sign * dx * i)},${Math.round(cell[1] + sign * dy * i)}`) === d.line[i];
        }
        if (!ok) continue;
        const n = d.line.length - 1;
        const mid = Math.hypot(cell[0] + sign * dx * n / 2, cell[1] + sign * dy * n / 2);
        if (!best || mid < best.mid) best = { x: cell[0], y: cell[1], x2: cell[0] + sign * dx * n, y2: cell[1] + sign * dy * n, mid };
      }
    }
  }
  if (!best) return "";
  return `<line class="winline" x1="${f2(best.x)}" y1="${f2(best.y)}" x2="${f2(best.x2)}" y2="${f2(best.y2)}"/>`;
}

function setMark(cls, tiles) {
  // mark every copy of the given tiles, touching only the copies whose mark changes
  const old = P.marks[cls] || new Set();
  const now = new Set(tiles);
  for (const t of old) if (!now.has(t)) for (const el of P.byTile[t] || []) el.classList.remove(cls);
  for (const t of now) if (!old.has(t)) for (const el of P.byTile[t] || []) el.classList.add(cls);
  P.marks[cls] = now;
}

function plMarks() {
  const d = P.state;
  setMark("last", d.last);
  setMark("check", d.check || []);
  setMark("win", d.line || []);
  setMark("sel", P.sel !== null ? [P.sel] : []);
  setMark("target", P.sel !== null ? d.moves.filter((m) => m.from === P.sel).map((m) => m.to) : []);
}

function plShow(d) {
  P.state = d;
  const who = d.players[d.to_move];
  let status;
  if (d.result) status = `<b id="result">${esc(d.result)}</b>`;
  else status = `<b>${esc(who)}</b> to move${d.check ? " — <b>check</b>" : ""}`;
  const mine = d.you.length ? `you play ${d.you.map((k) => d.players[k]).join(" and ")}` : "watching";
  status += ` · ${esc(d.game)} on ${esc(d.board)} · ${d.players.map((p, k) => `${esc(p)}: ${esc(d.seats[k])}`).join(", ")}` +
    ` · ${mine} · game code <b id="game-code">${esc(d.code)}</b>`;
  $("pl-status").innerHTML = status;
  $("pl-status").dataset.ply = d.ply;
  const items = [];
  for (let i = 0; i < d.sans.length; i += 2) {
    items.push(`<li>${esc(d.sans[i])}${d.sans[i + 1] ? " " + esc(d.sans[i + 1]) : ""}</li>`);
  }
  $("pl-moves").innerHTML = items.join("");
  $("pl-record").href = `/api/game/${d.code}/record.json`;
  $("pl-record").setAttribute("download", `${d.code}.json`);
  $("pl-pgn").hidden = !d.chess;
  $("pl-pgn").href = `/api/game/${d.code}/game.pgn`;
  $("promo").hidden = true;
}

async function plRefresh() {
  if (!P.code) return;
  try {
    const d = await api(`/api/game/${P.code}`, undefined, P.token);
    // the game as shown already (the move's own answer came before this refresh's): keep the player's selection
    if (d.ply === P.state.ply && d.glue === P.state.glue && d.sans.join("\n") === P.state.sans.join("\n")) return;
    if (d.glue !== P.state.glue || d.ply < P.state.ply || d.moves.some((m) => m.tape) || P.state.moves.some((m) => m.tape)) {
      P.state = d;
      await plCover(d);
    } else {
      P.state = d;
      plRedrawPieces();
    }
    plShow(d);
  } catch (e) { say(e.message, true); }
}

function plRedrawPieces() {
  // after a move on an unchanged board only the tiles whose piece changed are drawn again, on every copy
  const d = P.state, sh = P.shapes, svg = $("pl-cover");
  for (let t = 0; t < d.pieces.length; t++) {
    const p = d.pieces[t], q = P.drawn[t];
    if ((p === null) === (q === null) && (p === null || (p.s === q.s && p.o === q.o && p.f === q.f && p.r === q.r))) continue;
    for (const el of P.byTile[t] || []) {
      const old = el.querySelector(".piece, .sym");
      if (old) old.remove();
      if (p) el.insertAdjacentHTML("beforeend", pieceSvg(p, P.cover.cells[+el.dataset.k][3], sh, d.chess));
    }
  }
  P.drawn = d.pieces;
  for (const el of svg.querySelectorAll("line.winline")) el.remove();
  if (d.line) svg.insertAdjacentHTML("beforeend", winLine(d, P.cover, sh));
  P.sel = null;
  plMarks();
}

function plWatch() {
  if (P.sock) { const old = P.sock; P.sock = null; old.close(); }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const sock = new WebSocket(`${proto}://${location.host}/ws/game/${P.code}`);
  P.sock = sock;
  sock.onclose = () => {
    // the server restarted or the connection dropped: listen again while this game is shown
    if (P.sock === sock) setTimeout(() => { if (P.sock === sock) { plWatch(); plRefresh(); } }, 1500);
  };
  sock.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "error") say(m.error, true);
    else if (m.type === "changed" && (!P.state || m.ply !== P.state.ply)) plRefresh();
  };
}

async function plMove(label) {
  const t0 = performance.now();
  try {
    const d = await api(`/api/game/${P.code}/move`, { label, ply: P.state.ply }, P.token);
    P.state = d;
    if (d.moves.some((m) => m.tape) || d.glue) await plCover(d); else plRedrawPieces();
    plShow(d);
    const name = d.sans[d.sans.length - 1] || label;
    say(d.result ? `${name}: ${d.result}` : `played ${name}`);
    $("pl-cover").dataset.roundtrip = (performance.now() - t0).toFixed(1);
  } catch (e) {
    say(e.message, true);
    if (e.status === 409) plRefresh();
  }
}

function plClick(e) {
  const d = P.state;
  if (!d || d.result) return;
  const side = e.target.closest(".side");
  if (side) {
    const t = +side.dataset.t, s = +side.dataset.s;
    if (!P.sidePick) { P.sidePick = [t, s]; side.classList.add("picked"); say("now click the side to tape it to"); return; }
    const [t0, s0] = P.sidePick;
    P.sidePick = null;
    for (const el of $("pl-cover").querySelectorAll(".picked")) el.classList.remove("picked");
    const same = (m) => m.tape && ((m.tape[0] === t0 && m.tape[1] === s0 && m.tape[2] === t && m.tape[3] === s) ||
      (m.tape[0] === t && m.tape[1] === s && m.tape[2] === t0 && m.tape[3] === s0));
    const hits = d.moves.filter(same);
    if (hits.length === 1) plMove(hits[0].label);
    else if (hits.length > 1) promote(hits, "tape: ");
    else say(`taping ${d.tiles[t0].id}.${P.shapes.side_names[s0]} to ${d.tiles[t].id}.${P.shapes.side_names[s]} is not a legal turn here`, true);
    return;
  }
  const cell = e.target.closest("g.cell");
  if (!cell) return;
  const t = +cell.dataset.t;
  const tileName = (d.squares || d.tiles.map((x) => x.id))[t];
  const claims = d.moves.filter((m) => m.from === null && m.to === t && !m.tape);
  if (P.sel !== null) {
    const hits = d.moves.filter((m) => m.from === P.sel && m.to === t);
    if (hits.length === 1) { plMove(hits[0].label); return; }
    if (hits.length > 1) { promote(hits); return; }
  }
  if (claims.length === 1) { plMove(claims[0].label); return; }
  if (d.moves.some((m) => m.from === t)) {
    P.sel = t;
    plMarks();
    say(`${tileName} picked: click a highlighted tile (on any copy)`);
    return;
  }
  if (P.sel !== null) say(`no legal move of the piece on ${(d.squares || d.tiles.map((x) => x.id))[P.sel]} to ${tileName}`, true);
  else if (d.pieces[t] && d.pieces[t].o !== d.to_move) say(`${tileName}: not a piece of ${d.players[d.to_move]}`, true);
  else say(`no legal turn starts on ${tileName}`, true);
  P.sel = null;
  plMarks();
}

function promote(hits, what = "promote to: ") {
  const box = $("promo");
  box.hidden = false;
  box.innerHTML = what + hits.map((m, i) => `<button data-i="${i}">${esc(m.name)}</button>`).join("");
  box.onclick = (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    box.hidden = true;
    plMove(hits[+b.dataset.i].label);
  };
}

async function plNew() {
  try {
    let game = $("pl-game").value.trim();
    const f = $("pl-rules").files[0];
    if (f) {
      const up = await api("/api/upload", { kind: "rules", text: await f.text() });
      game = up.name;
    }
    say(`starting ${game}…`);
    const d = await api("/api/game", {
      game, board: $("pl-board").value.trim() || null,
      seats: [$("pl-x").value.trim() || "human", $("pl-o").value.trim() || "human"], two_tabs: $("pl-two").checked,
    });
    await plStart(d);
    say(`new game ${d.code}: ${d.game} on ${d.board}`);
  } catch (e) { say(e.message, true); }
}

async function plJoin(code) {
  try {
    const d = await api(`/api/game/${encodeURIComponent(code)}/join`, {});
    if (!d.token) d.token = savedToken(d.code);
    await plStart(d);
    say(d.you.length ? `joined game ${d.code}` : `watching game ${d.code} (its seats are taken)`);
  } catch (e) { say(e.message, true); }
}

// ---- walker ---------------------------------------------------------------------------------------------
const K = { wid: null, tiles: null, shapes: null, tile: 0, frame: 0 };

async function wkStart() {
  try {
    const d = await api("/api/workshop", { board: $("wk-board").value.trim() });
    K.wid = d.id; K.tiles = []; K.shapes = d.shapes;
    K.tile = 0; K.frame = 0;
    await wkStep(null, $("wk-tile").value.trim());
    $("wk-view").focus();
  } catch (e) { say(e.message, true); }
}

async function wkStep(step, start = null) {
  if (!K.wid) return;
  try {
    const d = await api(`/api/workshop/${K.wid}/walk`, { tile: K.tile, frame: K.frame, step, radius: 6, start });
    learnTiles(K.tiles, d);
    K.tile = d.walker.tile; K.frame = d.walker.frame;
    const vis = new Set();
    const svg = $("wk-view");
    svg.innerHTML = cellsSvg(d.cells, K.shapes, K.tiles, { faded: vis }) + edgesSvg(d, K.shapes) +
      `<circle class="walker-mark" cx="0" cy="0" r="${K.shapes.scale * 0.3}"/>`;
    if (!svg._view) panZoom(svg);
    svg._view.fit(...extent(d.cells, K.shapes.scale));
    const st = $("wk-status");
    st.textContent = `on tile ${d.walker.id}, frame ${d.walker.frame}${d.walker.mirrored ? " (mirrored)" : ""}` +
      (d.blocked ? " — the edge of the board" : "");
    st.dataset.mirrored = d.walker.mirrored ? "1" : "0";
    st.dataset.tile = d.walker.id;
  } catch (e) { say(e.message, true); }
}

const KEYS = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right", w: "up", s: "down",
  a: "left", d: "right", q: "turn-left", e: "turn-right", m: "mirror" };

// ---- wiring ---------------------------------------------------------------------------------------------
function tab(name) {
  for (const b of document.querySelectorAll("nav button.tab")) b.classList.toggle("on", b.dataset.panel === name);
  for (const p of document.querySelectorAll(".panel")) p.classList.toggle("on", p.id === name);
}

async function init() {
  for (const b of document.querySelectorAll("nav button.tab")) b.addEventListener("click", () => tab(b.dataset.panel));
  $("ws-open").addEventListener("click", () => wsOpen({ board: $("ws-board").value.trim() }));
  $("ws-upload").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (f) wsOpen({ text: await f.text(), name: f.name });
    e.target.value = "";
  });
  $("ws-undo").addEventListener("click", () => wsAct("undo"));
  $("ws-redo").addEventListener("click", () => wsAct("redo"));
  $("ws-radius").addEventListener("change", wsCover);
  $("net").addEventListener("click", wsClick);
  $("ws-cover").addEventListener("click", coverClick);
  $("pl-new").addEventListener("click", plNew);
  $("pl-join").addEventListener("click", () => plJoin($("pl-code").value.trim()));
  $("pl-cover").addEventListener("click", plClick);
  $("pl-undo").addEventListener("click", async () => {
    try { const d = await api(`/api/game/${P.code}/undo`, {}, P.token); P.state = d; await plCover(d); plShow(d); say("taken back"); }
    catch (e) { say(e.message, true); }
  });
  $("pl-load").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    e.target.value = "";
    if (!f) return;
    try { const d = await api("/api/game/load", { text: await f.text() }); await plStart(d); say(`loaded ${f.name}: ${d.ply} turns`); }
    catch (err) { say(err.message, true); }
  });
  $("wk-start").addEventListener("click", wkStart);
  $("wk-view").setAttribute("tabindex", "0");
  document.addEventListener("keydown", (e) => {
    if (!$("walker").classList.contains("on") || e.target.tagName === "INPUT") return;
    const step = KEYS[e.key];
    if (step) { e.preventDefault(); wkStep(step); }
  });
  const meta = api("/api/meta").then((m) => {  // asked while the first board opens
    $("boards").innerHTML = m.boards.map((b) => `<option value="${esc(b)}">`).join("");
    $("games").innerHTML = m.games.map((g) => `<option value="${esc(g)}">`).join("");
  }).catch((e) => say(e.message, true));
  const m = /game=([A-Za-z0-9]+)/.exec(location.hash);
  if (m) { tab("play"); await plJoin(m[1]); }
  else await wsOpen({ board: $("ws-board").value.trim() });
  await meta;
  document.body.dataset.ready = "1";
}

init();
