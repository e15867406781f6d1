// The demo page: a person against the AI, every call through the Connect protocol (connect.js).
// The page keeps the game as the full position NewGame dealt plus the moves in notation (the
// record of `splendor-ai play`); the server is stateless. It draws only what the person may
// see (no deck order, no opponent's blind reserve).
//
// URL parameters fill the form: ?game=duel&players=2&seat=0&level=3&seed=7&hint=2000&chart=300
// (&start=1 starts the game at once).

import { ConnectError, serverStream, unary } from "./connect.js";
import { Catalog, GAMES, el, moveSubjects, renderBoard } from "./board.js";
import { winChart } from "./chart.js";

const $ = (sel) => document.querySelector(sel);
const catalogs = new Map();

const app = {
  game: "base", players: 2, human: 0, level: 3, seed: 0, hintIterations: 2000, chartIterations: 300, token: "",
  catalog: null, position: null, status: null, moves: [], actions: [], movers: [],
  initial: null, // the full position NewGame dealt (for AnalyzeGame)
  snapshots: [], // before each of the person's decisions: {position, status, actions}
  busy: false, filter: null, hint: null, hintAbort: null, chart: null, over: false, generation: 0,
};
window.splendorApp = app; // for the browser tests and for curious developers

// ------------------------------------------------------------------ calls
const call = (method, request, timeoutMs = 30000) =>
  unary(method, request, { timeoutMs, token: app.token || undefined });

function randomSeed() {
  return Math.floor(Math.random() * 2 ** 31);
}

// ------------------------------------------------------------------ messages
function showMessage(text, kind = "error") {
  const box = $("#message");
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = !text;
}

function showError(err) {
  if (err && err.name === "AbortError") return;
  const text = err instanceof ConnectError ? `The server answered ${err.code}: ${err.message}` : `Error: ${err?.message || err}`;
  showMessage(text, "error");
}

window.addEventListener("unhandledrejection", (e) => showError(e.reason));
window.addEventListener("error", (e) => showError(e.error || e.message));

function setStatus(text) {
  $("#status").textContent = text;
}

function log(text) {
  $("#log").prepend(el("li", { text }));
}

async function guarded(fn) {
  if (app.busy) return;
  app.busy = true;
  render();
  try {
    await fn();
  } catch (err) {
    showError(err);
  } finally {
    app.busy = false;
    render();
  }
}

// ------------------------------------------------------------------ the game
function names() {
  return app.position[app.game].seats.map((_, s) => (s === app.human ? "You" : `AI level ${app.level}`));
}

async function newGame() {
  const form = $("#setup");
  app.game = form.game.value;
  app.players = app.game === "duel" ? 2 : Number(form.players.value);
  app.human = Math.min(Number(form.seat.value), app.players - 1);
  app.level = Number(form.level.value);
  app.seed = form.seed.value.trim() === "" ? randomSeed() : Number(form.seed.value);
  app.hintIterations = Math.max(1, Number(form.hint.value) || 2000);
  app.chartIterations = Math.max(1, Number(form.chart.value) || 300);
  app.token = form.token.value.trim();
  if (!Number.isSafeInteger(app.seed) || app.seed < 0) throw new Error("the seed is a whole number ≥ 0");
  showMessage("");  // the last game's error is gone as soon as a new one is asked for, not once it is dealt
  cancelHint();
  app.generation += 1;
  if (!catalogs.has(app.game)) catalogs.set(app.game, new Catalog(app.game, await call("GetCatalog", { game: GAMES[app.game].enum })));
  app.catalog = catalogs.get(app.game);
  const dealt = await call("NewGame", { game: GAMES[app.game].enum, players: app.players, seed: String(app.seed) });
  Object.assign(app, { initial: dealt.position, position: dealt.position, status: dealt.status, actions: [], movers: [], snapshots: [],
    moves: [], filter: null, hint: null, chart: null, over: false });
  $("#log").replaceChildren();
  $("#chart").replaceChildren();
  log(`new game: ${GAMES[app.game].title}, ${app.players} players, seed ${app.seed}; you are seat ${app.human}`);
  $("#game").hidden = false;
  await advance();
}

/** Plays the AI's turns until the person is to move (then lists their moves) or the game ends. */
async function advance() {
  const generation = app.generation;
  while (generation === app.generation) {
    if (app.status.gameOver) return finish();
    if (app.status.toMove === app.human) {
      app.moves = (await call("LegalActions", { position: app.position })).moves;
      setStatus(`Your move (seat ${app.human})`);
      return;
    }
    await aiTurn();
  }
}

