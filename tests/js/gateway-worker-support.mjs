// examples/gateway-worker as it is deployed, run in the real workerd (npm `workerd`): remote MCP
// servers over Streamable HTTP on 127.0.0.1 (the SDK's StreamableHTTPServerTransport, stateless, in
// this process), the deploy-time snapshot written by the example's build step from their tool lists,
// the Worker bundled with esbuild as wrangler bundles it (toolshelf's `workerd` entry, its .wasm a
// precompiled module, shelf.bin a Data module, mcp.json inlined) and served by workerd with its
// bearer token as a text binding and loopback as its only outbound network. Shared by
// gateway-worker.test.mjs and bench/gateway-worker.mjs.
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { catalog, repoDir } from "./support.mjs";
import { freePort, startWorkerd } from "./workerd-support.mjs";

export const EXAMPLE = join(repoDir, "examples", "gateway-worker");

/** A catalog's tools (of one server when given) as MCP tools/list items. */
export function mcpTools(name, server) {
  return catalog(name).filter((e) => server === undefined || e.server === server).map(({ tool }) => {
    const f = tool.function ?? tool;
    return { name: f.name, description: f.description ?? "", inputSchema: { type: "object", ...(f.parameters ?? f.input_schema ?? {}) } };
  });
}

/**
 * An MCP server over Streamable HTTP at `<url>` (path /mcp) on 127.0.0.1, stateless (a server and a
 * transport per request). `make()` gives the SDK server (a `Server` or an `McpServer`) to serve;
 * `json`: answers as JSON bodies, else as SSE streams. Counts every HTTP request (`requests`),
 * records every tools/call's params (`calls`) and every Authorization header seen (`auths`).
 */
