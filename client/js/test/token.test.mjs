// A server with bearer tokens ($SPLENDOR_AI_TOKENS): no token or a wrong one is refused with
// Unauthenticated, the right one is sent with every call (unary and streams, all protocols).
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { Code, ServiceError, SplendorClient, Unauthenticated } from "../dist/node.js";
import { startServer } from "./server.mjs";

const TOKEN = "js-client-secret-1";
let server;

before(async () => {
  server = await startServer({ env: { SPLENDOR_AI_TOKENS: `other-token,${TOKEN}` } });
});

after(async () => {
  const log = await server.stop();
  assert.ok(!log.includes("Traceback"), log);
  assert.ok(!log.includes(TOKEN), "the server logged a token");
});

it("no token: Unauthenticated", async () => {
  const ai = new SplendorClient({ baseUrl: server.url });
  const err = await ai.newGame().then(() => null, (e) => e);
  assert.ok(err instanceof Unauthenticated && err instanceof ServiceError, String(err));
  assert.equal(err.code, Code.Unauthenticated);
  assert.equal(err.codeName, "UNAUTHENTICATED");
  await assert.rejects(ai.getCatalog("duel"), Unauthenticated);
});

it("a wrong token: Unauthenticated, on every protocol and on streams", async () => {
  for (const protocol of ["connect", "grpc-web"]) {
    const ai = new SplendorClient({ baseUrl: server.url, token: "wrong", protocol });
    await assert.rejects(ai.getCatalog("marvel"), Unauthenticated);
  }
  const grpc = new SplendorClient({ baseUrl: server.grpcUrl, token: "wrong", protocol: "grpc" });
  await assert.rejects(grpc.getCatalog("marvel"), Unauthenticated);
  const good = new SplendorClient({ baseUrl: server.url, token: TOKEN });
  const { position } = await good.newGame({ seed: 1 });
  const bad = new SplendorClient({ baseUrl: server.url, token: "wrong" });
  await assert.rejects(bad.analyze(position, { iterations: 100 }).result(), Unauthenticated);
});

it("the right token: every call goes through", async () => {
  for (const [protocol, baseUrl] of [["connect", server.url], ["grpc-web", server.url], ["grpc", server.grpcUrl]]) {
    const ai = new SplendorClient({ baseUrl, token: TOKEN, protocol });
    const { position } = await ai.newGame({ game: "duel", seed: 3 });
    const turn = await ai.getMove(position, { level: 1, seed: 1 });
    assert.ok(turn.moves.length >= 1);
    const final = await ai.analyze(position, { iterations: 100, reportEveryMs: 10 }).result();
    assert.equal(final.stats.iterations, 100n);
  }
  assert.throws(() => new SplendorClient({ baseUrl: server.url, token: "" }), /token is empty/);
});
