// The JS layer's rules of a toolbox's servers, one home each, for toolshelf/mcp, toolshelf/ai and
// the CLI: the core's pseudo-server `builtin` (the direct tools named in `defer`) and the renaming
// of a real server of that name, the refusal of a tool that already carries a qualified name
// (`mcp__<server>__<tool>` names are toolshelf's), and an own property set even for "__proto__".
// It imports nothing.

/** The core's pseudo-server of the direct tools named in `defer`: never a real server's name. */
export const DEFERRED_DIRECT = "builtin";

/** Sets `object[key]` as an own property even when the key is "__proto__". */
export const put = (object, key, value) => Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });

/** Why a tool's name cannot be a deferred tool's as given, or undefined: it is already qualified. */
export function qualifiedNameRefusal(name) {
  return /^mcp__.+__./s.test(name) ? `tool "${name}" has a qualified name (mcp__<server>__<tool> names are toolshelf's)` : undefined;
}

/** A free server name for a real server named like the core's pseudo-server (`builtin_2`, …). */
export function freeName(base, taken) {
  for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`;
}

/**
 * The name the core is given for a server: its own, or for a real server named `builtin` a free
 * `builtin_N` (added to `taken`), with the warning that says so (`warn`).
 */
export function serverNameSeen(server, taken, warn) {
  if (server !== DEFERRED_DIRECT) return server;
  const seenAs = freeName(server, taken);
  taken.add(seenAs);
  warn(`server "${server}" is named "${seenAs}": "${DEFERRED_DIRECT}" is the server of the direct tools named in defer`);
  return seenAs;
}
