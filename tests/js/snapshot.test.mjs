// Snapshots through the packed package (SPEC §13): Shelf.fromSnapshot answers as new Shelf on the
// real catalogs (toolbox held, toolbox given, options given; the caller's own tool objects back in
// an assembly when the toolbox is given); the CLI `toolshelf snapshot` (the package's bin, run as
// npx runs it) writes what shelf.snapshot() gives; invalid_snapshot for truncated, corrupt, foreign
// and mismatched input; a snapshot after an update that kept servers. Timings are reported, not
// asserted, apart from one generous ratio.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Shelf, ToolshelfError } from "toolshelf";
import { grouped, keywordQueries, tool } from "./support.mjs";

const CATALOGS = [
  ["github-mcp-server", "linear-mcp-official"],
  ["stripe-api-2022-04"],
  ["cloudflare-api-2024-08", "twilio-api", "stripe-api-2022-04"],
  ["livemcptool-70servers"],
];
const QUERIES = ["create issue", "list pull requests", "refund a charge", "dns record", "who am I", ""];

/** Every answer of a shelf: assembly, searches, describe and unwrap of up to 200 tools. */
function answers(shelf) {
  const assembly = shelf.assemble();
  const out = [assembly];
  const queries = [...QUERIES, ...keywordQueries().slice(0, 40).map((q) => q.query)];
  for (const q of queries) out.push(shelf.search(q, { limit: 8 }));
  const names = shelf.search("a", { limit: 200 }).matches.map((m) => m.name);
  for (const name of [...names, "no_such_tool"]) {
    out.push(shelf.describe(name));
    out.push(shelf.unwrap({ id: "c", type: "function", function: { name: "tool_call", arguments: JSON.stringify({ name, arguments: {} }) } }));
  }
  return out;
}

function thrown(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  assert.fail("expected a throw");
}

test("Shelf.fromSnapshot answers as new Shelf on real catalogs, toolbox held or given", () => {
  for (const names of CATALOGS) {
    const toolbox = grouped(names, [tool("read_file", "Read a file.")]);
    const options = { contextLength: 200_000, qualify: true };
    const fresh = new Shelf(toolbox, options);
    const expected = answers(fresh);
    const held = fresh.snapshot();
    assert.ok(held instanceof Uint8Array);
    assert.deepEqual(answers(Shelf.fromSnapshot(held)), expected, `${names}: held`);
    const given = Shelf.fromSnapshot(fresh.snapshot({ toolbox: false }), toolbox, options);
    assert.deepEqual(answers(given), expected, `${names}: given`);
    // With the toolbox given, the assembly holds the caller's very objects.
    assert.equal(given.assemble().tools[0], toolbox.tools[0], `${names}: the caller's own direct tool`);
    assert.deepEqual(answers(Shelf.fromSnapshot(held.buffer.slice(held.byteOffset, held.byteOffset + held.byteLength))), expected, `${names}: an ArrayBuffer`);
    fresh.free();
  }
});

test("invalid_snapshot: truncated, corrupt, foreign, another toolbox or other options", () => {
  const toolbox = grouped(["linear-mcp-official"]);
  const shelf = new Shelf(toolbox, { contextLength: 100_000 });
  const bytes = shelf.snapshot();
  const cases = [
    ["truncated", bytes.subarray(0, bytes.length - 100), /trailer|truncated/],
    ["empty", new Uint8Array(), /truncated/],
    ["corrupt", Uint8Array.from(bytes, (b, i) => (i === 1000 ? b ^ 1 : b)), /checksum/],
    ["foreign", new TextEncoder().encode(JSON.stringify(toolbox)), /not a toolshelf snapshot/],
  ];
  for (const [label, input, reason] of cases) {
    const e = thrown(() => Shelf.fromSnapshot(input));
    assert.ok(e instanceof ToolshelfError, label);
    assert.equal(e.code, "invalid_snapshot", label);
    assert.match(e.message, reason, label);
  }
  const version = bytes.slice();
  version[version.length - 40 + 8] = 9;
  assert.match(thrown(() => Shelf.fromSnapshot(version)).message, /version 9/);
  assert.match(thrown(() => Shelf.fromSnapshot(bytes, grouped(["github-mcp-server"]))).message, /differs/);
  assert.match(thrown(() => Shelf.fromSnapshot(shelf.snapshot({ toolbox: false }))).message, /give the toolbox/);
  assert.match(thrown(() => Shelf.fromSnapshot(bytes, undefined, { contextLength: 5000 })).message, /options/);
  assert.equal(thrown(() => Shelf.fromSnapshot("bytes")).code, "invalid_snapshot");
});

