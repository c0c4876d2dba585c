// Node: each game's web.js label(notation, view, moves) for the decisions on stdin ({game, components, samples:
// [{view, legal, notes}]}), with a stub of the page's FT (no browser). Prints [[label, ...] per sample] as JSON.
"use strict";
const fs = require("fs");
const path = require("path");
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const el = () => ({ append() {}, replaceChildren() {}, setAttribute() {}, classList: { add() {}, toggle() {} }, style: {} });
global.document = { createElement: el, createElementNS: el, head: { append() {} }, getElementById: () => null };
global.window = global;
global.localStorage = { getItem: () => null, setItem() {} };
// the page's own shared helpers (web/common.js: FT.move, FT.amounts...), then stubs for what draws
require(path.resolve(__dirname, "../../src/freetrader/web/common.js"));
Object.assign(FT, { el, svg: el, byTarget: () => new Map(), makeHot() {}, chooser: () => () => {}, clickable() {} });
require(path.resolve(input.script));
const r = Object.values(FT.renderers)[0];
if (r.init) r.init(input.components);
process.stdout.write(JSON.stringify(input.samples.map((s) => s.legal.map((n) => (r.label ? r.label(n, s.view, s.notes) : FT.move(s.notes, n).label || n)))));