async function aiTurn() {
  const seat = app.status.toMove;
  setStatus(`AI (seat ${seat}, level ${app.level}) is thinking…`);
  app.moves = [];
  render();
  const before = app.position;
  const reply = await call("GetMove", { position: before, level: app.level, seed: String(randomSeed()) }, 120000);
  if (!reply.turnComplete) throw new Error("the server did not finish the AI's turn");
  for (const m of reply.moves) {
    app.actions.push(m.notation);
    app.movers.push(seat);
    log(`seat ${seat} (AI) plays: ${m.notation}`);
  }
  $("#last").textContent = `AI (seat ${seat}) played: ${reply.moves.map((m) => m.notation).join(", ")}`;
  app.position = reply.position;
  app.status = reply.status;
  render();
}

function play(notation) {
  return guarded(async () => {
    if (app.status.gameOver || app.status.toMove !== app.human) return;
    cancelHint();
    const before = { position: app.position, status: app.status, actions: app.actions.length };
    const reply = await call("ApplyActions", { position: app.position, moves: [{ notation }] });
    app.snapshots.push(before);
    const played = reply.applied[0].notation;
    app.actions.push(played);
    app.movers.push(app.human);
    log(`seat ${app.human} (you) play: ${played}`);
    $("#last").textContent = `You played: ${played}`;
    Object.assign(app, { position: reply.position, status: reply.status, filter: null, hint: null, moves: [] });
    showMessage("");
    await advance();
  });
}

function undo() {
  return guarded(async () => {
    const snap = app.snapshots.pop();
    if (!snap) {
      showMessage("Nothing to undo: you have not moved yet.", "info");
      return;
    }
    cancelHint();
    app.generation += 1;
    Object.assign(app, { position: snap.position, status: snap.status, filter: null, hint: null, chart: null, over: false });
    app.actions.length = snap.actions;
    app.movers.length = snap.actions;
    $("#chart").replaceChildren();
    log("undo: back to your last decision");
    $("#last").textContent = "";
    showMessage("");
    await advance();
  });
}

// ------------------------------------------------------------------ hint
function cancelHint() {
  if (app.hintAbort) app.hintAbort.abort();
  app.hintAbort = null;
}

async function hint() {
  if (app.busy || app.status.gameOver || app.status.toMove !== app.human) return;
  cancelHint();
  const abort = new AbortController();
  app.hintAbort = abort;
  app.hint = { lines: [], iterations: 0, final: false };
  render();
  try {
    await serverStream("Analyze", {
      position: app.position, limits: { iterations: String(app.hintIterations) }, lines: 3, reportEveryMs: 250,
      seed: String(randomSeed()),
    }, (msg) => {
      if (abort.signal.aborted) return;
      app.hint = { lines: msg.stats.lines || [], iterations: Number(msg.stats.iterations), final: msg.final };
      renderHint();
    }, { signal: abort.signal, timeoutMs: 120000, token: app.token || undefined });
  } catch (err) {
    if (!abort.signal.aborted) {
      app.hint = null;
      showError(err);
    }
  } finally {
    if (app.hintAbort === abort) app.hintAbort = null;
    renderHint();
  }
}

// ------------------------------------------------------------------ the end
function result() {
  const returns = app.status.returns;
  const seats = app.position[app.game].seats;
  const score = seats.map((s, i) => `seat ${i}: ${s.points || 0}`).join(", ");
  const winners = returns.map((r, i) => (r > 0 ? i : -1)).filter((i) => i >= 0);
  const verdict = winners.includes(app.human) ? (winners.length > 1 ? "you share the win" : "you win") : "you lose";
  return `Game over: ${verdict} (${score} points)`;
}

function finish() {
  app.moves = [];
  app.over = true;
  setStatus(result());
  render();
  drawChart(app.generation).catch(showError); // not awaited: the page stays usable meanwhile
}

/** The win-probability chart: the whole game analysed in one AnalyzeGame stream (a search of
 * every decision from its mover's view), with your mistakes and blunders listed. */
