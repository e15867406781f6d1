// The demo page: a person against the AI, every call through the TypeScript client
// (client/js, splendor-ai-client.js: its browser bundle, a byte-identical copy; Connect over
// fetch, protobuf bodies). The page keeps the game as the full position NewGame dealt plus
// the moves in notation (the record of `splendor-ai play`); the server is stateless. It keeps
// positions and moves as their protobuf JSON (toJson) and draws only what the person may see
// (no deck order, no opponent's blind reserve).
//
// URL parameters fill the form, checked by params.js:
// ?game=duel&players=2&seat=0&level=3&seed=7&hint=2000&chart=2000 (&start=1 starts the game at once).

import {
  AnalyzeGameResponseSchema, AnalyzeResponseSchema, ApplyActionsResponseSchema, GetCatalogResponseSchema,
  GetMoveResponseSchema, LegalActionsResponseSchema, NewGameResponseSchema, PositionSchema, ServiceError,
  SplendorClient, fromJson, toJson,
} from "./splendor-ai-client.js";
import { Catalog, GAMES, el, renderBoard } from "./board.js";
import { winChart } from "./chart.js";
import { addPick, candidates, cardNote, decided, moveFields, pickOf, pickedSelectors, selectionLabel } from "./clicks.js";
import { checkParams } from "./params.js";

const $ = (sel) => document.querySelector(sel);
const catalogs = new Map();

const app = {
  game: "base", players: 2, human: 0, level: 3, seed: 0, hintIterations: 2000, chartIterations: 2000, token: "",
  catalog: null, position: null, status: null, moves: [], actions: [], movers: [],
  threats: [], // LegalActions' threats at the person's turn: [{seat, cards}] (the cards each other seat could buy next)
  initial: null, // the full position NewGame dealt (for AnalyzeGame)
  snapshots: [], // before each of the person's decisions: {position, status, actions}
  busy: false, chooser: null, hint: null, hintAbort: null, chart: null, chartNames: [], verdicts: null, over: false, generation: 0,
};
window.splendorApp = app; // for the browser tests and for curious developers

// ------------------------------------------------------------------ calls
let client = null;
let clientToken = null;

function ai() {
  if (!client || clientToken !== app.token) {
    client = new SplendorClient({ baseUrl: location.origin, token: app.token || undefined });
    clientToken = app.token;
  }
  return client;
}

// Every field spelled out, defaults included (status.toMove 0, a seat's 0 points), as the board reads them.
const json = (schema, message) => toJson(schema, message, { alwaysEmitImplicit: true });
const position = (value) => fromJson(PositionSchema, value);

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
  const text = err instanceof ServiceError ? `The server answered ${err.codeName}: ${err.message}` : `Error: ${err?.message || err}`;
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
/** Every seat by its number and who plays it: "seat 0 (you)", "seat 1 (AI level 3)". */
function names() {
  return app.position[app.game].seats.map((_, s) => `seat ${s} (${s === app.human ? "you" : `AI level ${app.level}`})`);
}

