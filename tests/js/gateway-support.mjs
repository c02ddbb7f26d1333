// Shared by the gateway's tests: the installed bin, the test upstreams' script, an SDK Client on
// `toolshelf serve` over stdio, and a poll with a deadline.
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

export const here = dirname(fileURLToPath(import.meta.url)); // the project the package is installed in
export const CLI = join(here, "node_modules", "toolshelf", "cli.js");
export const UPSTREAM = join(here, "gateway-upstream.mjs");

/**
 * An SDK Client on `toolshelf serve --config <config>` over stdio; `seen.listChanged` counts its
 * list_changed notifications, and `seen.listings` gets the search tool's description listed anew at each.
 */
export async function gatewayClient(config, args = []) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "serve", "--config", config, ...args], stderr: "pipe" });
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
