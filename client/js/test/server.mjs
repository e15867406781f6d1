// A real `splendor-ai serve --port 0 --http-port 0` for the tests: started with
// $SPLENDOR_AI_PYTHON (default python3) -m splendor_ai.cli, its ports read from its log lines.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, openSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const PYTHON = process.env.SPLENDOR_AI_PYTHON || "python3";

/**
 * Starts a server; resolves to { url, grpcUrl, log(), stop() } once it logs "listening on".
 * `env`: more environment variables (e.g. SPLENDOR_AI_TOKENS).
 */
export async function startServer({ flags = [], env = {}, timeoutMs = 60000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "splendor-ai-js-"));
  const logPath = join(dir, "server.log");
  const fd = openSync(logPath, "w");
  const args = ["-m", "splendor_ai.cli", "serve", "--host", "127.0.0.1", "--port", "0", "--http-port", "0",
                "--max-concurrent", "4", "--max-seconds", "30", "--max-threads", "2", "--grace", "2", ...flags];
  // cwd: a temporary folder, so the package comes from PYTHONPATH or the installed one, as in the Python tests.
  const proc = spawn(PYTHON, args, { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  let exited = null;
  proc.on("exit", (code, sig) => { exited = code ?? sig; });
  const log = () => readFileSync(logPath, "utf8");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = log();
    const grpc = /listening on \S+:(\d+)/.exec(text);
    const http = /demo page on https?:\/\/\S+?:(\d+)\//.exec(text);
    if (grpc && http) {
      return {
        url: `http://127.0.0.1:${http[1]}`,
        grpcUrl: `http://127.0.0.1:${grpc[1]}`,
        log,
        async stop() {
          if (exited === null) {
            const gone = new Promise((resolve) => proc.once("exit", resolve));
            proc.kill("SIGTERM");
            const timer = setTimeout(() => proc.kill("SIGKILL"), 15000);
            await gone;
            clearTimeout(timer);
          }
          return log();
        },
      };
    }
    if (exited !== null) throw new Error(`the server exited (${exited}):\n${text}`);
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`the server did not start within ${timeoutMs} ms:\n${text}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
