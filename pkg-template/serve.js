// `toolshelf serve` (Node): toolshelf/gateway over stdio, or over Streamable HTTP with --port
// (docs/gateway.md). The config is checked before anything is served (every server entry readable,
// each `${NAME}` of an HTTP upstream set); the upstreams' processes are ended on every way out
// (SIGTERM, SIGINT, SIGHUP, the client closing stdin, a failure), as process groups; operating
// failures (a port in use, a host that is not this machine's) are one line on stderr. Over HTTP,
// Node's server hands each request to httpHandler without reading its body: the token, Origin and
// Host are checked from the headers first, and the body is read only up to its cap.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { constants } from "node:os";
import process from "node:process";
import { Gateway, httpHandler, readConfig } from "./gateway.js";
import { redact } from "./mcp.js";
import { StdioServer } from "./stdio.js";

/** Exit codes of serve (docs/cli.md's): 0 served until told to stop, 1 an unexpected failure, 3 the config or the address refused. */
const EXIT = Object.freeze({ ok: 0, failure: 1, input: 3 });
const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"];

const isLoopback = (host) => host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * Runs `toolshelf serve` until its client goes or a signal comes: `{ config, path, options,
 * timeout, callTimeout, port, host, allowedOrigins, version, note, warn }` (`note` and `warn` print
 * a line on stderr). Resolves with the exit code.
 */
export async function serve({ config, path, options, timeout, callTimeout, port, host = "127.0.0.1", allowedOrigins = [], version, note, warn }) {
  const checked = checkedConfig(config, path);
  if (checked.errors) {
    for (const line of checked.errors) console.error(`toolshelf: ${line}`);
    return EXIT.input;
  }
  const gateway = new Gateway({ upstreams: checked.upstreams, options: { ...checked.options, ...options }, timeout, callTimeout, name: "toolshelf", version, onWarning: warn });
  const life = lifecycle(gateway);
  try {
    const names = Object.keys(checked.upstreams);
    if (port === undefined) return await serveStdio(gateway, life, { names, note, warn });
    return await serveHttp(gateway, life, { port, host, allowedOrigins, names, note, warn });
  } finally {
    life.dispose();
  }
}

/** The config's upstreams and options, `${NAME}` filled from the environment; or every entry's error, one line each. */
function checkedConfig(config, path) {
  let read;
  try {
    read = readConfig(config, { env: process.env });
  } catch (error) {
    return { errors: [`--config ${path}: ${error.message}`] };
  }
  const errors = Object.entries(read.upstreams).filter(([, spec]) => spec.error).map(([name, spec]) => `--config ${path}: server ${JSON.stringify(name)}: ${redact(spec.error)}`);
  return errors.length ? { errors } : read;
}

/**
 * What ends the gateway: `stopped` resolves at the first SIGTERM, SIGINT or SIGHUP (or `stop()`);
 * a second signal kills the upstreams at once and exits; an uncaught failure is one line, the
 * upstreams killed, exit 1; any exit kills what is left of them. `dispose()` removes the handlers.
 */
