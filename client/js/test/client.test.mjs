// The Node client (dist/node.js) against a real server, for the three games: every method,
// bad input (the error names the field), cancellation by AbortSignal, deadlines, the three
// protocols. Run by tests/service/test_service_js_client.py (npm test).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  Busy, Cancelled, Code, DeadlineExceeded, IllegalMove, InvalidArgument, ServiceError, SplendorClient,
  Priority, StopReason, clone, equals, gameOf, PositionSchema, withDrawnCard, withDrawnTokens,
} from "../dist/node.js";
import { startServer } from "./server.mjs";

let server;
let ai;

before(async () => {
  server = await startServer();
  ai = new SplendorClient({ baseUrl: server.url, timeoutMs: 60000 });
});

after(async () => {
  // Every call was let go, the cancelled ones too: no deadline timer of a call is still armed
  // (it would keep Node running until it fired).
  const timers = process.getActiveResourcesInfo().filter((r) => r === "Timeout");
  const log = await server.stop();
  assert.deepEqual(timers, [], "a call was left behind with its deadline timer armed");
  assert.ok(!log.includes("Traceback") && !log.includes("outcome=INTERNAL"), "the server hit an internal error:\n" + log);
});

const CATALOG = { base: [90, "nobles", 10], duel: [67, "royals", 4], marvel: [90, "locations", 8] };
const GOLD = { base: "gold", duel: "gold", marvel: "grey" };

