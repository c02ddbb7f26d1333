// Shared by the gateway's tests: the installed bin, the test upstreams' script, an SDK Client on
// `toolshelf serve` over stdio, and a poll with a deadline.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

export const here = dirname(fileURLToPath(import.meta.url)); // the project the package is installed in
export const CLI = join(here, "node_modules", "toolshelf", "cli.js");
export const UPSTREAM = join(here, "gateway-upstream.mjs");

/**
 * An SDK Client on `toolshelf serve --config <config>` over stdio (with `env` added to the SDK's
 * default environment); `seen.listChanged` counts its
 * list_changed notifications, and `seen.listings` gets the search tool's description listed anew at each.
 */
export async function gatewayClient(config, args = [], env) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "serve", "--config", config, ...args], stderr: "pipe", env: env && { ...getDefaultEnvironment(), ...env } });
  let stderr = "";
  transport.stderr.on("data", (d) => (stderr += d));
  const client = new Client({ name: "gateway-test", version: "1.0.0" });
  const seen = { listChanged: 0, listings: [] };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    seen.listChanged++;
    client.listTools().then(({ tools }) => seen.listings.push(tools.find((t) => t.name === "tool_search")?.description ?? ""), () => {});
  });
  await client.connect(transport);
  return { client, transport, seen, stderr: () => stderr };
}

/** Polls `check` every 50 ms until it gives a truthy value (returned), failing after `ms`. */
export async function eventually(check, what, ms = 15_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) assert.fail(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const textOf = (result) => result.content.map((c) => c.text).join("\n");
export const bridge = (name, args = {}) => ({ name: "tool_call", arguments: { name, arguments: args } });

/**
 * The name a gateway shows the model for the deferred tool its listing names `own`, asked as a model
 * asks: tool_describe by that name, whose answer gives the tool's full name.
 */
export async function shownName(client, own) {
  const result = await client.callTool({ name: "tool_describe", arguments: { name: own } });
  assert.notEqual(result.isError, true, `${own}: ${textOf(result)}`);
  return JSON.parse(textOf(result)).name;
}

/** `toolshelf serve --config <config> --port 0 [args]` as a child process with `env`; resolves once it prints its URL. */
export async function serveHttp(config, args = [], env = {}) {
  const child = spawn(process.execPath, [CLI, "serve", "--config", config, "--port", "0", ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const url = await Promise.race([
    eventually(() => /at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1], "the gateway's address", 30_000),
    exited.then(({ code }) => assert.fail(`serve exited (${code}) before listening: ${stderr}`)),
  ]);
  return { child, url, exited, stderr: () => stderr };
}

/** Whether process `pid` runs (a zombie, dead but not reaped yet, does not). */
export function alive(pid) {
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** The pids the test upstreams recorded in `file` (GATEWAY_PIDS). */
export const pidsIn = (file) => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)) : []);

/** Resident memory of a process in bytes (Linux /proc). */
export const rss = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) * 1024;

/** Ends every process of `pids` still running (a test's cleanup: nothing it started outlives it). */
export function killAll(pids) {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}
