// The TypeScript client's side of `python scripts/bench_web_ts.py` (scripts/bench_web_ts.py):
// `node scripts/bench-getmove.mjs BASE_URL [PROTOCOL]` (connect, the default, or grpc), then one request a line on stdin,
// {"position": base64 protobuf, "iterations": n, "seed": s}; for each, one line on stdout,
// {"wall": ms, "search": ms}: the awaited getMove timed in Node (performance.now), and its
// searches as the server reports them. The package must be built (npm run build).
import { createInterface } from "node:readline";
import { PositionSchema, SplendorClient, fromBinary } from "../dist/node.js";

const ai = new SplendorClient({ baseUrl: process.argv[2], protocol: process.argv[3] ?? "connect", timeoutMs: 120000 });
for await (const line of createInterface({ input: process.stdin })) {
  const { position, iterations, seed } = JSON.parse(line);
  const pos = fromBinary(PositionSchema, Buffer.from(position, "base64"));
  const t0 = performance.now();
  const turn = await ai.getMove(pos, { iterations, seed });
  const wall = performance.now() - t0;
  const search = turn.searches.reduce((sum, s) => sum + s.elapsedSeconds, 0) * 1000;
  process.stdout.write(JSON.stringify({ wall, search }) + "\n");
}
