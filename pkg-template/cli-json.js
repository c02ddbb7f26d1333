// JSON read as a person gives it to the CLI: from a file, stdin or the command line, with a bad
// text's place named (`file:line:column`, or the position in text given inline).
import { readFileSync, statSync } from "node:fs";
import { InputError, UsageError } from "./cli-errors.js";

/**
 * Where `text` stops being JSON and why: `{ position, message }` (position in UTF-16 code units,
 * from 0, as JSON.parse counts), or undefined when it is JSON. JSON.parse's own messages name a
 * position for some errors only, so the CLI finds it itself (iteratively: any depth).
 */
export function jsonError(text) {
  let i = 0;
  const n = text.length;
  const found = () => {
    if (i >= n) return "the end of the text";
    const c = String.fromCodePoint(text.codePointAt(i));
    return /[\p{L}\p{N}\p{P}\p{S}]/u.test(c) ? (c === "'" ? `"'"` : `'${c}'`) : `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  };
  const fail = (expected) => ({ position: i, message: `expected ${expected}, found ${found()}` });
  const space = () => {
    while (i < n && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const string = () => {
    i++; // the opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return undefined;
      }
      if (c < 0x20) return { position: i, message: "a control character in a string (escape it, e.g. \\n)" };
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return { position: i, message: "a bad \\u escape (4 hex digits follow \\u)" };
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          i += 2;
        } else {
          return { position: i, message: e === undefined ? "a string not closed (a \" is missing)" : `a bad escape '\\${e}' in a string (JSON has \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)` };
        }
        continue;
      }
      i++;
    }
    return { position: n, message: "a string not closed (a \" is missing)" };
  };
  const digits = () => {
    const from = i;
    while (i < n && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    return i > from;
  };
  const scalar = () => {
    const c = text[i];
    if (c === '"') return string();
    const word = { t: "true", f: "false", n: "null" }[c];
    if (word) {
      for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) return fail(`"${word}"`);
      return undefined;
    }
    if (c !== "-" && !(c >= "0" && c <= "9")) return fail("a value");
    if (c === "-") i++;
    if (text[i] === "0") i++;
    else if (!digits()) return fail("a digit");
    if (text[i] === ".") {
      i++;
      if (!digits()) return fail("a digit after the decimal point");
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      if (!digits()) return fail("a digit in the exponent");
    }
    return undefined;
  };
  const stack = [];
  space();
  // Each turn reads one value, then what follows it until the next value is due.
  for (;;) {
    space();
    const c = text[i];
    let error;
    if (c === "[" || c === "{") {
      stack.push(c);
      i++;
      space();
      if (text[i] === (c === "[" ? "]" : "}")) {
        stack.pop();
        i++;
      } else if (c === "{") {
        if (text[i] !== '"') return fail('a property name in double quotes or "}"');
        if ((error = string())) return error;
        space();
        if (text[i] !== ":") return fail('":" after a property name');
        i++;
        continue;
      } else {
        continue;
      }
    } else if ((error = scalar())) {
      return error;
    }
    // After a value: close containers, or a comma and the next value.
    for (;;) {
      space();
      if (stack.length === 0) return i < n ? fail("the end of the text") : undefined;
      const top = stack[stack.length - 1];
      const close = top === "[" ? "]" : "}";
      if (text[i] === close) {
        stack.pop();
        i++;
        continue;
      }
      if (text[i] !== ",") return fail(`"," or "${close}"`);
      i++;
      space();
      if (top === "{") {
        if (text[i] !== '"') return fail("a property name in double quotes");
        if ((error = string())) return error;
        space();
        if (text[i] !== ":") return fail('":" after a property name');
        i++;
      }
      break;
    }
  }
}

/** 1-based line and column of a position in `text`. */
export function lineColumn(text, position) {
  let line = 1;
  let start = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < position; at = text.indexOf("\n", at + 1)) {
    line++;
    start = at + 1;
  }
  return { line, column: position - start + 1 };
}

/**
 * JSON.parse of `text`; on failure an error of `Kind` naming where: `<file>:<line>:<column>` for a
 * file, `at position N` for text given on the command line (`where` says which).
 */
export function parseJson(text, { label, file, Kind }) {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // a BOM some editors write
  try {
    return JSON.parse(body);
  } catch (e) {
    if (body.trim() === "") throw new Kind(`${label}: empty, not JSON`);
    const found = jsonError(body);
    if (!found) throw new Kind(`${label}: not valid JSON (${e.message})`);
    const offset = body === text ? 0 : 1;
    if (file) {
      const { line, column } = lineColumn(body, found.position);
      throw new Kind(`${label}:${line}:${column}: not valid JSON: ${found.message}`);
    }
    throw new Kind(`${label}: not valid JSON at position ${found.position + offset}: ${found.message}`);
  }
}

/** A file's text; a missing file, a directory or an unreadable one as such (exit 3 or `Kind`). */
export function readText(path, label, Kind = InputError) {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    if (e.code === "ENOENT") throw new Kind(`${label}: no such file: ${path}`);
    if (e.code === "EISDIR") throw new Kind(`${label}: ${path} is a directory, not a JSON file`);
    if (e.code === "EACCES") throw new Kind(`${label}: ${path}: permission denied`);
    throw new Kind(`${label}: cannot read ${path}: ${e.message}`);
  }
}

export async function readStdin(label) {
  if (process.stdin.isTTY) throw new UsageError(`no ${label} given: name a file, pipe its JSON in (cat toolbox.json | toolshelf ...), or use --mcp-config <mcp.json>`);
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") throw new InputError(`${label}: stdin is empty (pipe a toolbox's JSON in, or give a file)`);
  return text;
}

/** `--options`: JSON text (anything JSON.parse reads, or text starting `{`/`[`), else a JSON file. */
export function readOptions(value) {
  let options;
  const trimmed = value.trim();
  let parsed = true;
  try {
    options = JSON.parse(trimmed);
  } catch {
    parsed = false;
  }
  if (!parsed) {
    if (/^[{["]/.test(trimmed)) {
      options = parseJson(trimmed, { label: "--options", Kind: UsageError });
    } else {
      let isFile = false;
      try {
        isFile = statSync(value).isFile();
      } catch {
        // reported below
      }
      if (!isFile) {
        throw new UsageError(`--options: ${JSON.stringify(value)} is neither JSON text nor a file${trimmed === "" ? "" : " (no such file)"}; give JSON such as '{"contextLength":200000}' or a JSON file's path`);
      }
      options = parseJson(readText(value, "--options", UsageError), { label: `--options ${value}`, file: true, Kind: UsageError });
    }
  }
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new UsageError(`--options: expected a JSON object such as {"contextLength":200000}, got ${Array.isArray(options) ? "an array" : JSON.stringify(options)}`);
  }
  return options;
}
