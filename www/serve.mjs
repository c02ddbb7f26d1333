// Serves the demo page on a loopback port: `/` is www/, `/pkg/` the built npm package (scripts/build)
// and `/catalogs/` the gzip'd real catalogs of tests/data/catalogs/ (sent as stored, unpacked by the
// page with DecompressionStream). Run `node www/serve.mjs` (PORT=8787 by default; PORT=0 picks a free
// port); tests import `startServer` and close it themselves.
import { createServer } from "node:http";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));

/** URL prefix → folder of the repository it is served from (first match wins). */
const mounts = [
  ["/pkg/", join(repo, "pkg")],
  ["/catalogs/", join(repo, "tests", "data", "catalogs")],
  ["/", join(repo, "www")],
];

const contentTypes = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".wasm": "application/wasm",
  ".gz": "application/gzip",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
};

/** The file a request path names, or null when it would leave its mount. */
export function resolvePath(urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath.split("?")[0]);
  } catch {
    return null;
  }
  if (path.endsWith("/")) path += "index.html";
  const [prefix, root] = mounts.find(([p]) => path.startsWith(p));
  const file = normalize(join(root, path.slice(prefix.length)));
  return file === root || file.startsWith(root + sep) ? file : null;
}

async function handle(request, response) {
  const file = resolvePath(request.url ?? "/");
  const info = file && (await stat(file).catch(() => null));
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.writeHead(405, { allow: "GET, HEAD" }).end();
  } else if (!info?.isFile()) {
    response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end(`not found: ${request.url}\n`);
  } else {
    response.writeHead(200, {
      "content-type": contentTypes[extname(file)] ?? "application/octet-stream",
      "content-length": info.size,
      "cache-control": "no-cache",
    });
    if (request.method === "HEAD") response.end();
    else createReadStream(file).pipe(response);
  }
}

/** Starts the server on 127.0.0.1; resolves to `{ server, url }` once it listens. */
export function startServer({ port = 8787 } = {}) {
  const server = createServer((request, response) => {
    handle(request, response).catch((e) => response.writeHead(500).end(String(e)));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` }));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  const port = Number(process.env.PORT ?? 8787);
  try {
    const { url } = await startServer({ port });
    console.log(`[serve] toolshelf demo at ${url}  (www/, /pkg/ and /catalogs/; Ctrl-C to stop)`);
  } catch (error) {
    console.error(`[serve] cannot listen on 127.0.0.1:${port} (${error.code ?? error.message}); try another PORT=`);
    process.exit(1);
  }
}