for (const game of ["base", "duel", "marvel"]) {
  describe(game, () => {
    let dealt;
    before(async () => { dealt = await ai.newGame({ game, players: 2, seed: 7 }); });

    it("getCatalog: every card and piece by id", async () => {
      const cat = await ai.getCatalog(game);
      assert.equal(cat.catalog.case, game);
      const [cards, pieces, n] = CATALOG[game];
      assert.equal(cat.catalog.value.cards.length, cards);
      assert.deepEqual(cat.catalog.value.cards.map((c) => c.id), [...Array(cards).keys()]);
      assert.equal(cat.catalog.value[pieces].length, n);
    });

    it("newGame: the same seed deals the same position", async () => {
      assert.equal(dealt.seed, 7n);
      assert.equal(gameOf(dealt.position), game);
      assert.equal(dealt.status.toMove, 0);
      const again = await ai.newGame({ game, seed: 7n, requestId: "js-1" });
      assert.equal(again.requestId, "js-1");
      assert.ok(equals(PositionSchema, again.position, dealt.position));
      const other = await ai.newGame({ game, seed: 8 });
      assert.ok(!equals(PositionSchema, other.position, dealt.position));
    });

    it("legalActions and applyActions, by notation and by message", async () => {
      const legal = await ai.legalActions(dealt.position);
      assert.ok(legal.moves.length > 1);
      assert.ok(legal.moves.every((m) => m.notation !== "" && m.structured.case === game));
      const byText = await ai.applyActions(dealt.position, [legal.moves[0].notation]);
      const byMessage = await ai.applyActions(dealt.position, [legal.moves[0]]);
      assert.equal(byText.applied[0].notation, legal.moves[0].notation);
      assert.ok(equals(PositionSchema, byText.position, byMessage.position));
      assert.ok(!equals(PositionSchema, byText.position, dealt.position));
      const all = await ai.legalActions(dealt.position, { allPayments: true });
      assert.ok(all.moves.length >= legal.moves.length);
    });

    it("getMove for a level and for limits: a legal whole turn", async () => {
      const legal = new Set((await ai.legalActions(dealt.position)).moves.map((m) => m.notation));
      const turn = await ai.getMove(dealt.position, { level: 1, seed: 1 });
      assert.ok(turn.moves.length >= 1 && turn.turnComplete);
      assert.ok(legal.has(turn.moves[0].notation), turn.moves[0].notation);
      assert.equal(turn.options.level, 1);
      const replay = await ai.applyActions(dealt.position, turn.moves);
      assert.ok(equals(PositionSchema, replay.position, turn.position));
      const limited = await ai.getMove(dealt.position, { iterations: 64, seed: 3, lines: 2, threads: 1 });
      assert.equal(limited.options.limits.iterations, 64n);
      assert.equal(limited.searches[0].iterations, 64n);
      assert.ok(limited.searches[0].lines.length <= 2);
      assert.throws(() => ai.getMove(dealt.position, { level: 3, iterations: 10 }), TypeError);
      assert.ok(turn.turnElapsedMs >= 0 && limited.turnElapsedMs >= 0);
      // the rest of a turn: the time it already took travels with the call
      const rest = await ai.getMove(dealt.position, { iterations: 16, seed: 3, turnElapsedMs: 250 });
      assert.ok(rest.turnElapsedMs >= 250, String(rest.turnElapsedMs));
      assert.throws(() => ai.getMove(dealt.position, { level: 1, turnElapsedMs: -1 }), RangeError);
      await assert.rejects(ai.getMove(dealt.position, { level: 1, turnElapsedMs: 86_400_001 }),
                           (e) => e instanceof InvalidArgument && e.field === "turn_elapsed_ms");
    });

    it("priority: interactive by default, batch when asked, a long interactive analysis refused", async () => {
      const dealt = await ai.newGame({ game, seed: 11 });
      assert.equal((await ai.getMove(dealt.position, { level: 1, seed: 1 })).options.priority, Priority.INTERACTIVE);
      const batch = await ai.getMove(dealt.position, { level: 1, seed: 1, priority: "batch" });
      assert.equal(batch.options.priority, Priority.BATCH);
      const hint = await ai.analyze(dealt.position, { iterations: 64, seed: 1 }).result();
      assert.equal(hint.options.priority, Priority.INTERACTIVE);
      assert.throws(() => ai.getMove(dealt.position, { level: 1, priority: "urgent" }), TypeError);
      await assert.rejects(ai.analyze(dealt.position, { timeMs: 30_000, priority: "interactive" }).result(),
                           (e) => e instanceof InvalidArgument && e.field === "priority");
    });

    it("analyze: progress reports, then exactly one final", async () => {
      const analysis = ai.analyze(dealt.position, { iterations: 3000, seed: 1, lines: 3, reportEveryMs: 10 });
      const reports = [];
      for await (const report of analysis) reports.push(report);
      assert.equal(reports.filter((r) => r.final).length, 1);
      assert.ok(reports.at(-1).final);
      assert.deepEqual(reports.map((r) => r.sequence), [...reports.keys()]);
      assert.equal(analysis.final, reports.at(-1));
      assert.equal(analysis.final.stats.stopReason, StopReason.ITERATIONS);
      assert.equal(analysis.final.stats.iterations, 3000n);
      assert.ok(analysis.final.stats.lines.length >= 1 && analysis.final.stats.lines.length <= 3);
      const only = (await ai.legalActions(dealt.position)).moves[1].notation;
      const restricted = await ai.analyze(dealt.position, { iterations: 200, candidates: [only] }).result();
      assert.deepEqual(restricted.stats.lines.map((l) => l.move.notation), [only]);
    });

    it("analyzeGame: one verdict per decision, then the seats' summary", async () => {
      let position = dealt.position;
      const moves = [];
      for (let i = 0; i < 3; i++) {
        const turn = await ai.getMove(position, { iterations: 32, seed: i, perfectInformation: true });
        moves.push(...turn.moves);
        position = turn.position;
      }
      const reports = [];
      for await (const r of ai.analyzeGame(dealt.position, moves, { iterations: 64, seed: 5 })) reports.push(r);
      const verdicts = reports.filter((r) => !r.final);
      assert.equal(verdicts.length, moves.length);
      assert.deepEqual(verdicts.map((r) => r.decision.played.notation), moves.map((m) => m.notation));
      const final = reports.at(-1);
      assert.ok(final.final);
      assert.equal(final.seats.length, 2);
      assert.equal(final.total, moves.length);
      for (const s of final.seats.filter((x) => x.decisions > 0)) {
        // every game's 2-player fit is calibrated at 2,000 iterations: at 64 the estimate is rough
        assert.ok(s.estimate.offBudget && s.estimate.calibratedIterations === 2000n);
        assert.ok(s.estimate.levelLow <= s.estimate.level && s.estimate.level <= s.estimate.levelHigh);
        assert.ok(s.estimate.eloLow <= s.estimate.elo && s.estimate.elo <= s.estimate.eloHigh);
        assert.ok(Math.abs(s.lossPerDecision - 100 * s.meanDrop) < 0.01);
      }
    });

    it("a bad position: InvalidArgument naming the field", async () => {
      const bad = clone(PositionSchema, dealt.position);
      bad.game.value.seats[1].tokens[GOLD[game]] = 99;
      const err = await ai.legalActions(bad).then(() => null, (e) => e);
      assert.ok(err instanceof InvalidArgument && err instanceof ServiceError, String(err));
      assert.equal(err.code, Code.InvalidArgument);
      assert.equal(err.codeName, "INVALID_ARGUMENT");
      assert.equal(err.field, `position.${game}.seats[1].tokens.${GOLD[game]}`);
      assert.equal(err.fieldViolations[0].field, err.field);
      assert.match(err.fieldViolations[0].description, /99/);
      await assert.rejects(ai.getMove(bad, { level: 1 }), (e) => e instanceof InvalidArgument && e.field === err.field);
    });

    it("an illegal move: IllegalMove naming the move", async () => {
      const legal = (await ai.legalActions(dealt.position)).moves;
      const err = await ai.applyActions(dealt.position, [legal[0], "pass"]).then(() => null, (e) => e);
      assert.ok(err instanceof IllegalMove, String(err));
      assert.equal(err.codeName, "FAILED_PRECONDITION");
      assert.equal(err.field, "moves[1]");
      assert.equal(err.preconditionViolations[0].type, "ILLEGAL_MOVE");
      assert.match(err.message, /^moves\[1\]: pass/);
    });
  });
}

