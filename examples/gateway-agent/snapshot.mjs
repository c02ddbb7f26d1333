// The deploy-time step of wrangler.jsonc: lists every upstream of mcp.json (with "${NAME}" filled
// from the environment, as the Worker fills it from its secrets) and writes shelf.bin, the
// snapshot the Worker starts from, with mcp.json's "toolshelf" options.
//   node snapshot.mjs [mcp.json] [shelf.bin]
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

const [config = "mcp.json", output = "shelf.bin"] = process.argv.slice(2);
const missing = new Set();
const text = readFileSync(config, "utf8").replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name) => {
  if (process.env[name] === undefined) missing.add(name);
  return JSON.stringify(process.env[name] ?? "").slice(1, -1);
});
if (missing.size) {
  console.error(`snapshot.mjs: ${config} names ${[...missing].join(", ")}, unset here: export them to list the upstreams`);
  process.exit(2);
}
// The CLI reads the config from stdin; it exits non-zero when an upstream could not be listed, so a
// deploy never ships a catalog with a server missing.
const run = spawnSync("npx", ["--no-install", "toolshelf", "snapshot", "--mcp-config", "-", "-o", output], { input: text, stdio: ["pipe", "inherit", "inherit"] });
process.exit(run.status ?? 1);
