// callMcpTool passes the MCP SDK's RequestOptions to callTool: progress notifications
// of the reference server's trigger-long-running-operation (over stdio, a real child process) reach
// `onprogress`, `resetTimeoutOnProgress` keeps a slow call alive, an AbortSignal cancels it (an
// isError result that says so), and a signal aborted before the call sends nothing.
// MCP does not order a progress notification before the result of its request (the SDK drops one
// that comes after), so no check counts on the last notification arriving; each time bound is a
// multiple of the server's own step, never an absolute time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Shelf } from "toolshelf";
import { callMcpTool, mcpServers } from "toolshelf/mcp";
import { everythingServer } from "./mcp-servers.mjs";

const LONG = "trigger-long-running-operation";

test("callMcpTool with server-everything: onprogress, resetTimeoutOnProgress, AbortSignal", async (t) => {
  const everything = everythingServer();
  t.after(() => everything.close());
  const { servers, clients } = await mcpServers({ everything: await everything.client() });
  const shelf = new Shelf({ servers }, { format: "mcp" });
  t.after(() => shelf.free());
  const call = (args) => {
    const u = shelf.unwrap({ name: LONG, arguments: args });
    assert.equal(u.kind, "call", JSON.stringify(u));
    return u;
  };

  // Progress: the steps' notifications that arrive before the result, in order, with the total.
  // The first is sent two steps before the result; only the last may come after it.
  const progress = [];
  const done = await callMcpTool(clients, call({ duration: 0.3, steps: 3 }), { onprogress: (p) => progress.push([p.progress, p.total]) });
  assert.equal(done.isError, false, done.content);
  assert.match(done.content, /Long running operation completed/);
  assert.ok(progress.length >= 1, "a notification sent two steps before the result reached onprogress");
  assert.deepEqual(progress, [[1, 3], [2, 3], [3, 3]].slice(0, progress.length));

  // A throwing onprogress does not fail the call.
  const unbroken = await callMcpTool(clients, call({ duration: 0.2, steps: 2 }), { onprogress: () => { throw new Error("observer broke"); } });
  assert.equal(unbroken.isError, false, unbroken.content);

  // A timeout of four steps on a call of eight: it times out (a loaded machine only makes the call
  // longer), unless each step's progress resets it (a step four times shorter than the timeout).
  const STEP = 0.2;
  const slow = call({ duration: 8 * STEP, steps: 8 });
  const timedOut = await callMcpTool(clients, slow, { timeout: 4 * STEP * 1000, onprogress: () => {} });
  assert.equal(timedOut.isError, true);
  assert.match(timedOut.content, /timed out/i);
  const kept = await callMcpTool(clients, slow, { timeout: 4 * STEP * 1000, resetTimeoutOnProgress: true, onprogress: () => {} });
  assert.equal(kept.isError, false, kept.content);

  // Abort after the first progress notification: an isError result before the server's run could
  // have ended (its steps alone take `duration`).
  const controller = new AbortController();
  const started = Date.now();
  const duration = 5;
  const cancelled = await callMcpTool(clients, call({ duration, steps: 50 }), {
    signal: controller.signal,
    onprogress: () => controller.abort(new Error("the user stopped it")),
  });
  assert.equal(cancelled.isError, true);
  assert.match(cancelled.content, /trigger-long-running-operation was cancelled on server "everything": the user stopped it/);
  assert.ok(Date.now() - started < duration * 1000, `returned after ${Date.now() - started} ms, not before the run's end`);

  // Aborted before: nothing is sent to the server.
  const sent = everything.calls.length;
  const never = await callMcpTool(clients, call({ duration: 0.1, steps: 1 }), { signal: AbortSignal.abort(new Error("too late")) });
  assert.equal(never.isError, true);
  assert.match(never.content, /was cancelled before it ran on server "everything": too late/);
  assert.equal(everything.calls.length, sent, "no tools/call went out");
});
