// The browser bundle (browser/splendor-ai-client.js, what a page loads) works on its own: one
// ES module without imports, the fetch transport (connect-web), against a real server.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, it } from "node:test";
import { startServer } from "./server.mjs";

const BUNDLE = new URL("../browser/splendor-ai-client.js", import.meta.url);
let server;
let lib;

before(async () => {
  server = await startServer();
  lib = await import(BUNDLE);
});

after(async () => {
  const log = await server.stop();
  assert.ok(!log.includes("Traceback") && !log.includes("outcome=INTERNAL"), log);
});

it("has no imports: a page loads it as it is", () => {
  const code = readFileSync(BUNDLE, "utf8");
  // Statements only (strings and template literals removed): no static or dynamic import, no require.
  const statements = code.replace(/"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, '""');
  assert.ok(!/(^|[;}\n])\s*import\s*[{*"\w]|\bimport\(|\brequire\(/.test(statements), "the bundle imports something");
  assert.match(statements, /export\s*\{/);
  for (const name of ["SplendorClient", "InvalidArgument", "IllegalMove", "Busy", "Unauthenticated", "Cancelled",
                      "PositionSchema", "Game", "create", "toJson", "fromJson"]) {
    assert.ok(name in lib, `the bundle does not export ${name}`);
  }
});

it("plays, analyses and names a bad field over fetch, Connect and gRPC-Web", async () => {
  for (const protocol of ["connect", "grpc-web"]) {
    const ai = new lib.SplendorClient({ baseUrl: server.url, protocol });
    for (const game of ["base", "duel", "marvel"]) {
      const { position } = await ai.newGame({ game, seed: 5 });
      const turn = await ai.getMove(position, { level: 1, seed: 2 });
      assert.ok(turn.turnComplete && turn.moves.length >= 1);
      const abort = new AbortController();
      let reports = 0;
      for await (const report of ai.analyze(turn.position, { iterations: 50_000_000, reportEveryMs: 20,
                                                             signal: abort.signal })) {
        assert.ok(!report.final);
        if (++reports === 1) abort.abort();
      }
      assert.equal(reports, 1);
      const err = await ai.applyActions(position, ["buy 999"]).then(() => null, (e) => e);
      assert.ok(err instanceof lib.InvalidArgument, String(err));
      assert.equal(err.field, "moves[0].notation");
    }
  }
});
