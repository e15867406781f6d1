// The browser bundle: the whole package (the client, the generated messages, the Connect-ES
// and protobuf-es runtimes) as one minified ES module without imports, for a page to load
// (<script type="module">). `node scripts/bundle.mjs [OUTFILE]`; default
// browser/splendor-ai-client.js, which is committed (tests/service/test_service_js_client.py
// fails when it is not what this makes of the sources).
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL("..", import.meta.url));
const outfile = process.argv[2] ?? `${here}browser/splendor-ai-client.js`;
await build({
  entryPoints: [`${here}src/index.ts`],
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2020",
  minify: true,
  legalComments: "none",
  outfile,
  logLevel: "warning",
});
