// Example tool calls for the unwrap playground: an intent (run a deferred tool through the call
// bridge, search, describe, call a deferred tool by its own name, send a call the tool's schema
// rejects, name a tool that does not exist) written in one provider's shape (OpenAI Chat, OpenAI
// Responses, Anthropic tool_use, plain {name, arguments}), with arguments made from the tool's schema.

export const SHAPES = [
  { id: "chat", label: "OpenAI Chat · tool_calls[i]" },
  { id: "responses", label: "OpenAI Responses · function_call" },
  { id: "anthropic", label: "Anthropic · tool_use" },
  { id: "plain", label: "plain · {name, arguments}" },
];

export const INTENTS = [
  { id: "call", label: "call a deferred tool via the call bridge" },
  { id: "search", label: "search the shelf" },
  { id: "describe", label: "describe a deferred tool" },
  { id: "direct", label: "call a deferred tool by its own name" },
  { id: "invalid", label: "arguments that fail the schema" },
  { id: "unknown", label: "a tool that does not exist" },
];

/**
 * `{name, args}` the model would send for `intent`. `context`: `target` (a deferred tool's name and
 * schema), `bridge` (`{search, describe, call}` names), `batch`, `query`.
 */
export function intendedCall(intent, { target, bridge, batch, query }) {
  const args = sampleArguments(target.schema);
  switch (intent) {
    case "search":
      return { name: bridge.search, args: batch ? { queries: [query] } : { query } };
    case "describe":
      return { name: bridge.describe, args: batch ? { names: [target.name] } : { name: target.name } };
    case "direct":
      return { name: target.name, args };
    case "invalid":
      return { name: bridge.call, args: { name: target.name, arguments: breakArguments(args, target.schema) } };
    case "unknown":
      return { name: bridge.call, args: { name: `${target.name}_v2`, arguments: {} } };
    default:
      return { name: bridge.call, args: { name: target.name, arguments: args } };
  }
}

/** The call written in one provider's shape. */
export function inShape(shape, { name, args }) {
  switch (shape) {
    case "responses":
      return { type: "function_call", id: "fc_01", call_id: "call_01", name, arguments: JSON.stringify(args) };
    case "anthropic":
      return { type: "tool_use", id: "toolu_01", name, input: args };
    case "plain":
      return { name, arguments: args };
    default:
      return { id: "call_01", type: "function", function: { name, arguments: JSON.stringify(args) } };
  }
}

/** Valid arguments less their first required one; `[]` (not an object) when nothing is required. */
function breakArguments(args, schema) {
  const required = resolved(schema, schema).required ?? [];
  if (!required.length) return [];
  const { [required[0]]: _dropped, ...rest } = args;
  return rest;
}

/** Arguments that satisfy `schema`: every required property, each with a plausible value. */
export function sampleArguments(schema) {
  const value = sampleValue(schema ?? {}, schema ?? {}, 0);
  return value && typeof value === "object" && !Array.isArray(value) ? value : {};
}

const FORMAT_SAMPLES = {
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  email: "ada@example.com",
  uri: "https://example.com",
  url: "https://example.com",
  "date-time": "2025-01-01T12:00:00Z",
  date: "2025-01-01",
  uuid: "123e4567-e89b-12d3-a456-426614174000",
};

function sampleValue(schema, root, depth) {
  if (!schema || typeof schema !== "object" || depth > 12) return "example";
  const s = resolved(schema, root);
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type ?? (Object.keys(s.properties ?? {}).length ? "object" : undefined);
  switch (type) {
    case "object":
      return Object.fromEntries((s.required ?? []).map((key) => [key, sampleValue(s.properties?.[key] ?? {}, root, depth + 1)]));
    case "array":
      return Array.from({ length: Math.min(s.minItems ?? 0, 3) }, () => sampleValue(s.items ?? {}, root, depth + 1));
    case "integer":
    case "number":
      return Math.min(Math.max(1, Math.ceil(s.minimum ?? 1)), s.maximum ?? Infinity);
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return sampleString(s);
  }
}

function sampleString(schema) {
  let text = FORMAT_SAMPLES[schema.format] ?? "example";
  if (schema.maxLength !== undefined) text = text.slice(0, Math.max(schema.maxLength, 0));
  return text.padEnd(schema.minLength ?? 0, "x");
}

/** The schema with local `$ref`s followed and `allOf` / first `oneOf` / first `anyOf` branch merged in. */
function resolved(schema, root, depth = 0) {
  if (!schema || typeof schema !== "object" || depth > 12) return {};
  if (typeof schema.$ref === "string") return resolved(pointer(root, schema.$ref), root, depth + 1);
  const { allOf, oneOf, anyOf, ...rest } = schema;
  const parts = [...(allOf ?? []), ...(oneOf ?? anyOf ?? []).slice(0, 1)];
  return parts.reduce((merged, part) => merge(merged, resolved(part, root, depth + 1)), rest);
}

function merge(a, b) {
  return {
    ...a,
    ...b,
    properties: { ...(a.properties ?? {}), ...(b.properties ?? {}) },
    required: [...new Set([...(a.required ?? []), ...(b.required ?? [])])],
  };
}

/** The node a local JSON pointer (`#/definitions/x`) names, or `{}`. */
function pointer(root, ref) {
  if (!ref.startsWith("#")) return {};
  return ref
    .slice(1)
    .split("/")
    .filter(Boolean)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((node, key) => (node && typeof node === "object" ? node[key] : undefined), root) ?? {};
}