export async function httpUpstream(make, { json = true } = {}) {
  const calls = [];
  const auths = new Set();
  let requests = 0;
  const http = createServer(async (req, res) => {
    requests++;
    auths.add(req.headers.authorization);
    if (new URL(req.url, "http://localhost").pathname !== "/mcp") return res.writeHead(404).end();
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = raw ? JSON.parse(raw) : undefined;
    for (const message of [body ?? []].flat()) if (message?.method === "tools/call") calls.push(structuredClone(message.params));
    const server = make();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
    res.on("close", () => {
      transport.close().catch(() => {});
      server.close().catch(() => {});
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500).end(String(e));
    }
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  let closed = false;
  return {
    url: `http://127.0.0.1:${http.address().port}/mcp`,
    calls,
    auths,
    get requests() {
      return requests;
    },
    close: () => {
      if (closed) return Promise.resolve();
      closed = true;
      return new Promise((r) => {
        http.closeAllConnections?.();
        http.close(r);
      });
    },
  };
}

/** A low-level SDK Server serving `tools`; a call answers "<tool> ran with <arguments>". */
export const catalogServer = (name, tools) => () => {
  const server = new Server({ name, version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const known = tools.some((t) => t.name === request.params.name);
    return known
      ? { content: [{ type: "text", text: `${request.params.name} ran with ${JSON.stringify(request.params.arguments ?? {})}` }] }
      : { content: [{ type: "text", text: `unknown tool ${request.params.name}` }], isError: true };
  });
  return server;
};

/**
 * An McpServer (zod schemas) whose `build_report` answers with text, an image, a resource link,
 * structured content and `_meta`, and with `isError` when asked to fail.
 */
export const reportsServer = () => {
  const server = new McpServer({ name: "reports", version: "1.0.0" });
  server.registerTool(
    "build_report",
    {
      description: "Builds the quarterly sales report for a region and returns its totals.",
      inputSchema: { region: z.enum(["emea", "apac", "amer"]), quarter: z.number().int().min(1).max(4), fail: z.boolean().optional() },
      outputSchema: { region: z.string(), quarter: z.number(), total: z.number() },
    },
    async ({ region, quarter, fail }) => ({
      content: [
        { type: "text", text: fail ? `no data for ${region} Q${quarter}` : `report for ${region} Q${quarter}: 1234.5` },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        { type: "resource_link", uri: `https://reports.example.com/${region}/${quarter}`, name: "report.pdf" },
      ],
      structuredContent: { region, quarter, total: fail ? 0 : 1234.5 },
      _meta: { "example.com/report": `${region}-${quarter}` },
      ...(fail ? { isError: true } : {}),
    }),
  );
  return server;
};

/** The example's files in `work`, with mcp.json naming `upstreams` ({name: url}) and `options`. */
export function writeExample(work, upstreams, options) {
  mkdirSync(work, { recursive: true });
  for (const file of ["worker.js", "snapshot.mjs", "wrangler.jsonc"]) copyFileSync(join(EXAMPLE, file), join(work, file));
  const mcpServers = Object.fromEntries(Object.entries(upstreams).map(([name, url]) => [name, { url, headers: { Authorization: "Bearer ${UPSTREAM_TOKEN}" } }]));
  writeFileSync(join(work, "mcp.json"), JSON.stringify({ mcpServers, toolshelf: options }, null, 2));
}

/** wrangler.jsonc without its comment lines. */
export const wranglerConfig = (work) => JSON.parse(readFileSync(join(work, "wrangler.jsonc"), "utf8").replace(/^\s*\/\/.*$/gm, ""));

/**
 * The example's build step (wrangler.jsonc's build.command) in `work`, with `env` over this
 * process's; resolves its stdout (asynchronously: the upstreams it lists answer from this process).
 */
export function runBuild(work, env) {
  const [command, ...args] = wranglerConfig(work).build.command.split(" ");
  return new Promise((resolve, reject) => {
    execFile(command === "node" ? process.execPath : command, args, { cwd: work, env: { ...process.env, ...env }, encoding: "utf8", timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${wranglerConfig(work).build.command}: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/**
 * worker.js bundled into `work`/out as wrangler bundles it (the `workerd` condition; .wasm and
 * .bin left as modules of their own; JSON inlined). `snapshot: false` bundles it without its
 * shelf.bin (the Gateway then lists every upstream on an isolate's first request): the
 * alternative the snapshot is measured against. Returns the bundle's size in bytes.
 */
export async function bundle(work, { snapshot = true } = {}) {
  // esbuild from the repo's devDependencies, resolved from here (the consumer project sits inside the repo).
  const esbuild = await import(createRequire(join(repoDir, "package.json")).resolve("esbuild"));
  const out = join(work, "out");
  const noSnapshot = {
    name: "no-snapshot",
    setup(build) {
      build.onResolve({ filter: /^\.\/shelf\.bin$/ }, () => ({ path: "shelf.bin", namespace: "no-snapshot" }));
      build.onLoad({ filter: /.*/, namespace: "no-snapshot" }, () => ({ contents: "export default undefined;", loader: "js" }));
    },
  };
  const result = await esbuild.build({
    entryPoints: [join(work, "worker.js")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "browser"],
    external: ["*.wasm", "*.bin", "cloudflare:*"],
    plugins: snapshot ? [] : [noSnapshot],
    outfile: join(out, "worker.js"),
    logLevel: "silent",
    metafile: true,
  });
  // The wasm module the bundle imports, beside it under the name it imports it by.
  const wasmImport = Object.values(result.metafile.outputs)[0].imports.find((i) => i.path.endsWith(".wasm"));
  const wasmFrom = createRequire(join(work, "worker.js")).resolve("toolshelf/toolshelf_bg.wasm");
  mkdirSync(dirname(join(out, wasmImport.path)), { recursive: true });
  copyFileSync(wasmFrom, join(out, wasmImport.path));
  if (snapshot) copyFileSync(join(work, "shelf.bin"), join(out, "shelf.bin"));
  return { bytes: readFileSync(join(out, "worker.js")).length, wasm: wasmImport.path.replace(/^\.\//, ""), snapshot };
}

/** The capnp config serving the bundle in `work`/out on `port`, `bindings` as text bindings, loopback as its network. */
export function capnp({ port, wasm, snapshot, bindings, compatibilityDate }) {
  const modules = [
    '(name = "worker.js", esModule = embed "worker.js")',
    `(name = ${JSON.stringify(wasm)}, wasm = embed ${JSON.stringify(wasm)})`,
    ...(snapshot ? ['(name = "shelf.bin", data = embed "shelf.bin")'] : []),
  ];
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker), (name = "loopback", network = (allow = ["local"])) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [
${modules.map((m) => `    ${m}`).join(",\n")}
  ],
  bindings = [ ${Object.entries(bindings).map(([name, text]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(text)})`).join(", ")} ],
  globalOutbound = "loopback",
  compatibilityDate = ${JSON.stringify(compatibilityDate)},
);
`;
}

/**
 * Serves the bundle in `work`/out with workerd on a free loopback port; resolves `{ url, stop,
 * pid, output, readyMs }` once the Worker answers anything at /mcp (a 401 without the token).
 */
export async function serveWorker(work, built, bindings) {
  const out = join(work, "out");
  const port = await freePort();
  writeFileSync(join(out, "config.capnp"), capnp({ port, ...built, bindings, compatibilityDate: wranglerConfig(work).compatibility_date }));
  const workerd = await startWorkerd({ work: out, configFile: "config.capnp", port, path: "/mcp", probe: () => true, pollMs: 10 });
  return { ...workerd, url: `http://127.0.0.1:${port}/mcp` };
}
