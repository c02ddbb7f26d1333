// Builds the toolbox the page assembles: the real catalogs (gzip'd JSON served under /catalogs/,
// unpacked with DecompressionStream), converted to the chosen tool format, plus a few direct "core"
// tools; or a toolbox pasted as JSON. Also reads any format's name/description/schema, groups a toolbox
// by server, and finds names offered twice (the case `qualify` cures).

/** The catalogs offered, smallest first. `tools` is shown before a catalog is loaded. */
export const CATALOGS = [
  { id: "linear-mcp-official", label: "Linear", kind: "MCP", tools: 38 },
  { id: "github-mcp-server", label: "GitHub", kind: "MCP", tools: 117 },
  { id: "vendor-mcp-servers", label: "8 vendor servers", kind: "MCP", tools: 201 },
  { id: "livemcptool-70servers", label: "70 MCP servers", kind: "MCP", tools: 527 },
  { id: "stripe-api-2022-04", label: "Stripe", kind: "REST API", tools: 417 },
  { id: "unreal-mcp-actions-exploded", label: "Unreal Engine", kind: "MCP", tools: 1079 },
  { id: "twilio-api", label: "Twilio", kind: "REST API", tools: 1447 },
  { id: "cloudflare-api-2024-08", label: "Cloudflare", kind: "REST API", tools: 1533 },
];

/** Tools an agent always keeps (its own core tools): they pass through untouched. */
const CORE_TOOLS = [
  chatTool("read_file", "Read a file from the workspace.", { path: { type: "string" } }, ["path"]),
  chatTool("run_shell", "Run a shell command and return its output.", { command: { type: "string" } }, ["command"]),
];

function chatTool(name, description, properties, required) {
  return { type: "function", function: { name, description, parameters: { type: "object", properties, required } } };
}

const loaded = new Map();

/** `[{server, tool}]` entries of one catalog, fetched and unpacked once. */
export function loadCatalog(id) {
  if (!loaded.has(id)) {
    const entries = fetch(`/catalogs/${id}.json.gz`).then((response) => {
      if (!response.ok) throw new Error(`catalog ${id}: HTTP ${response.status}`);
      return new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).json();
    });
    entries.catch(() => loaded.delete(id));
    loaded.set(id, entries);
  }
  return loaded.get(id);
}

/** Rewrites an OpenAI Chat tool def (the catalogs' format) into another supported format. */
export function convertTool(chat, format) {
  const { name, description, parameters = { type: "object", properties: {} } } = chat.function;
  const text = description === undefined ? {} : { description };
  switch (format) {
    case "responses":
      return { type: "function", name, ...text, parameters };
    case "anthropic":
      return { name, ...text, input_schema: parameters };
    case "mcp":
      return { name, ...text, inputSchema: parameters };
    case "gemini":
      return { name, ...text, parameters };
    default:
      return chat;
  }
}

const converted = new Map();

/** `{tools?, servers}` from the chosen catalogs (servers in first-seen order) in `format`. */
export async function catalogToolbox(ids, { format = "openai", core = true } = {}) {
  const lists = await Promise.all(ids.map(loadCatalog));
  const servers = {};
  lists.flat().forEach((entry) => (servers[entry.server] ??= []).push(convertedTool(entry.tool, format)));
  const tools = core ? CORE_TOOLS.map((tool) => convertTool(tool, format)) : [];
  return tools.length ? { tools, servers } : { servers };
}

/** The same converted object every time, so sizes are measured once per tool and format. */
function convertedTool(chat, format) {
  if (format === "openai") return chat;
  if (!converted.has(format)) converted.set(format, new WeakMap());
  const byTool = converted.get(format);
  if (!byTool.has(chat)) byTool.set(chat, convertTool(chat, format));
  return byTool.get(chat);
}

/** A tool's name, description and schema, whatever its format. */
export function toolName(tool) {
  return tool?.function?.name ?? tool?.name ?? "";
}
export function toolDescription(tool) {
  return tool?.function?.description ?? tool?.description ?? "";
}
export function toolSchema(tool) {
  return tool?.function?.parameters ?? tool?.input_schema ?? tool?.inputSchema ?? tool?.parameters ?? {};
}

/** `{direct, servers}` of any toolbox shape; a flat list groups `mcp__<server>__<tool>` names (SPEC §2.2). */
export function groupByServer(toolbox) {
  if (!Array.isArray(toolbox)) {
    return { direct: toolbox?.tools ?? [], servers: { ...(toolbox?.servers ?? {}) } };
  }
  const direct = [];
  const servers = {};
  for (const tool of toolbox) {
    const match = /^mcp__(.+?)__.+/.exec(toolName(tool));
    if (match) (servers[match[1]] ??= []).push(tool);
    else direct.push(tool);
  }
  return { direct, servers };
}

/** Names offered more than once in the toolbox, with where: `[{name, places: ["github", "linear"]}]`. */
export function nameClashes(toolbox) {
  const { direct, servers } = groupByServer(toolbox);
  const places = new Map();
  const note = (name, place) => places.set(name, [...(places.get(name) ?? []), place]);
  direct.forEach((tool) => note(toolName(tool), "direct tools"));
  Object.entries(servers).forEach(([server, tools]) => tools.forEach((tool) => note(toolName(tool), server)));
  return [...places].filter(([, where]) => where.length > 1).map(([name, where]) => ({ name, places: where }));
}

/** A small pasted-toolbox example: a flat Anthropic list using the `mcp__<server>__<tool>` convention. */
export const PASTE_EXAMPLE = JSON.stringify(
  [
    { name: "bash", description: "Run a shell command.", input_schema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } },
    { name: "mcp__weather__get_forecast", description: "Get the weather forecast for a city. Returns daily highs and lows.", input_schema: { type: "object", properties: { city: { type: "string" }, days: { type: "integer", minimum: 1, maximum: 10 } }, required: ["city"] } },
    { name: "mcp__weather__get_alerts", description: "List active weather alerts for a US state.", input_schema: { type: "object", properties: { state: { type: "string", minLength: 2, maxLength: 2 } }, required: ["state"] } },
    { name: "mcp__notes__create_note", description: "Create a note with a title and body.", input_schema: { type: "object", properties: { title: { type: "string" }, body: { type: "string" } }, required: ["title"] } },
  ],
  null,
  2,
);