async function drawChart(generation) {
  const chart = $("#chart");
  const points = [];
  let summary = null;
  const verdicts = [];
  chart.replaceChildren(el("p", { class: "progress", text: "Analysing the game…" }));
  await serverStream("AnalyzeGame", {
    initialPosition: app.initial, moves: app.actions.map((notation) => ({ notation })),
    iterations: String(app.chartIterations), seed: "1",
  }, (msg) => {
    if (generation !== app.generation) return;
    if (msg.final) {
      summary = msg;
      return;
    }
    const v = msg.decision;
    verdicts.push(v);
    points.push({ x: v.index, p: v.winProbability });
    chart.replaceChildren(el("p", { class: "progress", text: `Analysing the game: decision ${msg.done} of ${msg.total}…` }));
  }, { timeoutMs: 600000, token: app.token || undefined });
  if (generation !== app.generation || !summary) return;
  points.push({ x: app.actions.length, p: summary.status.returns });
  app.chart = points;
  const mine = summary.seats.find((s) => s.seat === app.human);
  const marked = verdicts.filter((v) => v.seat === app.human && v.mark !== "MARK_NONE");
  chart.replaceChildren(
    el("h3", { text: "Win probability over the game (AnalyzeGame)" }), winChart(points, names()),
    el("p", { class: "summary", text: `Your accuracy: ${(100 * mine.accuracy).toFixed(0)}% of ${mine.decisions} decisions, ` +
      `${mine.mistakes} mistake(s), ${mine.blunders} blunder(s); the engine agreed with ${mine.agreed}.` }),
    el("ul", { class: "marks" }, marked.map((v) => el("li", { "data-index": v.index,
      text: `decision ${v.index + 1}: you played ${v.played.notation}${v.mark === "MARK_BLUNDER" ? " ??" : " ?"} ` +
        `— ${v.best.notation} was better by ${(100 * v.drop).toFixed(0)} points of win probability` }))));
}

function record() {
  return {
    format: "splendor-ai/record", version: 1, game: app.game, players: app.players, seed: app.seed,
    initial_position: null,
    seats: Array.from({ length: app.players }, (_, s) => (s === app.human ? "human" : `level:${app.level}`)),
    actions: [...app.actions], evaluations: null,
    returns: app.status.gameOver ? app.status.returns : null, finished: Boolean(app.status.gameOver),
  };
}
app.record = record;

function download() {
  const blob = new Blob([JSON.stringify(record(), null, 1) + "\n"], { type: "application/json" });
  const a = $("#download-link");
  if (a.href) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(blob);
  a.download = `splendor-${app.game}-${new Date().toISOString().slice(0, 19).replace(/[-:T]/g, "")}.json`;
  a.click();
}

// ------------------------------------------------------------------ drawing
function matches(move, filter) {
  const s = moveSubjects(app.game, move);
  switch (filter.type) {
    case "card": return s.card === filter.value;
    case "deck": return s.kind === "reserve_deck" && s.level === filter.value;
    case "noble": return s.noble === filter.value;
    case "cell": return s.cells.includes(filter.value);
    case "token": return s.tokens.includes(filter.value);
    default: return true;
  }
}

function moveButton(m) {
  return el("button", { type: "button", class: "move", "data-notation": m.notation, disabled: app.busy,
    onclick: () => play(m.notation), onmouseenter: () => highlight(m, true), onmouseleave: () => highlight(m, false) }, m.notation);
}

function highlight(move, on) {
  const s = moveSubjects(app.game, move);
  const sel = [];
  if (s.card !== undefined) sel.push(`[data-card="${s.card}"]`);
  for (const c of s.cells) sel.push(`[data-cell="${c}"]`);
  if (s.kind === "reserve_deck") sel.push(`[data-deck="${s.level}"]`);
  if (s.noble !== undefined) sel.push(`#board .top [data-noble="${s.noble}"], #board .top [data-location="${s.noble}"], #board .top [data-royal="${s.noble}"]`);
  if (!sel.length) return;
  for (const node of document.querySelectorAll(`#board :is(${sel.join(",")})`)) node.classList.toggle("hl", on);
}

function renderMoves() {
  const box = $("#moves");
  box.replaceChildren();
  if (!app.moves.length) return;
  let moves = app.moves;
  if (app.filter) {
    moves = moves.filter((m) => matches(m, app.filter));
    box.append(el("div", { class: "filter" }, el("span", { text: `${moves.length ? "Moves with" : "No legal move with"} ${app.filter.label} ` }),
      el("button", { type: "button", id: "show-all", onclick: () => { app.filter = null; renderMoves(); } }, "show all moves")));
  } else {
    box.append(el("p", { class: "hint-text", text: "Click a move, or a card, deck, token or noble on the board to see its moves." }));
  }
  const groups = new Map();
  for (const m of moves) {
    const kind = moveSubjects(app.game, m).kind;
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(m);
  }
  for (const [kind, list] of groups) {
    box.append(el("div", { class: "group", "data-kind": kind }, el("span", { class: "label", text: kind.replace("_", " ") }), list.map(moveButton)));
  }
}