async function newGame() {
  const form = $("#setup");
  app.game = form.game.value;
  app.players = app.game === "duel" ? 2 : Number(form.players.value);
  app.human = Math.min(Number(form.seat.value), app.players - 1);
  app.level = Number(form.level.value);
  app.seed = form.seed.value.trim() === "" ? randomSeed() : Number(form.seed.value);
  app.hintIterations = Math.max(1, Number(form.hint.value) || 2000);
  app.chartIterations = Math.max(1, Number(form.chart.value) || 2000);
  app.token = form.token.value.trim();
  if (!Number.isSafeInteger(app.seed) || app.seed < 0) throw new Error("the seed is a whole number ≥ 0");
  showMessage("");  // the last game's error is gone as soon as a new one is asked for, not once it is dealt
  cancelHint();
  app.generation += 1;
  if (!catalogs.has(app.game)) {
    const catalog = json(GetCatalogResponseSchema, await ai().getCatalog(app.game, { timeoutMs: 30000 }));
    catalogs.set(app.game, new Catalog(app.game, catalog));
  }
  app.catalog = catalogs.get(app.game);
  const dealt = json(NewGameResponseSchema, await ai().newGame({ game: app.game, players: app.players, seed: app.seed, timeoutMs: 30000 }));
  Object.assign(app, { initial: dealt.position, position: dealt.position, status: dealt.status, actions: [], movers: [], snapshots: [],
    moves: [], threats: [], chooser: null, hint: null, chart: null, verdicts: null, over: false });
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
      const legal = json(LegalActionsResponseSchema, await ai().legalActions(position(app.position), { allPayments: true, timeoutMs: 30000 }));
      app.moves = legal.moves;
      app.threats = legal.threats || [];
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
  app.threats = [];
  render();
  const before = app.position;
  const reply = json(GetMoveResponseSchema, await ai().getMove(position(before), { level: app.level, seed: randomSeed(), timeoutMs: 120000 }));
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
    const reply = json(ApplyActionsResponseSchema, await ai().applyActions(position(app.position), [notation], { timeoutMs: 30000 }));
    app.snapshots.push(before);
    const played = reply.applied[0].notation;
    app.actions.push(played);
    app.movers.push(app.human);
    log(`seat ${app.human} (you) play: ${played}`);
    $("#last").textContent = `You played: ${played}`;
    Object.assign(app, { position: reply.position, status: reply.status, chooser: null, hint: null, moves: [], threats: [] });
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
    Object.assign(app, { position: snap.position, status: snap.status, chooser: null, hint: null, chart: null, verdicts: null,
      over: false, threats: [] });
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
    const analysis = ai().analyze(position(app.position), {
      iterations: app.hintIterations, lines: 3, reportEveryMs: 250, seed: randomSeed(), signal: abort.signal, timeoutMs: 120000,
    });
    for await (const report of analysis) {
      if (abort.signal.aborted) break;
      const msg = json(AnalyzeResponseSchema, report);
      app.hint = { lines: msg.stats.lines || [], iterations: Number(msg.stats.iterations || 0), final: Boolean(msg.final) };
      renderHint();
    }
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
  app.threats = [];
  app.over = true;
  setStatus(result());
  render();
  drawChart(app.generation).catch(showError); // not awaited: the page stays usable meanwhile
}

/** The win-probability chart: the whole game analysed in one AnalyzeGame stream (a search of
 * every decision from its mover's view), with your mistakes and blunders listed, each with the
 * sentences of its verdict's reasons (what the better move does that yours does not). */
