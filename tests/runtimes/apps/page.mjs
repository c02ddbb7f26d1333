// What every bundled page (or Web Worker) does with the package it imported: check
// `not_initialized` before the loader, load the wasm, run the smoke suite, and hand the answers
// (or the error) to `deliver`; by default they are left in `window.results` / `window.failure`
// for the test to read.
import { smoke, toolboxOf } from "./smoke.mjs";

export async function report(api, load, deliver = (out) => Object.assign(globalThis, out)) {
  try {
    let before = "no throw";
    try {
      api.assemble([]);
    } catch (e) {
      before = e.code;
    }
    await load();
    const servers = await (await fetch("/servers.json")).json();
    deliver({ results: { before, answers: smoke(api, toolboxOf(servers)) } });
  } catch (e) {
    deliver({ failure: String(e?.stack ?? e) });
  }
}