test("a snapshot after an update that kept servers, and an update of a loaded shelf", () => {
  const start = grouped(["github-mcp-server", "linear-mcp-official"]);
  const next = { servers: { ...start.servers, stripe: grouped(["stripe-api-2022-04"]).servers.stripe } };
  const options = { qualify: true };
  const shelf = new Shelf(start, options);
  shelf.update(next); // github and linear kept: the core holds no whole text of `next`
  const expected = answers(new Shelf(next, options));
  assert.deepEqual(answers(shelf), expected);
  assert.deepEqual(answers(Shelf.fromSnapshot(shelf.snapshot())), expected, "its snapshot holds the toolbox anew");
  const loaded = Shelf.fromSnapshot(new Shelf(start, options).snapshot());
  loaded.update(next);
  assert.deepEqual(answers(loaded), expected, "update of a loaded shelf");
});

test("the CLI: npx toolshelf snapshot toolbox.json -o shelf.bin, with new Shelf's options", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolshelf-cli-"));
  const toolbox = grouped(["github-mcp-server", "linear-mcp-official"]);
  writeFileSync(join(dir, "toolbox.json"), JSON.stringify(toolbox));
  const options = { contextLength: 128_000, qualify: true };
  const out = execFileSync("npx", ["--no-install", "toolshelf", "snapshot", join(dir, "toolbox.json"), "-o", join(dir, "shelf.bin"), "--options", JSON.stringify(options)], { encoding: "utf8" });
  assert.match(out, /shelf\.bin: \d+ bytes/);
  const bytes = new Uint8Array(readFileSync(join(dir, "shelf.bin")));
  assert.deepEqual(bytes, new Shelf(toolbox, options).snapshot(), "the bytes of shelf.snapshot()");
  assert.deepEqual(answers(Shelf.fromSnapshot(bytes)), answers(new Shelf(toolbox, options)));
  const usage = (() => {
    try {
      execFileSync("npx", ["--no-install", "toolshelf", "snapshot"], { encoding: "utf8", stdio: "pipe" });
    } catch (e) {
      return e;
    }
  })();
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /usage: toolshelf snapshot/);
  const help = execFileSync("npx", ["--no-install", "toolshelf", "snapshot", "--help"], { encoding: "utf8", stdio: "pipe" });
  assert.match(help, /^usage: toolshelf snapshot/, "asked for, the usage goes to stdout, the exit code is 0");
});

test("loading a snapshot + first search against new Shelf + first search, 3,397 tools (reported)", () => {
  const toolbox = grouped(["cloudflare-api-2024-08", "twilio-api", "stripe-api-2022-04"]);
  const options = { contextLength: 200_000 };
  const held = new Shelf(toolbox, options).snapshot();
  const without = new Shelf(toolbox, options).snapshot({ toolbox: false });
  const best = (f) => {
    let min = Infinity;
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      const shelf = f();
      shelf.search("list the zones of my account");
      min = Math.min(min, performance.now() - t);
      shelf.free();
    }
    return min;
  };
  const fresh = best(() => new Shelf(toolbox, options));
  const loaded = best(() => Shelf.fromSnapshot(held));
  const checked = best(() => Shelf.fromSnapshot(without, toolbox));
  console.log(`3,397 tools: new Shelf + first search ${fresh.toFixed(1)} ms; snapshot held ${loaded.toFixed(1)} ms (${(loaded / fresh).toFixed(3)}×); toolbox given ${checked.toFixed(1)} ms (${(checked / fresh).toFixed(3)}×); snapshot ${(held.length / 1e6).toFixed(1)} MB`);
  assert.ok(loaded < fresh, "loading costs less than a new Shelf");
});
