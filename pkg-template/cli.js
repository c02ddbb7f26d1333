#!/usr/bin/env node
// The package's command line, for build steps: `toolshelf snapshot toolbox.json -o shelf.bin`
// prepares the toolbox as `new Shelf(toolbox, options)` does, builds its search index, and writes
// the snapshot that `Shelf.fromSnapshot(bytes)` loads (SPEC §13).
import { readFileSync, writeFileSync } from "node:fs";
import { Shelf, ToolshelfError } from "./node.js";

const USAGE = `usage: toolshelf snapshot <toolbox.json> -o <shelf.bin> [--options <json | file.json>] [--without-toolbox]
  Prepares the toolbox (a JSON file: a list of tools or {tools, servers}) with the options new Shelf
  takes, search index included, and writes a snapshot for Shelf.fromSnapshot(bytes[, toolbox, options]).
  --options          the options, as JSON text or a JSON file (default: none)
  --without-toolbox  leave the toolbox's text out (fromSnapshot then needs the toolbox)
  -o, --output       where to write the snapshot`;

/** `--options` as JSON text, else as the JSON file it names. */
function readOptions(value) {
  try {
    return JSON.parse(value);
  } catch {
    return JSON.parse(readFileSync(value, "utf8"));
  }
}

/** The command line's arguments read: the command, the toolbox's path and the flags. */
function parse(args) {
  const help = (arg) => arg === "-h" || arg === "--help";
  const parsed = { command: help(args[0]) ? "help" : args[0], inputs: [], output: undefined, options: undefined, holdToolbox: true };
  for (let i = 1; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-o" || arg === "--output") parsed.output = args[++i];
    else if (arg === "--options") parsed.options = readOptions(args[++i]);
    else if (arg === "--without-toolbox") parsed.holdToolbox = false;
    else if (help(arg)) parsed.command = "help";
    else parsed.inputs.push(arg);
  }
  return parsed;
}

function main(args) {
  const { command, inputs, output, options, holdToolbox } = parse(args);
  if (command !== "snapshot" || inputs.length !== 1 || !output) {
    console.error(USAGE);
    return command === "help" ? 0 : 2;
  }
  const toolbox = JSON.parse(readFileSync(inputs[0], "utf8"));
  const shelf = new Shelf(toolbox, options);
  const bytes = shelf.snapshot({ toolbox: holdToolbox });
  const { deferredCount, tier } = shelf.assemble();
  shelf.free();
  writeFileSync(output, bytes);
  console.log(`${output}: ${bytes.length} bytes (${deferredCount} deferred tools, tier ${tier}${holdToolbox ? ", toolbox held" : ""})`);
  return 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (e) {
  console.error(e instanceof ToolshelfError ? `toolshelf: ${e.code}: ${e.message}` : `toolshelf: ${e.message}`);
  process.exitCode = 1;
}
