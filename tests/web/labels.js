// Node: each game's web.js label(notation, view) for the decisions on stdin ({game, components, samples:
// [{view, legal}]}), with a stub of the page's FT (no browser). Prints [[label, ...] per sample] as JSON.
"use strict";
const fs = require("fs");
const path = require("path");
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const el = () => ({ append() {}, replaceChildren() {}, setAttribute() {}, classList: { add() {}, toggle() {} }, style: {} });
global.document = { createElement: el, createElementNS: el, head: { append() {} }, getElementById: () => null };
global.window = global;
global.localStorage = { getItem: () => null, setItem() {} };
global.FT = { renderers: {}, register(name, r) { this.renderers[name] = r; }, el, svg: el, byTarget: () => new Map(),
  makeHot() {}, chooser: () => () => {}, clickable() {} };
require(path.resolve(input.script));
const r = Object.values(FT.renderers)[0];
if (r.init) r.init(input.components);
process.stdout.write(JSON.stringify(input.samples.map((s) => s.legal.map((n) => (r.label ? r.label(n, s.view) : n)))));
