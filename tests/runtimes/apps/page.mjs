// What every bundled page does with the package it imported: check `not_initialized` before the
// loader, load the wasm, run the smoke suite, and leave the answers in `window.results` (or the
// error in `window.failure`) for the test to read.
import { smoke, toolboxOf } from "./smoke.mjs";

export async function report(api, load) {
  try {
    let before = "no throw";
    try {
      api.assemble([]);
    } catch (e) {
      before = e.code;
    }
    await load();
    const servers = await (await fetch("/servers.json")).json();
    window.results = { before, answers: smoke(api, toolboxOf(servers)) };
  } catch (e) {
    window.failure = String(e?.stack ?? e);
  }
}
