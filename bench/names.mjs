// What SPEC §16's shown names cost against the short names of `qualify: "auto"`: per catalog and
// context, the bridge request's tokens (the tools array), the listing's tokens, its form and how
// many servers it lists in full. One process, both options side by side, ratios printed (sizes,
// not times: the figures are exact).
//   node bench/names.mjs        (after scripts/build; reads ../shared/catalogs through tests/js/support.mjs)
import { Shelf } from "../pkg/node.js";
import { LADDER, entriesOf, toolboxOf } from "./data.mjs";

const row = (cells) => console.log(`| ${cells.join(" | ")} |`);
const full = (a) => a.servers.filter((s) => s.level === "full").length;

row(["catalog", "context", "bridge tokens (shown / auto)", "ratio", "listing tokens", "form", "servers in full"]);
row(["---", "---:", "---:", "---:", "---:", "---", "---:"]);
const ROWS = [...LADDER, { label: "toolbench (811 servers, 2,479)", names: ["toolbench-api-pool"] }];
for (const { label, names } of ROWS) {
  const toolbox = toolboxOf(entriesOf(names));
  for (const contextLength of [200_000, 1_000_000]) {
    const a = {};
    for (const qualify of [true, "auto"]) a[qualify] = new Shelf(toolbox, { contextLength, qualify }).assemble();
    const [s, o] = [a[true], a.auto];
    row([
      label, `${contextLength / 1000}K`,
      `${s.contextTokens} / ${o.contextTokens}`, (s.contextTokens / o.contextTokens).toFixed(3),
      `${s.listingTokens} / ${o.listingTokens}`, `${s.form} / ${o.form}`, `${full(s)} / ${full(o)}`,
    ]);
  }
}