async function drawChart(generation) {
  const chart = $("#chart");
  const points = [];
  let summary = null;
  const verdicts = [];
  chart.replaceChildren(el("p", { class: "progress", text: "Analysing the game…" }));
  const analysis = ai().analyzeGame(position(app.initial), app.actions, { iterations: app.chartIterations, seed: 1, timeoutMs: 600000 });
  for await (const report of analysis) {
    if (generation !== app.generation) {
      analysis.cancel();
      return;
    }
    const msg = json(AnalyzeGameResponseSchema, report);
    if (msg.final) {
      summary = msg;
      continue;
    }
    const v = msg.decision;
    v.index = v.index || 0;
    v.drop = v.drop || 0;
    verdicts.push(v);
    points.push({ x: v.index, p: v.winProbability });
    chart.replaceChildren(el("p", { class: "progress", text: `Analysing the game: decision ${msg.done || 0} of ${msg.total || 0}…` }));
  }
  if (generation !== app.generation || !summary) return;
  points.push({ x: app.actions.length, p: summary.status.returns });
  app.chart = points;
  app.chartNames = names();
  const mine = { decisions: 0, mistakes: 0, blunders: 0, agreed: 0, lossPerDecision: 0,
    ...summary.seats.find((s) => (s.seat || 0) === app.human) };
  app.verdicts = verdicts; // for the browser tests
  const marked = verdicts.filter((v) => (v.seat || 0) === app.human && v.mark && v.mark !== "MARK_NONE");
  chart.replaceChildren(
    el("h3", { text: "Win probability over the game (AnalyzeGame)" }), el("div", { class: "chart-box" }, chartSvg()),
    el("p", { class: "summary", text: `${levelText(mine.estimate)}You gave away ${(mine.lossPerDecision || 0).toFixed(2)}% ` +
      `of a win a decision over ${mine.decisions} decisions (lower is better), ${mine.mistakes} mistake(s), ` +
      `${mine.blunders} blunder(s); you played the engine's best move ${mine.agreed} time(s).` }),
    el("ul", { class: "marks" }, marked.map((v) => el("li", { "data-index": v.index },
      el("span", { class: "mark-text", text: `decision ${v.index + 1}: you played ${v.played.notation}` +
        `${v.mark === "MARK_BLUNDER" ? " ??" : " ?"} — ${v.best.notation} was better by ` +
        `${(100 * v.drop).toFixed(0)} points of win probability` }),
      reasonList(v.reasons)))));
}

/** "You played like level 5.9 (4.9-6.8, about +1968 Elo). " from a LevelEstimate (as JSON), or "". */
function levelText(est) {
  if (!est) return "";
  const f = (x) => (x || 0).toFixed(1);
  const elo = (x) => `${(x || 0) >= 0 ? "+" : ""}${x || 0}`;
  const rough = est.offBudget ? `; rough: the estimate is calibrated at ${est.calibratedIterations} iterations a decision` : "";
  return `You played like level ${f(est.level)} (${f(est.levelLow)}-${f(est.levelHigh)}, about ${elo(est.elo)} Elo${rough}). `;
}

/** The chart drawn at the width it is shown at (its text at its own size, 12-13 px, on a phone too). */
function chartSvg() {
  const width = Math.max(280, Math.min(640, Math.floor($("#chart").clientWidth || 640)));
  return winChart(app.chart, app.chartNames, { width });
}

function redrawChart() {
  const box = $("#chart .chart-box");
  if (box && app.chart) box.replaceChildren(chartSvg());
}

/** The sentences of reasons (splendor.v1.Reason, as JSON): a ✓ for what speaks for the move, a ⚠
 * for what speaks against it (and the words "for" / "against" for screen readers). */
