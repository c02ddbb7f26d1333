// The command line's exit codes, its two kinds of error (a mistake on the command line: exit 2,
// printed with the command's usage; input that could not be read: exit 3), and its stderr lines.

/** Exit codes (docs/cli.md). */
export const EXIT = Object.freeze({
  ok: 0,
  toolshelf: 1, // the core refused the toolbox (ToolshelfError, its code printed)
  usage: 2, // the command line: unknown command or flag, a bad flag value, --options not a JSON object
  input: 3, // input not read: a file missing, unreadable or not JSON, stdin empty, the MCP SDK missing,
  // every MCP server failed; or the snapshot not written
  partial: 4, // done, but some MCP servers of --mcp-config were left out (each reported on stderr)
  below: 5, // eval: hit@5 below --min-hit5 (before partial: the gate is what a CI step asks)
});

/** A mistake on the command line (exit 2); printed with the command's usage line. */
export class UsageError extends Error {}

/** Input that could not be read: a file, stdin, an MCP config or its servers (exit 3). */
export class InputError extends Error {}

/** A warning on stderr (stdout is the command's output). */
export const warn = (message) => console.error(`toolshelf: warning: ${message}`);
/** A note on stderr. */
export const note = (message) => console.error(`toolshelf: ${message}`);