describe("errors the client raises before calling", () => {
  it("unknown game, a non-position, a non-integer seed", async () => {
    assert.throws(() => ai.getCatalog("chess"), /unknown game "chess" \(one of base, duel, marvel\)/);
    assert.throws(() => ai.newGame({ game: "chess" }), TypeError);
    assert.throws(() => ai.legalActions({ base: {} }), /a position is a Position message/);
    assert.throws(() => ai.newGame({ seed: 1.5 }), RangeError);
    assert.throws(() => new SplendorClient({}), /baseUrl is required/);
    assert.throws(() => new SplendorClient({ baseUrl: server.url, protocol: "smoke" }), /unknown protocol/);
  });

  it("a server-side range check names the request field", async () => {
    await assert.rejects(ai.newGame({ game: "duel", players: 3 }), (e) => e instanceof InvalidArgument && e.field === "players");
    await assert.rejects(ai.newGame({ requestId: "x".repeat(200) }), (e) => e instanceof InvalidArgument && e.field === "request_id");
  });
});

describe("cancel and deadlines", () => {
  let position;
  before(async () => { position = (await ai.newGame({ seed: 11 })).position; });

  it("aborting the signal ends an analyze stream quietly, without a final report", async () => {
    const abort = new AbortController();
    const analysis = ai.analyze(position, { iterations: 50_000_000, reportEveryMs: 20, signal: abort.signal });
    const started = Date.now();
    let progress = 0;
    for await (const report of analysis) {
      assert.ok(!report.final);
      if (++progress === 2) abort.abort();
    }
    assert.equal(progress, 2);
    assert.equal(analysis.final, undefined);
    assert.ok(Date.now() - started < 10000);
    await assert.rejects(analysis.result(), Cancelled);
  });

  it("cancel() and leaving the loop early stop the search too", async () => {
    const analysis = ai.analyze(position, { iterations: 50_000_000, reportEveryMs: 20 });
    setTimeout(() => analysis.cancel(), 200);
    for await (const report of analysis) assert.ok(!report.final);
    assert.equal(analysis.final, undefined);
    for await (const report of ai.analyze(position, { iterations: 50_000_000, reportEveryMs: 20 })) {
      assert.ok(!report.final);
      break;
    }
    // The searches were stopped, not left running: every slot takes a new search at once.
    const turns = await Promise.all([1, 2, 3, 4].map((s) => ai.getMove(position, { iterations: 16, seed: s })));
    assert.equal(turns.length, 4);
  });

  it("aborting the signal rejects getMove with Cancelled", async () => {
    const abort = new AbortController();
    const started = Date.now();
    setTimeout(() => abort.abort(), 200);
    await assert.rejects(ai.getMove(position, { iterations: 50_000_000, signal: abort.signal }),
                         (e) => e instanceof Cancelled && e.codeName === "CANCELLED");
    assert.ok(Date.now() - started < 10000);
    await assert.rejects(ai.getMove(position, { level: 1, signal: AbortSignal.abort() }), Cancelled);
  });

  it("a deadline reaches the server: the search stops before it (or the call ends with it)", async () => {
    // The server stops the search a little before the deadline and answers; on a loaded machine
    // the answer may arrive after the client's own timer fired: DeadlineExceeded. Either way the
    // deadline went over the wire, and 50 million iterations did not run.
    const started = Date.now();
    const outcome = await ai.getMove(position, { iterations: 50_000_000, timeoutMs: 1000 }).then((t) => t, (e) => e);
    const elapsed = Date.now() - started;
    if (outcome instanceof Error) {
      assert.ok(outcome instanceof DeadlineExceeded && outcome.codeName === "DEADLINE_EXCEEDED", String(outcome));
      assert.ok(elapsed >= 950 && elapsed < 5000, `${elapsed} ms`);
    } else {
      assert.ok(elapsed < 5000, `${elapsed} ms`);
      assert.equal(outcome.searches[0].stopReason, StopReason.DEADLINE);
    }
  });

  it("more searches than --max-concurrent: Busy", async () => {
    const abort = new AbortController();
    // interactive analyses (10 s: a hint's bound) may take every slot; batch ones only their share
    const running = [1, 2, 3, 4].map(() => ai.analyze(position, { timeMs: 10_000, reportEveryMs: 20,
                                                                     signal: abort.signal }));
    const first = await Promise.all(running.map((a) => a[Symbol.asyncIterator]().next()));
    assert.ok(first.every((r) => !r.done));
    await assert.rejects(ai.getMove(position, { level: 1 }), (e) => e instanceof Busy && e.codeName === "RESOURCE_EXHAUSTED");
    abort.abort();
  });
});

