// Approval of a tool call as generateText judges it, as pure functions of the configuration and
// the call: generateText's `toolApproval` (a function, or statuses by tool name, each a status or a
// function of the input), else the tool's own `needsApproval` (a boolean or a function). toolshelf/ai
// judges a bridge call as its real tool, and any other tool as the SDK would, with these two.
import { own } from "./ai-shared.js";

/** The status of a call nothing asks approval for. */
export const NOT_APPLICABLE = Object.freeze({ type: "not-applicable" });

/** An approval status as the SDK normalizes it. */
export const normalizeStatus = (status) => (status === undefined ? NOT_APPLICABLE : typeof status === "string" ? { type: status } : status);

/**
 * The status `toolApproval` gives a call: a function's verdict, or the configured entry of the
 * first of `names` it has (a status, or a function of the input); undefined when it names none.
 */
export async function configuredStatus(toolApproval, { toolCall, tools, names, toolContext, toolsContext, runtimeContext, messages }) {
  if (typeof toolApproval === "function") return normalizeStatus(await toolApproval({ toolCall, tools, toolsContext, runtimeContext, messages }));
  const configured = names.map((name) => own(toolApproval, name)).find((entry) => entry != null);
  if (configured == null) return undefined;
  return normalizeStatus(typeof configured === "function"
    ? await configured(toolCall.input, { toolCallId: toolCall.toolCallId, messages, toolContext, runtimeContext })
    : configured);
}

/** The status a tool's own `needsApproval` gives its input. */
export async function toolStatus(tool, input, { toolCallId, messages, context }) {
  const needs = tool?.needsApproval;
  if (needs == null) return NOT_APPLICABLE;
  const yes = typeof needs === "function" ? await needs(input, { toolCallId, messages, context }) : needs;
  return yes ? { type: "user-approval" } : NOT_APPLICABLE;
}

/** A call's status: `toolApproval`'s where it says one, else the tool's `needsApproval`. */
export async function approvalStatus(toolApproval, tool, call) {
  return (await configuredStatus(toolApproval, call)) ?? toolStatus(tool, call.toolCall.input, { toolCallId: call.toolCall.toolCallId, messages: call.messages, context: call.toolContext });
}
