// toolshelf/ai's types as a user of ai 6 or ai 7 compiles them (adapter-types.test.mjs: tsc 5.9 and
// 7, strict, the package's .d.ts checked too): the adapters' tools, prepareStep and hooks given to
// the SDK's own generateText and streamText, ToolSets of zod and JSON schemas.
import { generateText, jsonSchema, stepCountIs, streamText, tool, type ToolSet } from "ai";
import { z } from "zod";
import { createAnthropicNativeToolshelf, createToolshelf, toolshelfSearch, type RealCall, type Toolshelf } from "toolshelf/ai";
import { Shelf } from "toolshelf";

declare const model: Parameters<typeof generateText>[0]["model"];

const github: ToolSet = {
  create_issue: tool({
    description: "Create a new issue in a GitHub repository.",
    inputSchema: z.object({ owner: z.string(), repo: z.string(), title: z.string() }),
    execute: async ({ title }) => `created ${title}`,
  }),
  list_issues: tool({ description: "List issues.", inputSchema: jsonSchema<{ owner: string }>({ type: "object", properties: { owner: { type: "string" } } }), execute: async () => [] }),
};
const readFile = tool({ description: "Read a file.", inputSchema: z.object({ path: z.string() }), execute: async ({ path }) => path });

const seen: string[] = [];
const shelf: Toolshelf = createToolshelf({
  tools: { read_file: readFile },
  servers: () => ({ github }),
  options: { contextLength: 200_000, qualify: "auto" },
  onCall: (call: RealCall) => { seen.push(`${call.server ?? "direct"}/${call.tool}`); },
});
const warnings: string[] = shelf.warnings;
const deferred: number = shelf.assembly.deferredCount;
// @ts-expect-error: a RealCall has no `input` (its arguments are `arguments`)
createToolshelf({ onCall: (call) => call.input });

const generated = await generateText({ model, prompt: "File the crash.", tools: shelf.tools, prepareStep: shelf.prepareStep, stopWhen: stepCountIs(20) });
const text: string = generated.text;
const streamed = streamText({ model, prompt: "File the crash.", tools: shelf.tools, prepareStep: shelf.prepareStep, stopWhen: stepCountIs(20) });
const streamedText: Promise<string> = Promise.resolve(streamed.text);

const native = createAnthropicNativeToolshelf({ tools: { read_file: readFile }, servers: { github } });
await generateText({ model, prompt: "File the crash.", tools: native.tools, prepareStep: native.prepareStep, experimental_repairToolCall: native.repairToolCall, stopWhen: stepCountIs(20) });

const search = toolshelfSearch({ tools: github, limit: 3 });
const names: string[] = search({ query: "create issue", tools: [{ name: "create_issue", description: "Create an issue." }] });
const core: Shelf = new Shelf({ servers: { github: [{ name: "create_issue", inputSchema: { type: "object" } }] } });

export { core, deferred, names, streamedText, text, warnings };
