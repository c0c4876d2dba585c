// Precious Cargo: the route board between Koruna and Talonas, drawn from the view itself (settlements and
// dots carry their grid x/y, routes their ends): settlements with two docks, Governors and the commodity
// chip they want; ships with their sails and crates; the supply card, the face-down chips and the coins.
// The colours of the countries and commodities come with the components (GET /api/games/precious-cargo/components).
"use strict";
(function () {
  const S = FT.svg;
  const W = 1000, H = 760;
  const X0 = 160, DX = 113, Y0 = 130, DY = 92;   // grid column/row 0..6 -> board pixels
  const SEAT = ["#1f5f8b", "#6c3483"];
  // the countries and commodities: GET /api/games/precious-cargo/components (web.py, from the data files)
  let COLOURS = {}, LIGHT = {}, CARGO = {};  // colour name -> drawing colour; cargo id -> its colour name

  function init(c) {
    c = obj(c);
    const d = obj(c.drawing);
    COLOURS = obj(d.colours); LIGHT = obj(d.light);
    CARGO = {};
    for (const [id, k] of Object.entries(obj(c.cargo))) CARGO[id] = String(obj(k).color || "");
  }
  const cargoColour = (id) => COLOURS[CARGO[id]];

  const arr = (x) => (Array.isArray(x) ? x : []);
  const obj = (x) => (x && typeof x === "object" && !Array.isArray(x) ? x : {});
  const num = (x, d) => (typeof x === "number" && isFinite(x) ? x : d);
  const px = (x) => X0 + num(x, 0) * DX, py = (y) => Y0 + num(y, 0) * DY;
  function nice(id) { return String(id === null || id === undefined ? "" : id).replace(/[-_]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase()); }

  function countryOf(view, id) { return arr(view.countries).find((c) => c && c.id === id) || null; }
  // a player's colour: the colour of the country they lead, else a seat colour
  function seatColour(view, seat) {
    const p = arr(view.players).find((q) => q && q.seat === seat) || arr(view.players)[seat];
    const c = p && countryOf(view, p.country);
    return c && COLOURS[c.color] ? COLOURS[c.color] : SEAT[seat % SEAT.length] || "#777";
  }
  function placeName(view, id) {
    const s = arr(view.settlements).find((x) => x && x.id === id);
    return s ? s.name || nice(id) : "dot " + id;
  }
  function cargoBase(crate) { return String(crate || "").split("@")[0]; }
  function cargoName(view, crate) {
    const base = cargoBase(crate);
    const c = arr(view.cargo).find((k) => k && k.id === base);
    const from = String(crate || "").split("@")[1];
    return (c ? c.name : nice(base)) + (from ? " from " + placeName(view, from) : "");
  }

  // the legal moves as the server describes them (web.py moves, sent beside legal as ctx.notes):
  // {notation: {verb, label, targets: {ship, to, place, cargo, crate, ...}, cost, pays, note}}
  let MOVES = {};
  // the board things each legal move is about (a move can have several: "take 1 food" is the ship and the food)
  function targetsOf(n) {
    const m = FT.move(MOVES, n), t = obj(m.targets);
    switch (m.verb) {
      case "move": case "again": return ["p:" + t.to, "ship:" + t.ship];
      case "build": case "governor": case "home": return ["p:" + t.place];
      case "country": return ["c:" + t.country];
      case "first": return ["seat:" + t.seat];
      case "take": return ["k:" + t.ship + ":" + t.cargo, "ship:" + t.ship];
      case "sell": return ["crate:" + t.ship + ":" + t.crate, "ship:" + t.ship];
      case "sails": return ["ship:" + t.ship];
      default: return [];
    }
  }
  const byTarget = (legal) => FT.byTarget(legal, targetsOf);
  // a move's words, as web.py names it ("Move ship 1 → Gibraltar")
  function label(n, view, notes) { return FT.move(notes || MOVES, n).label || n; }

  const makeHot = (node, keys, hot, ctx, picker, what) => FT.makeHot(node, keys, hot, ctx, picker, what, label);
  const chooser = (box, ctx) => FT.chooser(box, ctx, label);

  function crate(x, y, c, s, title) {
    const g = S("g", { class: "crate", transform: `translate(${x},${y})` });
    const base = cargoBase(c);
    g.append(S("rect", { x: -s / 2, y: -s / 2, width: s, height: s, rx: 2, fill: cargoColour(base) || "#bbb", stroke: "#2a2118", "stroke-width": 1.2 }));
    g.append(S("path", { d: `M${-s / 2} ${-s / 2} L${s / 2} ${s / 2} M${s / 2} ${-s / 2} L${-s / 2} ${s / 2}`, stroke: "#2a2118", "stroke-width": 0.6, opacity: 0.45 }));
    g.append(S("title", { text: title || c }));
    return g;
  }

  function shipPiece(view, ship, x, y, hot, ctx, picker) {
    const colour = seatColour(view, ship.owner);
    const g = S("g", { class: "ship", transform: `translate(${x},${y})`, "data-ship": ship.owner + ":" + ship.number });
    g.append(S("path", { d: "M-26 4 L26 4 L18 16 L-18 16 Z", fill: colour, stroke: "#222", "stroke-width": 1.5, class: "hull" }));
    g.append(S("text", { x: 0, y: 14, "text-anchor": "middle", class: "ship-num", text: ship.number }));
    const sails = Math.max(0, num(ship.sails, 0));
    g.append(S("line", { x1: 0, y1: 4, x2: 0, y2: -6 - Math.max(1, sails) * 9, stroke: "#3b2f1e", "stroke-width": 1.5 }));
    for (let i = 0; i < sails; i++) g.append(S("path", { d: `M1 ${-3 - i * 9} L14 ${-3 - i * 9} L1 ${-11 - i * 9} Z`, fill: "#fffaf0", stroke: "#3b2f1e", "stroke-width": 1 }));
    const cargo = arr(ship.cargo);
    cargo.forEach((c, i) => {
      const cr = crate(-20 + (i % 3) * 10, -3 - Math.floor(i / 3) * 10, c, 9, cargoName(view, c));
      if (ship.owner === view.to_act) makeHot(cr, "crate:" + ship.number + ":" + c, hot, ctx, picker, "Crate " + cargoName(view, c));
      g.append(cr);
    });
    g.append(S("title", { text: `Ship ${ship.number} of seat ${ship.owner}: ${sails} sail${sails === 1 ? "" : "s"}, ${cargo.length} crate${cargo.length === 1 ? "" : "s"}` +
      (cargo.length ? " (" + cargo.map((c) => cargoName(view, c)).join(", ") + ")" : "") + (num(ship.moves_left, 0) ? `, ${ship.moves_left} moves left` : "") }));
    if (ship.owner === view.to_act) makeHot(g, "ship:" + ship.number, hot, ctx, picker, "Ship " + ship.number);
    return g;
  }

  function chip(x, y, view, id, r) {
    const g = S("g", { class: "chip", transform: `translate(${x},${y})` });
    const c = arr(view.cargo).find((k) => k && k.id === id);
    g.append(S("circle", { r, fill: "#fffaf0", stroke: "#3b2f1e", "stroke-width": 1.5 }));
    g.append(S("rect", { x: -r * 0.45, y: -r * 0.75, width: r * 0.9, height: r * 0.9, rx: 2, fill: cargoColour(id) || "#bbb", stroke: "#2a2118", "stroke-width": 1 }));
    g.append(S("text", { x: 0, y: r * 0.78, "text-anchor": "middle", class: "chip-value", text: c ? c.value : "?" }));
    g.append(S("title", { text: "wants " + (c ? c.name + " (worth " + c.value + ")" : nice(id)) }));
    return g;
  }

  function drawBoard(view, ctx, hot, picker) {
    const svg = S("svg", { viewBox: `0 0 ${W} ${H}`, class: "board-svg precious-board", role: "group", "aria-label": "Precious Cargo route board" });
    svg.append(S("rect", { x: 0, y: 0, width: W, height: H, fill: "#b9d7e6" }));
    // the two countries: Koruna's coast on the left (column 0), Talonas's on the right (column 6)
    const countries = arr(view.countries);
    const setts = arr(view.settlements).filter((s) => s && typeof s === "object");
    for (const c of countries) {
      const mine = setts.filter((s) => s.country === c.id);
      if (!mine.length) continue;
      const left = mine.every((s) => num(s.x, 0) < 3);
      const land = left ? `M0 0 L64 0 Q${X0 - 40} ${H / 2} 64 ${H} L0 ${H} Z` : `M${W} 0 L${W - 64} 0 Q${px(6) + 40} ${H / 2} ${W - 64} ${H} L${W} ${H} Z`;
      svg.append(S("path", { d: land, fill: LIGHT[c.color] || "#eee3c8", stroke: COLOURS[c.color] || "#8a7a55", "stroke-width": 3 }));
      const tx = left ? 14 : W - 14;
      const name = S("g", { class: "country" });
      const leader = c.leader !== null && c.leader !== undefined ? ` · seat ${c.leader}` : "";
      name.append(S("text", { x: left ? tx + 30 : tx - 30, y: 38, "text-anchor": left ? "start" : "end", class: "country-name", fill: COLOURS[c.color] || "#333", text: c.name + leader }));
      const ex = left ? tx + 12 : tx - 12;
      if (c.emblem === "sun") {
        name.append(S("circle", { cx: ex, cy: 30, r: 7, fill: COLOURS[c.color] || "#333" }));
        for (let k = 0; k < 8; k++) { const a = (k * Math.PI) / 4; name.append(S("line", { x1: ex + 9 * Math.cos(a), y1: 30 + 9 * Math.sin(a), x2: ex + 13 * Math.cos(a), y2: 30 + 13 * Math.sin(a), stroke: COLOURS[c.color] || "#333", "stroke-width": 2 })); }
      } else {
        name.append(S("path", { d: `M${ex - 13} 24 Q${ex - 6} 30 ${ex} 36 Q${ex + 6} 30 ${ex + 13} 24 Q${ex + 4} 26 ${ex} 30 Q${ex - 4} 26 ${ex - 13} 24 Z`, fill: COLOURS[c.color] || "#333", stroke: "#6b4f0a" }), S("circle", { cx: ex, cy: 24, r: 3, fill: COLOURS[c.color] || "#333", stroke: "#6b4f0a" }));
      }
      name.append(S("title", { text: c.name + " (" + (c.emblem || "") + " on " + (c.color || "") + ")" }));
      name.append(S("rect", { x: left ? tx : tx - 220, y: 14, width: 220, height: 34, fill: "transparent" }));
      makeHot(name, "c:" + c.id, hot, ctx, picker, "Lead " + c.name);
      svg.append(name);
    }
    const pos = {};
    for (const s of setts) pos[s.id] = [px(s.x), py(s.y)];
    for (const d of arr(view.dots)) if (d && d.id) pos[d.id] = [px(d.x), py(d.y)];
    // routes: rows of dots along each line
    for (const r of arr(view.routes)) {
      const [a, b] = arr(r);
      if (!pos[a] || !pos[b]) continue;
      svg.append(S("line", { x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1], stroke: "#2f6d8e", "stroke-width": 3, "stroke-dasharray": "2 9", "stroke-linecap": "round" }));
    }
    const shipsBy = {};
    for (const sh of arr(view.ships)) if (sh && sh.at) (shipsBy[sh.at] = shipsBy[sh.at] || []).push(sh);
    for (const d of arr(view.dots)) {
      if (!d || !pos[d.id]) continue;
      const [x, y] = pos[d.id];
      const g = S("g", { class: "dot", "data-place": d.id });
      g.append(S("circle", { cx: x, cy: y, r: 11, fill: "#e8f3f8", stroke: "#2f6d8e", "stroke-width": 2.5, class: "node-shape" }));
      g.append(S("text", { x: x + 14, y: y + 22, class: "dot-id", text: d.id }));
      const hit = S("circle", { cx: x, cy: y, r: 24, fill: "transparent" });
      g.append(hit);
      makeHot(g, "p:" + d.id, hot, ctx, picker, "dot " + d.id);
      svg.append(g);
    }
    // settlements: a harbour with the Governor, the chip it wants and two docks
    for (const s of setts) {
      const [x, y] = pos[s.id];
      const c = countryOf(view, s.country) || {};
      const left = num(s.x, 0) < 3;
      const bx = left ? x - 140 : x - 14, bw = 154, by = y - 44, bh = 88;
      const g = S("g", { class: "settlement", "data-place": s.id });
      g.append(S("rect", { x: bx, y: by, width: bw, height: bh, rx: 10, fill: "#fffaf0", stroke: COLOURS[c.color] || "#8a7a55", "stroke-width": 3, class: "node-shape" }));
      g.append(S("text", { x: bx + bw / 2, y: by + 17, "text-anchor": "middle", class: "sett-name", text: s.name || nice(s.id) }));
      // docks: two berths on the sea side
      const docks = Math.max(1, num(s.docks, 2));
      const here = shipsBy[s.id] || [];
      for (let i = 0; i < docks; i++) {
        const dx = left ? bx + bw - 4 : bx + 4, dy = by + 24 + i * 31;
        g.append(S("rect", { x: left ? dx - 78 : dx, y: dy, width: 78, height: 29, rx: 4, fill: "#d8e9f1", stroke: "#2f6d8e", "stroke-dasharray": "3 2" }));
      }
      // the Governor and the wanted chip on the land side
      const gx = left ? bx + 24 : bx + bw - 24;
      if (s.governor !== null && s.governor !== undefined) {
        const gov = S("g", { transform: `translate(${gx - (left ? 4 : -4)},${by + 48}) scale(1.3)` });
        gov.append(S("circle", { cx: 0, cy: -7, r: 6, fill: seatColour(view, s.governor), stroke: "#222" }),
          S("path", { d: "M-8 10 L-5 -1 L5 -1 L8 10 Z", fill: seatColour(view, s.governor), stroke: "#222" }),
          S("title", { text: "Governor of seat " + s.governor }));
        g.append(gov);
      }
      if (s.wants) g.append(chip(gx + (left ? 24 : -24), by + 62, view, s.wants, 15));
      const hit = S("rect", { x: bx, y: by, width: bw, height: bh, rx: 10, fill: "transparent" });
      g.append(hit);
      makeHot(g, "p:" + s.id, hot, ctx, picker, s.name || nice(s.id));
      svg.append(g);
      here.forEach((sh, i) => { pos["dock:" + s.id + ":" + i] = [left ? bx + bw - 42 : bx + 42, by + 38 + i * 31]; });
    }
    // ships last, so they sit on top
    for (const [at, list] of Object.entries(shipsBy)) {
      list.forEach((sh, i) => {
        const p = pos["dock:" + at + ":" + i] || (pos[at] ? [pos[at][0] + i * 22, pos[at][1] - 6] : null);
        if (!p) return;
        const docked = !!pos["dock:" + at + ":" + i];
        const node = shipPiece(view, sh, p[0], docked ? p[1] - 10 : p[1] - 8, hot, ctx, picker);
        node.setAttribute("transform", docked ? `translate(${p[0]},${p[1] - 2}) scale(0.95)` : `translate(${p[0]},${p[1] - 12}) scale(1.25)`);
        svg.append(node);
      });
    }
    const head = [`Turn ${num(view.turn, "?")}`, `phase: ${view.phase || "?"}`, `first to ${num(view.target, "?")} coins wins`];
    if (num(view.actions_left, 0)) head.push(`${view.actions_left} action${view.actions_left === 1 ? "" : "s"} left`);
    if (arr(view.actions_used).length) head.push("used: " + arr(view.actions_used).join(", "));
    svg.append(S("text", { x: W / 2, y: 72, "text-anchor": "middle", class: "head", text: head.join(" · ") }));
    if (view.selling_at) svg.append(S("text", { x: W / 2, y: H - 14, "text-anchor": "middle", class: "head", text: "Selling at " + placeName(view, view.selling_at) }));
    if (view.loading_ship) svg.append(S("text", { x: W / 2, y: H - 14, "text-anchor": "middle", class: "head", text: "Loading ship " + view.loading_ship }));
    return svg;
  }

  function panel(view, ctx, hot, picker) {
    const box = FT.el("div", { class: "pc-panels" });
    const card = (label, h, g) => {
      g.setAttribute("transform", "translate(5,5)");
      box.append(S("svg", { class: "board-svg precious-panel", viewBox: `0 0 495 ${h}`, role: "group", "aria-label": label }, [g]));
    };
    const players = arr(view.players).filter((p) => p && typeof p === "object");
    players.forEach((p, i) => {
      const seat = num(p.seat, i);
      const acting = view.to_act === seat;
      const g = S("g", { class: "player" });
      g.append(S("rect", { x: 0, y: 0, width: 485, height: 96, rx: 10, fill: "#fffdf7", stroke: acting ? "#d6a530" : "#c9bb9b", "stroke-width": acting ? 5 : 2, class: "node-shape" }));
      g.append(S("rect", { x: 0, y: 0, width: 14, height: 96, rx: 6, fill: seatColour(view, seat) }));
      const c = countryOf(view, p.country);
      const name = seat === ctx.seat ? "You (seat " + seat + ")" : ctx.seatLabel ? ctx.seatLabel(seat) : "Seat " + seat;
      g.append(S("text", { x: 26, y: 26, class: "p-name", text: name + (acting ? " · to act" : "") + (view.first === seat ? " · first" : "") }));
      g.append(S("text", { x: 26, y: 50, class: "p-small", text: (c ? "leads " + c.name : "no country yet") + (p.home ? " · home " + placeName(view, p.home) : "") }));
      const coins = num(p.coins, 0);
      g.append(S("circle", { cx: 40, cy: 74, r: 12, fill: "#d6a530", stroke: "#8a6a12", "stroke-width": 2 }), S("text", { x: 40, y: 79, "text-anchor": "middle", class: "coin", text: "¤" }));
      g.append(S("text", { x: 60, y: 80, class: "p-big", text: `${coins} coin${coins === 1 ? "" : "s"}` }));
      for (let k = 0; k < num(p.governors_left, 0); k++) {
        g.append(S("circle", { cx: 230 + k * 22, cy: 67, r: 6, fill: seatColour(view, seat), stroke: "#222" }), S("path", { d: `M${222 + k * 22} 86 L${225 + k * 22} 74 L${235 + k * 22} 74 L${238 + k * 22} 86 Z`, fill: seatColour(view, seat), stroke: "#222" }));
      }
      g.append(S("text", { x: 230 + Math.max(1, num(p.governors_left, 0)) * 22, y: 82, class: "p-small", text: `${num(p.governors_left, 0)} Governor${p.governors_left === 1 ? "" : "s"} to install` }));
      makeHot(g, "seat:" + seat, hot, ctx, picker, "Seat " + seat + " goes first");
      card("Seat " + seat, 106, g);
    });
    // the supply card: crates of each country, and the face-down chips
    const supply = obj(view.supply);
    const keys = Object.keys(supply);
    keys.forEach((cid, i) => {
      const c = countryOf(view, cid) || { name: nice(cid) };
      const g = S("g");
      g.append(S("rect", { x: 0, y: 0, width: 485, height: 92, rx: 10, fill: LIGHT[c.color] || "#f4efe4", stroke: COLOURS[c.color] || "#8a7a55", "stroke-width": 2 }));
      g.append(S("text", { x: 12, y: 22, class: "p-label", text: `${c.name} supply` }));
      g.append(S("text", { x: 473, y: 22, "text-anchor": "end", class: "p-small", text: `${num(obj(view.face_down_chips)[cid], 0)} face-down chips` }));
      Object.entries(obj(supply[cid])).forEach(([k, n], j) => {
        const cx = 40 + j * 112;
        const item = S("g", { class: "supply-item", transform: `translate(${cx},58)` });
        item.append(S("rect", { x: -30, y: -22, width: 106, height: 40, rx: 6, fill: "#fffaf0", stroke: "#b5a98e", class: "node-shape" }));
        item.append(crate(-12, -2, k, 22, cargoName(view, k)));
        const cg = arr(view.cargo).find((q) => q && q.id === k);
        item.append(S("text", { x: 6, y: -4, class: "p-small", text: (cg ? cg.name : nice(k)) + (cg ? " (" + cg.value + ")" : "") }));
        item.append(S("text", { x: 6, y: 12, class: "p-small", text: `${n} left` }));
        // crates come from the supply of the country where the ship lies
        const takes = Array.from(hot.keys()).filter((key) => {
          if (!key.startsWith("k:") || !key.endsWith(":" + k)) return false;
          const ship = arr(view.ships).find((sh) => sh && sh.owner === view.to_act && String(sh.number) === key.split(":")[1]);
          const at = ship && arr(view.settlements).find((st) => st && st.id === ship.at);
          return !at || at.country === cid;
        });
        makeHot(item, takes, hot, ctx, picker, "Take " + (cg ? cg.name : nice(k)));
        g.append(item);
      });
      if (i === keys.length - 1) g.append(S("text", { x: 4, y: 112, class: "p-small", text: `Bank: ${num(view.bank, "?")} coins · a crate sells for its chip's value where wanted, else 1` }));
      card(c.name + " supply", i === keys.length - 1 ? 124 : 102, g);
    });
    return box;
  }

  const STYLE = `
.precious { display: flex; flex-direction: column; gap: .5rem; }
.precious .pc-pick { display: flex; flex-wrap: wrap; gap: .35rem; align-items: center; background: #fff1c9; border-left: 4px solid #d6a530; padding: .4rem; border-radius: .4rem; }
.precious .pc-pick[hidden] { display: none; }
.precious .pc-map { overflow-x: auto; width: 0; min-width: 100%; }
.precious .pc-panels { display: flex; flex-wrap: wrap; gap: .5rem; }
.precious .pc-panels > svg { flex: 0 1 calc(50% - .25rem); min-width: 0; }
@media (max-width: 700px) { .precious .pc-panels > svg { flex-basis: 100%; } }
.precious svg text { font-family: inherit; }
.precious .country-name { font-size: 24px; font-weight: 800; letter-spacing: .06em; }
.precious .sett-name { fill: #2a2118; font-size: 15px; font-weight: 700; }
.precious .dot-id { fill: #2f6d8e; font-size: 14px; }
.precious .ship-num { fill: #fff; font-size: 14px; font-weight: 700; }
.precious .chip-value { fill: #2a2118; font-size: 9px; font-weight: 700; }
.precious .head { fill: #1d3a4c; font-size: 17px; font-weight: 600; }
.precious .p-name { fill: #2a2118; font-size: 18px; font-weight: 700; }
.precious .p-label { fill: #2a2118; font-size: 16px; font-weight: 700; }
.precious .p-small { fill: #4f483d; font-size: 14px; }
.precious .supply-item .p-small { font-size: 12.5px; }
.precious .p-big { fill: #2a2118; font-size: 20px; font-weight: 700; }
.precious .coin { fill: #fff; font-size: 14px; font-weight: 700; }
.precious .hot > .node-shape { stroke: #e0a100 !important; stroke-width: 5 !important; }
.precious .dot.hot > .node-shape { fill: #fff1c9; }
.precious .ship.hot .hull { stroke: #e0a100; stroke-width: 4; }
.precious .crate.hot rect { stroke: #e0a100; stroke-width: 3; }
.precious .clickable { cursor: pointer; }
.precious .clickable:hover, .precious .clickable:focus { filter: drop-shadow(0 0 5px #e0a100); }
`;
  function ensureStyle() {
    if (document.getElementById("precious-style")) return;
    document.head.append(FT.el("style", { id: "precious-style", text: STYLE }));
  }

  FT.register("precious-cargo", {
    init,
    label,
    draw(root, view, ctx) {
      ensureStyle();
      view = obj(view);
      ctx = Object.assign({}, ctx, { view });
      MOVES = obj(ctx.notes);
      const hot = byTarget(ctx.legal instanceof Set ? Array.from(ctx.legal) : arr(ctx.legal));
      const wrap = FT.el("div", { class: "precious" });
      // a piece's choices go to the table's dock (ctx.picks) when it has one, never over the board
      const pickBox = ctx.picks || FT.el("div", { role: "group", "aria-label": "Choose a move", hidden: true });
      pickBox.classList.add("pc-pick");
      const picker = chooser(pickBox, ctx);
      if (!ctx.picks) wrap.append(pickBox);
      wrap.append(FT.el("div", { class: "pc-map" }, drawBoard(view, ctx, hot, picker)), panel(view, ctx, hot, picker));
      root.replaceChildren(wrap);
    },
  });
})();
