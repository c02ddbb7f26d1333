// callMcpTool passes the MCP SDK's RequestOptions to callTool: progress notifications
// of the reference server's trigger-long-running-operation (over stdio, a real child process) reach
// `onprogress`, `resetTimeoutOnProgress` keeps a slow call alive, an AbortSignal cancels it (an
// isError result that says so), and a signal aborted before the call sends nothing.
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

  // Progress: one notification per step, in order, with the total.
  const progress = [];
  const done = await callMcpTool(clients, call({ duration: 0.3, steps: 3 }), { onprogress: (p) => progress.push([p.progress, p.total]) });
  assert.equal(done.isError, false, done.content);
  assert.match(done.content, /Long running operation completed/);
  assert.deepEqual(progress, [[1, 3], [2, 3], [3, 3]]);

  // A throwing onprogress does not fail the call.
  const unbroken = await callMcpTool(clients, call({ duration: 0.2, steps: 2 }), { onprogress: () => { throw new Error("observer broke"); } });
  assert.equal(unbroken.isError, false, unbroken.content);

  // timeout 250 ms on a 0.6 s call with progress every 0.15 s: it times out, unless progress resets it.
  const slow = call({ duration: 0.6, steps: 4 });
  const timedOut = await callMcpTool(clients, slow, { timeout: 250, onprogress: () => {} });
  assert.equal(timedOut.isError, true);
  assert.match(timedOut.content, /timed out/i);
  const kept = await callMcpTool(clients, slow, { timeout: 250, resetTimeoutOnProgress: true, onprogress: () => {} });
  assert.equal(kept.isError, false, kept.content);

  // Abort after the first progress notification: an isError result, well before the 2 s run ends.
  const controller = new AbortController();
  const started = Date.now();
  const cancelled = await callMcpTool(clients, call({ duration: 2, steps: 10 }), {
    signal: controller.signal,
    onprogress: () => controller.abort(new Error("the user stopped it")),
  });
  assert.equal(cancelled.isError, true);
  assert.match(cancelled.content, /trigger-long-running-operation was cancelled on server "everything": the user stopped it/);
  assert.ok(Date.now() - started < 1500, `returned after ${Date.now() - started} ms`);

  // Aborted before: nothing is sent to the server.
  const sent = everything.calls.length;
  const never = await callMcpTool(clients, call({ duration: 0.1, steps: 1 }), { signal: AbortSignal.abort(new Error("too late")) });
  assert.equal(never.isError, true);
  assert.match(never.content, /was cancelled before it ran on server "everything": too late/);
  assert.equal(everything.calls.length, sent, "no tools/call went out");
});
