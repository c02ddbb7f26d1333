// The package's bin as the CLI tests run it in the project the packed package is installed in
// (target/consumer, where these files are copied beside it): through npx, straight through the
// link npm made, and a scratch directory for the files it reads.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The project the package is installed in. */
export const here = dirname(fileURLToPath(import.meta.url));

/** A finished run as `{ status, stdout, stderr }`; a run that could not start throws. */
function finished(r) {
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Runners of the bin, each run stopped after `timeout` ms, and `file(name, value)`: a file of
 * `value` (text, or written as JSON) in a new scratch directory named from `prefix`.
 */
export function cliRunner(prefix, { timeout = 60_000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    /** `npx toolshelf …args`, as a user types it. */
    toolshelf: (args, { input, cwd = here } = {}) =>
      finished(spawnSync("npx", ["--no-install", "toolshelf", ...args], { cwd, input: input ?? "", encoding: "utf8", timeout })),
    /** The bin as npm linked it (what npx runs, without npx's lookup): for the many short runs. */
    bin: (args) =>
      finished(spawnSync(join(here, "node_modules", ".bin", "toolshelf"), args, { cwd: here, input: "", encoding: "utf8", timeout })),
    file: (name, value) => {
      const path = join(dir, name);
      writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
      return path;
    },
  };
}