function reasonList(reasons, cls = "") {
  if (!reasons || !reasons.length) return null;
  return el("div", { class: `reasons ${cls}`, role: "list" }, reasons.map((r) => el("div", { class: `reason ${r.good ? "good" : "bad"}`,
    role: "listitem", "data-code": r.code },
    el("span", { class: "sign", "aria-hidden": "true", text: r.good ? "✓" : "⚠" }),
    el("span", { class: "sr-only", text: r.good ? "for: " : "against: " }),
    el("span", { class: "why", text: r.text }))));
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
function moveButton(m) {
  return el("button", { type: "button", class: "move", "data-notation": m.notation, disabled: app.busy,
    onclick: () => play(m.notation), onmouseenter: () => highlight(m, true), onmouseleave: () => highlight(m, false) }, m.notation);
}

/** Marks the board objects a move uses (hovering a move in the list or the chooser). */
function highlight(move, on) {
  const f = moveFields(app.game, move);
  const sel = [];
  if (f.card !== undefined) sel.push(`[data-card="${f.card}"]`);
  for (const c of f.cells || []) sel.push(`[data-cell="${c}"]`);
  if (f.kind === "reserve_deck") sel.push(`[data-deck="${f.level}"]`);
  const piece = f.noble ?? f.location ?? f.royal;
  if (piece !== undefined) sel.push(`.top [data-noble="${piece}"]`, `.top [data-location="${piece}"]`, `.top [data-royal="${piece}"]`);
  if (!sel.length) return;
  for (const node of document.querySelectorAll(`#board :is(${sel.join(",")})`)) node.classList.toggle("hl", on);
}

// The move list: open on a wide screen, folded on a phone (the board is the way to play there);
// a person's opening or closing it is kept.
let listOpen = null;

function renderMoves() {
  const box = $("#moves");
  box.replaceChildren();
  if (!app.moves.length) return;
  box.append(el("p", { class: "hint-text", text: "Tap the board (tokens, a card, a deck, a noble) or a move in the list." }));
  const groups = new Map();
  for (const m of app.moves) {
    const kind = moveFields(app.game, m).kind;
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(m);
  }
  const open = listOpen ?? !window.matchMedia("(max-width: 600px)").matches;
  const list = el("details", { id: "move-list", open },
    el("summary", { text: `All your moves (${app.moves.length})` }),
    [...groups].map(([kind, moves]) => el("div", { class: "group", "data-kind": kind },
      el("span", { class: "label", text: kind.replace("_", " ") }), moves.map(moveButton))));
  list.addEventListener("toggle", () => { listOpen = list.open; });
  box.append(list);
}

/** The engine's top moves, ranked as it ranks them (by visits), with their share of the visits and win
 * probability; once the search is over, under each the sentences of its reasons (why). */
function renderHint() {
  const box = $("#hint");
  box.replaceChildren();
  if (!app.hint) return;
  const h = app.hint;
  box.append(el("p", { text: h.final ? `The engine's top moves (${h.iterations} iterations):` : `Thinking… ${h.iterations} iterations` }));
  const lines = [...h.lines].sort((a, b) => Number(b.visits || 0) - Number(a.visits || 0)).slice(0, 3);
  const list = el("ol", { class: "hint-lines" });
  lines.forEach((line, rank) => {
    const visits = Number(line.visits || 0);
    const share = h.iterations ? (100 * visits) / h.iterations : 0;
    const p = Number(line.winProbability || 0);
    list.append(el("li", { "data-notation": line.move.notation, "data-visits": visits, class: rank === 0 ? "best" : "" },
      el("span", { class: "rank", text: `${rank + 1}.` }),
      el("button", { type: "button", class: "move", disabled: app.busy || !h.final, onclick: () => play(line.move.notation) }, line.move.notation),
      el("span", { class: "hint-info" },
        rank === 0 ? el("span", { class: "best-mark", text: h.final ? "best" : "leading" }) : null,
        el("span", { class: "visits", text: `${visits.toLocaleString("en")} visits (${share.toFixed(0)}%)` }),
        el("span", { class: "prob", text: `win ${(100 * p).toFixed(1)}%` })),
      h.final ? reasonList(line.reasons, rank === 0 ? "first" : "") : null));
  });
  box.append(list);
}

// ------------------------------------------------------------------ playing by clicking the board
function onBoardClick(event) {
  if (app.busy || app.over || !app.moves.length) return;
  const pick = pickOf(app.game, event.target, app.human);
  if (!pick) return;
  let selection = addPick(app.chooser?.selection, pick);
  let list = selection.items?.length === 0 && selection.type === "cells" ? [] : candidates(app.game, app.moves, selection);
  if (!list.length && app.chooser?.selection) {
    // no move adds this to what was picked: start again from this pick alone
    selection = addPick(null, pick);
    list = candidates(app.game, app.moves, selection);
  }
  const note = cardNote(app.game, app.moves, selection, list); // a card that cannot be bought: never played at once
  const move = note ? null : decided(list);
  if (move) {
    app.chooser = null;
    play(move.notation);
    return;
  }
  app.chooser = { selection, list: list.map((c) => c.move), title: selectionLabel(app.game, selection), note };
  renderChooser();
}

const TAPPABLE = "#board .rows [data-card], #board .seat.human [data-card], #board [data-deck], #board .top [data-noble], " +
  "#board .top [data-location], #board .top [data-royal], #board [data-cell], #board [data-bag], #board .supply-tokens .chip, " +
  "#board .seat .tokens .chip, #board .seat.human .bonuses .chip";

function onBoardKey(event) {
  if ((event.key === "Enter" || event.key === " ") && event.target.matches(TAPPABLE)) {
    event.preventDefault();
    onBoardClick(event);
  }
}

function closeChooser() {
  app.chooser = null;
  renderChooser();
}

function renderChooser() {
  const box = $("#chooser");
  for (const node of document.querySelectorAll("#board .picked")) node.classList.remove("picked");
  const c = app.chooser;
  if (!c || !app.moves.length || app.busy) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  for (const sel of pickedSelectors(c.selection)) for (const node of document.querySelectorAll(`#board ${sel}`)) node.classList.add("picked");
  const more = c.selection.type === "tokens" || c.selection.type === "cells";
  box.replaceChildren(
    el("div", { class: "chooser-head" },
      el("strong", { text: c.list.length || c.note ? c.title : `No legal move: ${c.title}` }),
      more && c.list.length ? el("span", { class: "chooser-tip", text: "tap more to narrow, or choose:" }) : null,
      el("button", { type: "button", id: "chooser-close", class: "close", onclick: closeChooser }, "Cancel")),
    c.note ? el("p", { class: "chooser-note", role: "status", text: c.note }) : null,
    el("div", { class: "chooser-moves" }, c.list.map(moveButton)));
  box.hidden = false;
}

/** Card id -> the seats that could buy it on their next turn (LegalActions' threats), or null. */
function threatMap() {
  if (app.over || !app.moves.length || !app.threats.length) return null;
  const out = new Map();
  for (const t of app.threats) {
    for (const card of t.cards || []) out.set(card, [...(out.get(card) || []), t.seat || 0]);
  }
  return out;
}

function render() {
  if (!app.position) return;
  $("#board").replaceChildren(renderBoard(app.game, app.catalog, app.position,
    { human: app.human, level: app.level, toMove: app.status.gameOver ? -1 : app.status.toMove, threats: threatMap() }));
  // what can be tapped can be reached with Tab and played with Enter or Space too
  if (app.moves.length && !app.over) {
    for (const node of document.querySelectorAll(TAPPABLE)) {
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      if (node.title) node.setAttribute("aria-label", node.title);
    }
  }
  // when the first board is on screen (splendor-ai bench web --page reads it)
  if (!performance.getEntriesByName("splendor:first-board").length) performance.mark("splendor:first-board");
  renderMoves();
  renderHint();
  renderChooser();
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
  const { values, problems } = checkParams(location.search);
  for (const name of ["game", "players", "level", "seed", "hint", "chart"]) if (name in values) form[name].value = String(values[name]);
  fillSeats();
  if ("seat" in values) form.seat.value = String(values.seat);
  form.game.addEventListener("change", fillSeats);
  form.players.addEventListener("change", fillSeats);
  form.addEventListener("submit", (e) => { e.preventDefault(); guarded(newGame); });
  $("#hint-button").addEventListener("click", hint);
  $("#undo-button").addEventListener("click", undo);
  $("#download-button").addEventListener("click", download);
  $("#board").addEventListener("click", onBoardClick);
  $("#board").addEventListener("keydown", onBoardKey);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeChooser(); });
  window.addEventListener("resize", redrawChart);
  if (problems.length) {
    // a bad link: say what is wrong, keep the form's defaults for it, and do not start
    showMessage(`This link's parameters were not used: ${problems.join("; ")}. Check the form and press "New game".`, "error");
    $("#message").dataset.kind = "params";
  }
  document.body.dataset.ready = "1";
  if (values.start && !problems.length) guarded(newGame);
}

init();
