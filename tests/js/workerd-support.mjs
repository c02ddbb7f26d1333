// Serving a Worker that imports the installed package from the real workerd runtime, bundle-free:
// shared by workerd.test.mjs and figures.mjs (cold start).
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { repoDir } from "./support.mjs";

export const WORKERD = process.env.TOOLSHELF_WORKERD ?? join(repoDir, "node_modules", ".bin", "workerd");

/** The entry file Node's resolver gives for "toolshelf" under the `workerd` condition. */
export function workerdEntry() {
  const code = 'console.log(import.meta.resolve("toolshelf"))';
  const url = execFileSync(process.execPath, ["--conditions=workerd", "--input-type=module", "-e", code], { encoding: "utf8", timeout: 20_000, stdio: "pipe" });
  return fileURLToPath(url.trim());
}

/** Every file reached from `entry` by static relative imports and re-exports. */
export function moduleGraph(entry) {
  const seen = new Set([entry]);
  for (const file of seen) {
    if (!file.endsWith(".js")) continue;
    const source = readFileSync(file, "utf8");
    for (const [, specifier] of source.matchAll(/(?:\bfrom|^\s*import)\s*["'](\.{1,2}\/[^"']+)["']/gm)) {
      seen.add(join(dirname(file), specifier));
    }
  }
  return [...seen];
}

/**
 * The capnp config serving `worker.js` (and `input.json`, when `withInput`) from the folder `work` on
 * `port`, with the package's modules reached from `entry` (none when null), each named by its path in the package.
 */
export function capnpConfig({ work, port, entry, withInput = true, extraModules = [] }) {
  const pkgDir = entry && dirname(entry);
  const modules = (entry ? moduleGraph(entry) : []).map((file) => {
    // The entry answers to the bare name the Worker imports; the rest resolve relative to it.
    const name = file === entry ? "toolshelf" : relative(pkgDir, file);
    const kind = file.endsWith(".wasm") ? "wasm" : "esModule";
    return `(name = ${JSON.stringify(name)}, ${kind} = embed ${JSON.stringify(relative(work, file))})`;
  });
  const all = ['(name = "worker.js", esModule = embed "worker.js")', ...(withInput ? ['(name = "input.json", json = embed "input.json")'] : []), ...extraModules, ...modules];
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [
${all.map((m) => `    ${m}`).join(",\n")}
  ],
  compatibilityDate = "2025-01-01",
);
`;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts workerd on `work`/`configFile`; resolves once `port` answers at `path` as `probe` wants
 * (default: a 200; asked every `pollMs`), with a `stop()`, a promise of the exit, the process id and the milliseconds from spawn
 * to that first answer. Never hangs: killed at `timeoutMs` and on exit.
 */
export async function startWorkerd({ work, configFile, port, timeoutMs = 60_000, path = "/", pollMs = 100, probe = (r) => r.ok }) {
  const began = performance.now();
  const child = spawn(WORKERD, ["serve", configFile], { cwd: work, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = () => {
    process.off("exit", stop);
    return child.exitCode === null && child.kill("SIGKILL");
  };
  process.once("exit", stop);
  while (performance.now() - began < timeoutMs) {
    if (child.exitCode !== null) break;
    const ok = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(5_000) }).then(probe, () => false);
    if (ok) return { stop, exited, pid: child.pid, output: () => output, readyMs: performance.now() - began };
    await new Promise((r) => setTimeout(r, pollMs));
  }
  stop();
  throw new Error(`workerd did not answer within ${timeoutMs} ms (exit ${child.exitCode}):\n${output}`);
}

