// The command line's arguments read: flags by long name, positional arguments, a did-you-mean for
// a misspelled flag, and a flag's value as a positive integer.
import { UsageError } from "./cli-errors.js";

/**
 * A command's arguments: `flags` by long name (a value, or true) and the positional arguments.
 * `--flag value`, `--flag=value`, `-o value`; `-` is positional (stdin); `--` ends the flags.
 * `FLAGS`: each command's flags (`true`: takes a value); `SHORT`: short flags by their long name.
 */
export function parseArgs(command, args, { FLAGS, SHORT }) {
  const known = FLAGS[command];
  const flags = {};
  const positionals = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg === "-" || !arg.startsWith("-") || /^-\d/.test(arg)) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const written = eq === -1 ? arg : arg.slice(0, eq);
    const name = SHORT[written] ?? written;
    if (!(name in known)) {
      const elsewhere = Object.keys(FLAGS).filter((c) => c !== command && name in FLAGS[c]);
      const near = Object.keys(known).find((k) => distance(k, name) <= 2);
      const hint = elsewhere.length ? ` (a flag of ${elsewhere.join(" and ")})` : near ? ` (did you mean ${near}?)` : "";
      throw new UsageError(`unknown flag ${written} for ${command}${hint}; toolshelf ${command} --help lists its flags`);
    }
    if (name === "--help") return { help: true };
    if (!known[name]) {
      if (eq !== -1) throw new UsageError(`${written} takes no value`);
      flags[name] = true;
    } else if (name in flags) {
      throw new UsageError(`${written} given twice`);
    } else if (eq !== -1) {
      flags[name] = arg.slice(eq + 1);
    } else {
      if (i + 1 >= args.length) throw new UsageError(`${written} needs a value`);
      flags[name] = args[++i];
    }
  }
  return { flags, positionals };
}

/** Levenshtein distance, for "did you mean" (flags are short). */
export function distance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** A flag's value as a positive integer. */
export function positiveInteger(flag, value) {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag}: expected a positive integer, got ${JSON.stringify(value)}`);
  return n;
}
