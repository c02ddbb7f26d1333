// The gateway examples as wrangler deploys them, in workerd: examples/gateway-worker (stateless,
// `httpHandler`) and examples/gateway-agent (the Agents SDK's McpAgent, a Durable Object per MCP
// session). `wrangler deploy --dry-run --outdir` runs the example's build step (snapshot.mjs lists
// the upstreams of its mcp.json, here MCP servers on 127.0.0.1, and writes shelf.bin) and bundles
// it with the packed package (tests/runtimes/.work); the bundle alone is served by workerd (the
// binary wrangler uses, from npm) with the example's compatibility settings, its Durable Object
// class (SQLite-backed, on disk in a new folder), text bindings and loopback as its only network. Shared by
// gateway-wrangler.test.mjs and bench/gateway-agent.mjs.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { bin, exec, freePort, repoDir, startServer, workDir, wrangler, WRANGLER_ENV } from "./support.mjs";

/** An example's wrangler.jsonc (comment lines stripped). */
export const wranglerConfig = (dir) => JSON.parse(readFileSync(join(dir, "wrangler.jsonc"), "utf8").replace(/^\s*\/\/.*$/gm, ""));

/**
 * examples/`example` copied to tests/runtimes/.work/`folder` with mcp.json naming `upstreams`
 * ({name: url}, each sent `Authorization: Bearer ${UPSTREAM_TOKEN}`) and `options`, then built by
 * wrangler with `env` (the build step's secrets). Resolves `{ dir, outdir, config, ms, upload }`.
 */
export async function buildExample(example, folder, { upstreams, options, env = {} }) {
  const dir = join(workDir, folder);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(repoDir, "examples", example), dir, { recursive: true });
  const mcpServers = Object.fromEntries(Object.entries(upstreams).map(([name, url]) => [name, { url, headers: { Authorization: "Bearer ${UPSTREAM_TOKEN}" } }]));
  writeFileSync(join(dir, "mcp.json"), JSON.stringify({ mcpServers, toolshelf: options }, null, 2));
  const built = await exec(wrangler[0], [wrangler[1], "deploy", "--dry-run", "--outdir", "out"], { cwd: dir, env: { ...WRANGLER_ENV, ...env, WRANGLER_LOG_PATH: join(dir, "logs") } });
  if (built.code !== 0) throw new Error(`wrangler deploy --dry-run of examples/${example} failed (${built.code}):\n${built.stdout}\n${built.stderr}`);
  const upload = built.stdout.match(/Total Upload: ([\d.]+ KiB) \/ gzip: ([\d.]+ KiB)/);
  return { dir, outdir: join(dir, "out"), config: wranglerConfig(dir), ms: built.ms, stdout: built.stdout, upload: upload ? `${upload[1]}, ${upload[2]} gzip` : "not printed" };
}

/**
 * What Cloudflare's runtime (and miniflare, as an extension) provides behind `cloudflare:email`,
 * which the Agents SDK imports; the open-source workerd binary leaves it out.
 */
const EMAIL = "export default { EmailMessage: class EmailMessage { constructor(from, to, raw) { Object.assign(this, { from, to, raw }); } } };";

/** The capnp config serving wrangler's output `outdir` as the Worker `config` (wrangler.jsonc) describes it, on `port`. */
export function workerdConfig({ outdir, config, port, bindings, storage }) {
  const modules = readdirSync(outdir).filter((f) => /\.(js|mjs|wasm|bin)$/.test(f)).map((f) => {
    const kind = f.endsWith(".wasm") ? "wasm" : f.endsWith(".bin") ? "data" : "esModule";
    return `(name = ${JSON.stringify(f)}, ${kind} = embed ${JSON.stringify(`${basename(outdir)}/${f}`)})`;
  });
  modules.sort((a, b) => Number(!a.includes(`"${config.main}"`)) - Number(!b.includes(`"${config.main}"`))); // the main module first
  const sqlite = new Set((config.migrations ?? []).flatMap((m) => m.new_sqlite_classes ?? []));
  const objects = config.durable_objects?.bindings ?? [];
  const texts = Object.entries(bindings).map(([name, text]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(text)})`);
  const namespaces = objects.map((b) => `(name = ${JSON.stringify(b.name)}, durableObjectNamespace = ${JSON.stringify(b.class_name)})`);
  const doLines = objects.length
    ? `\n  durableObjectNamespaces = [ ${objects.map((b) => `(className = ${JSON.stringify(b.class_name)}, uniqueKey = ${JSON.stringify(`${config.name}-${b.class_name}`)}${sqlite.has(b.class_name) ? ", enableSql = true" : ""})`).join(", ")} ],\n  durableObjectStorage = (localDisk = "objects"),`
    : "";
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker), (name = "loopback", network = (allow = ["local"]))${objects.length ? `, (name = "objects", disk = (path = ${JSON.stringify(storage)}, writable = true))` : ""} ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
  extensions = [ (modules = [ (name = "cloudflare-internal:email", esModule = ${JSON.stringify(EMAIL)}, internal = true) ]) ],
);
const worker :Workerd.Worker = (
  modules = [ ${modules.join(", ")} ],
  bindings = [ ${[...texts, ...namespaces].join(", ")} ],
  globalOutbound = "loopback",
  compatibilityDate = ${JSON.stringify(config.compatibility_date)},
  compatibilityFlags = ${JSON.stringify(config.compatibility_flags ?? [])},${doLines}
);
`;
}

/**
 * Serves a built example (`buildExample`'s result) in workerd on a free port with text `bindings`;
 * resolves `{ url, stop, pid, output, readyMs }` (url: its /mcp endpoint) once it answers at all.
 */
export async function serveExample(built, bindings, { workerdBin = bin("workerd"), file = "config.capnp", pollMs = 10 } = {}) {
  const port = await freePort();
  // The Durable Objects' SQLite files: a new folder each start (workerd's in-memory storage has no SQLite).
  const storage = join(built.dir, `objects-${port}`);
  rmSync(storage, { recursive: true, force: true });
  mkdirSync(storage);
  writeFileSync(join(built.dir, file), workerdConfig({ ...built, port, bindings, storage }));
  // Any answer will do (a 401 without the token): the probe only waits for the socket.
  const server = await startServer(workerdBin, ["serve", file], { cwd: built.dir, url: `http://127.0.0.1:${port}/ready`, answered: () => true, pollMs });
  return { ...server, url: `http://127.0.0.1:${port}/mcp` };
}