function lifecycle(gateway) {
  let stop;
  const stopped = new Promise((resolve) => {
    stop = resolve;
  });
  let signalled = false;
  const onSignal = (signal) => {
    if (signalled) {
      gateway.kill();
      process.exit(128 + constants.signals[signal]);
    }
    signalled = true;
    stop(signal);
  };
  const onExit = () => gateway.kill();
  const onFailure = (error) => {
    console.error(`toolshelf: unexpected failure (please report it): ${redact(error?.stack ?? error)}`);
    gateway.kill();
    process.exit(EXIT.failure);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  process.on("exit", onExit);
  process.on("uncaughtException", onFailure);
  process.on("unhandledRejection", onFailure);
  return {
    stopped,
    stop: () => stop(),
    dispose: () => {
      for (const signal of SIGNALS) process.off(signal, onSignal);
      process.off("uncaughtException", onFailure);
      process.off("unhandledRejection", onFailure);
      // "exit" stays: whatever ends the process ends the upstreams.
    },
  };
}

/** serve over stdio: until stdin closes, the client closes the connection, or a signal. */
async function serveStdio(gateway, life, { names, note, warn }) {
  const server = gateway.server();
  const transport = new StdioServer();
  transport.onerror = (error) => warn(error?.message ?? String(error));
  server.onclose = life.stop;
  process.stdin.once("end", life.stop);
  process.stdin.once("close", life.stop);
  await server.connect(transport);
  const status = await gateway.start();
  note(`serving ${status.filter((s) => s.state === "ready").length} of ${names.length} MCP servers over stdio`);
  await life.stopped;
  await gateway.close();
  return EXIT.ok;
}

/** serve --port: until a signal. */
async function serveHttp(gateway, life, { port, host, allowedOrigins, names, note, warn }) {
  let token = process.env.TOOLSHELF_GATEWAY_TOKEN;
  if (token === undefined || token === "") {
    token = randomBytes(24).toString("base64url");
    note(`TOOLSHELF_GATEWAY_TOKEN is not set; this run's bearer token: ${token}`);
  } else if (token.length < 16) {
    console.error("toolshelf: TOOLSHELF_GATEWAY_TOKEN: at least 16 characters");
    return EXIT.input;
  }
  let listening;
  try {
    listening = await listen(gateway, { port, host, token, allowedOrigins });
  } catch (error) {
    console.error(`toolshelf: cannot listen on ${hostPort(host, port)}: ${listenFailure(error, host)}`);
    await gateway.close();
    return EXIT.input;
  }
  if (!isLoopback(host)) warn(`--host ${host}: clients on the network reach the gateway over plain HTTP, where the bearer token can be read on the way; put TLS in front of it (a reverse proxy) or listen on 127.0.0.1`);
  const status = await gateway.start();
  note(`serving ${status.filter((s) => s.state === "ready").length} of ${names.length} MCP servers at ${listening.url}`);
  await life.stopped;
  await listening.close();
  await gateway.close();
  return EXIT.ok;
}

const hostPort = (host, port) => `${host.includes(":") ? `[${host}]` : host}:${port}`;

/** A failure to listen, in one line. */
function listenFailure(error, host) {
  switch (error?.code) {
    case "EADDRINUSE": return "the port is in use (another program listens on it; choose another --port)";
    case "EADDRNOTAVAIL": return `${host} is not an address of this machine (--host)`;
    case "ENOTFOUND":
    case "EAI_AGAIN": return `${host} is not a host name this machine can resolve (--host)`;
    case "EACCES": return "permission denied (ports below 1024 need privileges)";
    default: return redact(error?.message ?? error);
  }
}

/**
 * Node's HTTP server serving `gateway` through httpHandler (with sessions) at
 * http://<host>:<port>/mcp; a loopback bind accepts only its own names as Host. Resolves with `{
 * url, close() }` once listening; rejects with the listen error.
 */
export async function listen(gateway, { port, host = "127.0.0.1", token, allowedOrigins = [], sessions = true }) {
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = server.address().port;
  const allowedHosts = isLoopback(host) ? loopbackHosts(bound) : undefined;
  const handle = httpHandler(gateway, { token, allowedOrigins, allowedHosts, sessions });
  const base = `http://${hostPort(host, bound)}`;
  server.on("request", (req, res) => respond(handle, base, req, res));
  return {
    url: `${base}/mcp`,
    close: async () => {
      await handle.close();
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The Host values of a loopback bind on `port`. */
const loopbackHosts = (port) => ["127.0.0.1", "localhost", "[::1]"].flatMap((name) => [`${name}:${port}`, ...(port === 80 ? [name] : [])]);

/** A Node request's body as a web stream read only when pulled (a body never read is never buffered). */
function bodyOf(req) {
  return new ReadableStream({
    pull: (controller) => new Promise((resolve, reject) => {
      const done = () => {
        req.off("readable", next);
        req.off("end", end);
        req.off("error", fail);
        resolve();
      };
      const next = () => {
        const chunk = req.read();
        if (chunk === null) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        done();
      };
      const end = () => {
        controller.close();
        done();
      };
      const fail = (error) => {
        req.off("readable", next);
        req.off("end", end);
        reject(error);
      };
      if (req.readableEnded) return end();
      req.on("readable", next);
      req.once("end", end);
      req.once("error", fail);
      next();
    }),
  }, { highWaterMark: 0 });
}

/** The web Request of a Node request (its URL on the bound address, whatever its Host says). */
function requestOf(req, base) {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const url = new URL(req.url.startsWith("/") ? req.url : "/", base);
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : bodyOf(req);
  return new Request(url, { method: req.method, headers, body, duplex: "half" });
}

/** How long a client may go on sending a body the gateway refused before its connection is cut. */
const DRAIN_MS = 10_000;

/** The rest of a request's body, never read (a refused request): dropped as it comes, the connection cut after DRAIN_MS. */
function drop(req) {
  if (req.complete) return;
  req.resume();
  const timer = setTimeout(() => req.socket.destroy(), DRAIN_MS);
  timer.unref();
  req.once("end", () => clearTimeout(timer));
}

/**
 * Answers a Node request with the handler's Response: headers sent at once (an SSE stream opens
 * before its first event), the body streamed, and cancelled when the client goes. What a refused
 * request still sends is read and dropped, never kept.
 */
async function respond(handle, base, req, res) {
  let response;
  try {
    response = await handle(requestOf(req, base));
  } catch (error) {
    response = new Response(`toolshelf: ${redact(error?.message ?? error)}\n`, { status: 400, headers: { "content-type": "text/plain" } });
  }
  res.once("finish", () => drop(req));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.flushHeaders();
  if (response.body === null) return res.end();
  const reader = response.body.getReader();
  res.once("close", () => {
    if (!res.writableFinished) reader.cancel().catch(() => {});
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((resolve) => res.once("drain", resolve).once("close", resolve));
    }
  } catch {
    // the client went, or the stream failed: the response ends here
  }
  res.end();
}