describe("protocols", () => {
  for (const [name, options] of [["gRPC-Web", { protocol: "grpc-web" }], ["Connect with JSON", { binary: false }],
                                 ["gRPC on the gRPC port", { protocol: "grpc" }]]) {
    it(name, async () => {
      const baseUrl = options.protocol === "grpc" ? server.grpcUrl : server.url;
      const other = new SplendorClient({ baseUrl, ...options });
      const { position } = await other.newGame({ game: "marvel", players: 3, seed: 2 });
      assert.equal(position.game.value.seats.length, 3);
      const turn = await other.getMove(position, { level: 1, seed: 1 });
      assert.ok(turn.turnComplete);
      const final = await other.analyze(position, { iterations: 100, reportEveryMs: 10 }).result();
      assert.equal(final.stats.iterations, 100n);
      const bad = clone(PositionSchema, position);
      bad.game.value.seats[2].tokens.grey = 99;
      await assert.rejects(other.legalActions(bad),
                           (e) => e instanceof InvalidArgument && e.field === "position.marvel.seats[2].tokens.grey");
    });
  }
});

describe("withDrawnCard and withDrawnTokens", () => {
  it("send the drawn card: a full position refuses it, naming the field", async () => {
    const { position } = await ai.newGame({ seed: 4 });
    const move = withDrawnCard("reserve deck1", 0);
    assert.equal(move.drawnCard, 0);
    assert.equal(move.notation, "reserve deck1");
    await assert.rejects(ai.applyActions(position, [move]),
                         (e) => e instanceof InvalidArgument && e.field.startsWith("moves[0].drawn_card"));
    const duel = (await ai.newGame({ game: "duel", seed: 4 })).position;
    await assert.rejects(ai.applyActions(duel, [withDrawnTokens("replenish", "wk")]),
                         (e) => e instanceof ServiceError && e.field.startsWith("moves[0]"));
  });
});
