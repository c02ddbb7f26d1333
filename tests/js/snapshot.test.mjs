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

/** The snapshot checksum (src/hash.rs `fnv1a_words`): FNV-1a over 64-bit little-endian words in four lanes, folded with the length. */
function checksum(bytes) {
  const [OFFSET, PRIME] = [0xcbf29ce484222325n, 0x100000001b3n];
  const lanes = [OFFSET, OFFSET ^ 1n, OFFSET ^ 2n, OFFSET ^ 3n];
  const step = (lane, word) => (lanes[lane] = BigInt.asUintN(64, (lanes[lane] ^ word) * PRIME));
  const word = (at) => {
    let w = 0n;
    for (let i = Math.min(8, bytes.length - at) - 1; i >= 0; i--) w = (w << 8n) | BigInt(bytes[at + i]);
    return w;
  };
  const whole = bytes.length - (bytes.length % 32);
  for (let at = 0; at < whole; at += 32) for (let lane = 0; lane < 4; lane++) step(lane, word(at + 8 * lane));
  for (let at = whole, lane = 0; at < bytes.length; at += 8, lane++) step(lane, word(at));
  let h = OFFSET;
  for (const lane of lanes) h = BigInt.asUintN(64, (h ^ lane) * PRIME);
  return BigInt.asUintN(64, (h ^ BigInt(bytes.length)) * PRIME);
}

/** `bytes` with the trailer's checksum made right for the bytes before it: bytes written to deceive. */
function withChecksum(bytes) {
  const out = bytes.slice();
  new DataView(out.buffer, out.byteOffset).setBigUint64(out.length - 8, checksum(out.subarray(0, out.length - 40)), true);
  return out;
}

/** The options a snapshot holds (the payload's first string), parsed; undefined when none or not JSON. */
function heldOptions(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const textLen = Number(view.getBigUint64(bytes.length - 24, true));
  if (bytes[textLen] !== 1) return undefined;
  const length = view.getUint32(textLen + 1, true);
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(textLen + 5, textLen + 5 + length)));
  } catch {
    return undefined;
  }
}

/** The toolbox a snapshot holds (its text before the payload), parsed. */
function heldToolbox(bytes) {
  const textLen = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigUint64(bytes.length - 24, true));
  return JSON.parse(new TextDecoder().decode(bytes.subarray(0, textLen)));
}

/**
 * What is wrong with a loaded shelf, or null: every answer plain data or a
 * ToolshelfError, the assembly's tools objects with unique names, its snapshot loading again, and
 * an update to its own toolbox answering as a new Shelf of that toolbox: accepted and answering as
 * it (or as the loaded shelf), or refused with the error a new Shelf of it gives. (SPEC §13
 * trusts the catalog a well-formed snapshot carries: a forged one answers as what it says, so the
 * update, which reads the toolbox again, is compared with a new Shelf, not with the loaded one.)
 */
function wrongWith(shelf, given, options) {
  try {
    const assembly = shelf.assemble();
    const tools = assembly.tools;
    if (!tools.every((t) => t !== null && typeof t === "object")) return `a tool that is not an object: ${JSON.stringify(tools)}`;
    const names = tools.map((t) => t.function?.name ?? t.name);
    if (new Set(names).size !== names.length) return `assembled names repeat: ${names}`;
    const hits = shelf.search("issue list create", { limit: 20 }).matches.map((m) => m.name);
    for (const name of [...names, ...hits]) {
      shelf.describe(name);
      shelf.unwrap({ name: "tool_call", arguments: { name, arguments: {} } });
    }
    const again = shelf.snapshot();
    Shelf.fromSnapshot(again, given);
    // New objects (a copy of the toolbox given): an update keeps no server, so it reads the whole
    // toolbox again (a server whose objects are the very ones given keeps the loaded tools).
    const own = given ? structuredClone(given) : heldToolbox(again);
    let fresh = null;
    let freshError = null;
    try {
      fresh = JSON.stringify(new Shelf(own, options).assemble());
    } catch (e) {
      freshError = e; // its text is no toolbox a new Shelf takes with those options
    }
    let updateError = null;
    try {
      shelf.update(own);
    } catch (e) {
      updateError = e;
    }
    if (freshError || updateError) {
      if (freshError?.code !== undefined && updateError?.code === freshError.code) return null;
      return `an update to its own toolbox ${updateError ? `threw ${updateError.code}: ${updateError.message}` : "was accepted"}, a new Shelf of it ${freshError ? `threw ${freshError.code}` : "was made"}`;
    }
    // The update reads its toolbox again: as the loaded shelf answered (its catalog not forged)
    // or as a new Shelf of that toolbox with the options it holds (its options not forged).
    const updated = JSON.stringify(shelf.assemble());
    if (updated !== JSON.stringify(assembly) && updated !== fresh) return "an update to its own toolbox answers unlike the loaded shelf and unlike a new Shelf of it";
  } catch (e) {
    return e instanceof ToolshelfError ? `${e.code}: ${e.message}` : `a raw ${e?.name}: ${e?.message}`;
  }
  return null;
}