function renderHint() {
  const box = $("#hint");
  box.replaceChildren();
  if (!app.hint) return;
  const h = app.hint;
  box.append(el("p", { text: h.final ? `The engine's top moves (${h.iterations} iterations):` : `Thinking… ${h.iterations} iterations` }));
  const list = el("ol", { class: "hint-lines" });
  for (const line of h.lines.slice(0, 3)) {
    const p = Number(line.winProbability);
    list.append(el("li", { "data-notation": line.move.notation },
      el("button", { type: "button", class: "move", disabled: app.busy || !h.final, onclick: () => play(line.move.notation) }, line.move.notation),
      el("span", { class: "prob", text: ` win probability ${(100 * p).toFixed(1)}%` })));
  }
  box.append(list);
}

function onBoardClick(event) {
  if (app.over || !app.moves.length) return;
  const t = event.target.closest("[data-card],[data-deck],[data-noble],[data-location],[data-royal],[data-cell],[data-token]");
  if (!t) return;
  let filter = null;
  if (t.dataset.card !== undefined) filter = { type: "card", value: Number(t.dataset.card), label: `card ${t.dataset.card}` };
  else if (t.dataset.deck !== undefined) filter = { type: "deck", value: Number(t.dataset.deck), label: `the level ${t.dataset.deck} deck` };
  else if (t.dataset.cell !== undefined) filter = { type: "cell", value: Number(t.dataset.cell), label: `cell ${t.title}` };
  else if (t.dataset.noble !== undefined || t.dataset.location !== undefined || t.dataset.royal !== undefined) {
    const id = Number(t.dataset.noble ?? t.dataset.location ?? t.dataset.royal);
    filter = { type: "noble", value: id, label: `${t.title}` };
  } else if (t.dataset.token !== undefined && t.closest(".supply")) filter = { type: "token", value: t.dataset.token, label: `${t.dataset.token} tokens` };
  if (!filter) return;
  app.filter = filter;
  renderMoves();
}

function render() {
  if (!app.position) return;
  $("#board").replaceChildren(renderBoard(app.game, app.catalog, app.position,
    { human: app.human, level: app.level, toMove: app.status.gameOver ? -1 : app.status.toMove }));
  renderMoves();
  renderHint();
  const mine = !app.status.gameOver && app.status.toMove === app.human;
  $("#hint-button").disabled = app.busy || !mine;
  $("#undo-button").disabled = app.busy || !app.snapshots.length;
  $("#download-button").disabled = !app.actions.length;
  $("#setup-button").disabled = app.busy;
  document.body.dataset.busy = app.busy ? "1" : "0";
  document.body.dataset.over = app.status.gameOver ? "1" : "0";
}

// ------------------------------------------------------------------ the form
function fillSeats() {
  const form = $("#setup");
  const duel = form.game.value === "duel";
  form.players.disabled = duel;
  if (duel) form.players.value = "2";
  const n = Number(form.players.value);
  const seat = Math.min(Number(form.seat.value || 0), n - 1);
  form.seat.replaceChildren(...Array.from({ length: n }, (_, s) => el("option", { value: s, text: `seat ${s}${s === 0 ? " (first)" : ""}` })));
  form.seat.value = String(seat);
}

function init() {
  const form = $("#setup");
  const params = new URLSearchParams(location.search);
  for (const name of ["game", "players", "level", "seed", "hint", "chart"]) if (params.has(name)) form[name].value = params.get(name);
  fillSeats();
  if (params.has("seat")) form.seat.value = params.get("seat");
  form.game.addEventListener("change", fillSeats);
  form.players.addEventListener("change", fillSeats);
  form.addEventListener("submit", (e) => { e.preventDefault(); guarded(newGame); });
  $("#hint-button").addEventListener("click", hint);
  $("#undo-button").addEventListener("click", undo);
  $("#download-button").addEventListener("click", download);
  $("#board").addEventListener("click", onBoardClick);
  document.body.dataset.ready = "1";
  if (params.get("start") === "1") guarded(newGame);
}

init();