/** Numbers from a seed (xorshift32): the same forgeries every run, a failure's label replayable. */
function seeded(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x % n;
  };
}

test("a forged snapshot (checksum made right) is invalid_snapshot or a shelf that answers rightly", () => {
  const toolbox = {
    tools: [tool("read_file", "Read a file at /repos/{owner}/{repo}."), tool("mcp__gh__merge", "Merge; options {} are ignored.")],
    servers: {
      gh: [tool("create_issue", "Create an issue."), tool("tool_search", "Mine."), tool("list_issues", "List issues.")],
      linear: [tool("create_issue", "Create a Linear issue."), tool("list_teams", "List teams.")],
      "a b": [tool("tool_call", "Left out.")],
    },
  };
  const options = { contextLength: 3000 };
  const bytes = new Shelf(toolbox, options).snapshot();
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const textLen = Number(view.getBigUint64(bytes.length - 24, true));
  const payloadEnd = bytes.length - 40;
  const text = new TextDecoder().decode(bytes.subarray(0, textLen));
  const variants = [];
  /** The payload's 32-bit number at `at` changed (one more, one less, zero, a swap with the next). */
  const change = (at, how) => {
    const forged = bytes.slice();
    const v = new DataView(forged.buffer);
    const n = v.getUint32(at, true);
    if (how === "swap") {
      v.setUint32(at, v.getUint32(at + 4, true), true);
      v.setUint32(at + 4, n, true);
    } else v.setUint32(at, how === "+1" ? n + 1 : how === "-1" ? n - 1 : 0, true);
    variants.push([`${how} at ${at - textLen} of ${payloadEnd - textLen}`, forged]);
  };
  const hows = ["+1", "-1", "0", "swap"];
  // Every number of every tool's def range (its start and end in the text, then its size: where
  // the payload holds a def as the byte 0 and the range), each changed every way: the ranges say
  // where the defs the assembly and describe give back are.
  const defRanges = [...toolbox.tools, ...Object.values(toolbox.servers).flat()].map((def) => {
    const start = new TextEncoder().encode(text.slice(0, text.indexOf(JSON.stringify(def)))).length;
    return [start, start + new TextEncoder().encode(JSON.stringify(def)).length];
  });
  for (const [start, end] of defRanges) {
    const field = new Uint8Array(9);
    new DataView(field.buffer).setUint32(1, start, true);
    new DataView(field.buffer).setUint32(5, end, true);
    const at = bytes.subarray(0, payloadEnd).findIndex((_, i) => i >= textLen && field.every((b, j) => bytes[i + j] === b));
    assert.ok(at > 0, `the def range ${start}..${end} is in the payload`);
    for (const place of [at + 1, at + 5, at + 9]) for (const how of hows) change(place, how);
  }
  // 1,200 more places of the whole payload (the options, the catalog's lists, names and places, the
  // index's tables, the embeddings' flag), each with a way of changing, drawn from a seed.
  const draw = seeded(40);
  for (let i = 0; i < 1200; i++) change(textLen + draw(payloadEnd - 8 - textLen), hows[draw(4)]);
  // The toolbox's text with one name copied over another: of another length (every def after it
  // moves) or of the same length (a repeated name, or a new one, the defs in their places).
  for (const [from, to] of [["list_issues", "create_issue"], ["list_teams", "create_issue"], ["read_file", "tool_search"], ["mcp__gh__merge", "read_file"], ["tool_search", "list_issues"], ["list_teams", "list_tools"]]) {
    const changed = new TextEncoder().encode(text.replace(`"${from}"`, `"${to}"`));
    const forged = new Uint8Array([...changed, ...bytes.subarray(textLen)]);
    new DataView(forged.buffer).setBigUint64(forged.length - 24, BigInt(changed.length), true);
    variants.push([`the text's ${from} made ${to}`, forged]);
  }
  let loaded = 0;
  const wrong = [];
  for (const [label, forged] of variants) {
    for (const given of [undefined, toolbox]) {
      let shelf;
      try {
        shelf = Shelf.fromSnapshot(withChecksum(forged), given);
      } catch (e) {
        if (!(e instanceof ToolshelfError) || e.code !== "invalid_snapshot") wrong.push(`${label}: a load error ${e?.name} ${e?.code}: ${e?.message}`);
        continue;
      }
      loaded++;
      const what = wrongWith(shelf, given, heldOptions(forged));
      if (what) wrong.push(`${label}${given ? ", toolbox given" : ""}: ${what}`);
    }
  }
  console.log(`${variants.length * 2} forged loads, ${loaded} loaded, ${wrong.length} wrong`);
  assert.ok(variants.length >= 1300 && loaded > 0, `${variants.length} variants, ${loaded} loaded`);
  assert.deepEqual(wrong.slice(0, 12), [], `${wrong.length} of ${variants.length * 2} forged loads wrong`);
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
