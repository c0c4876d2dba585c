// Merchants Cove: the Clock with every merchant's timepiece and the Mice, the cove with its six boats, three piers
// (Bazaar, Town Square, Black Market) and their customers, the Faction Halls and the Lair, the Townsfolk in the
// Town Square, and each merchant's shop board (Alchemist, Blacksmith, Captain, Chronomancer; any other board as a
// key/value list), Sale Shelf, gold, shields, Staff and Corruption; the Peddler in solo games.
// Everything is drawn from the view as it comes: missing or extra keys are tolerated, never trusted. The names,
// colours, costs and icons of the pieces and cards (all 84 Townsfolk) come from the server,
// GET /api/games/merchants-cove/components (web.py, from the data files); this file copies none of them.
"use strict";
(function () {
  const S = FT.svg;
  const SEAT = ["#1f5f8b", "#8e3b7a", "#d35400", "#5d4037"];
  const PEDDLER = "#2b2b2b";
  // ---- the game's pieces and cards: GET /api/games/merchants-cove/components (web.py, from data/*.toml) ----
  let ADV = {};        // colour id -> drawing colour (data/drawing.toml)
  let ADV_NAME = {};   // colour id -> adventurer name ("warrior")
  let FACTIONS = [];   // the Faction Hall colours, in board order
  let ROGUE = "";      // the Rogues' colour
  let COMMON = {};     // action every shop board has -> hours
  let LOG_NAMES = {};  // how ids read ("r1-left": "row 1 from the left"), web.py log_names
  let MERCHANT = {};   // merchant id -> { name, actions: { action: hours } }
  let PIER = {};       // pier id -> { name, short, note }
  let TF = {};         // Townsfolk id -> { name, colour, cost, icons }
  let CORR = {};       // Corruption card id -> { icons, faction, cost: { kind, amount } | null }

  function init(c) {
    c = obj(c);
    ADV = obj(obj(c.drawing).colours);
    ADV_NAME = {};
    for (const [id, a] of Object.entries(obj(c.adventurers))) ADV_NAME[id] = str(obj(a).name) || id;
    FACTIONS = arr(c.factions).map(str);
    ROGUE = str(c.rogue);
    COMMON = obj(c.common);
    LOG_NAMES = obj(c.log_names);
    MERCHANT = {};
    for (const [id, m] of Object.entries(obj(c.merchants))) {
      // "Phoenestra Orwyn, the Alchemist": the board is called by its title
      MERCHANT[id] = { name: str(obj(m).name).split(", ").pop() || nice(id), actions: obj(obj(m).actions) };
    }
    PIER = {};
    for (const [id, q] of Object.entries(obj(c.piers))) {
      const name = str(obj(q).name) || nice(id), sizes = arr(q.sizes), corr = num(q.corruption, 0);
      const goods = sizes.length > 1 ? "any good" : sizes.length ? sizes[0] + " goods" : "";
      PIER[id] = { name: name.replace(/ \(.*\)$/, ""), short: name.replace(/ \(.*\)$/, "").replace(/ Pier$/, ""),
        note: [goods, corr ? "+" + corr + " Corruption" : ""].filter(Boolean).join(" · ") };
    }
    CORR = obj(c.corruption);
    TF = {};
    for (const [id, t] of Object.entries(obj(c.townsfolk))) {
      TF[id] = { name: str(obj(t).name) || nice(id), colour: str(t.colour), cost: num(t.cost, null), icons: arr(t.icons).map(str) };
    }
  }

  const arr = (x) => (Array.isArray(x) ? x : []);
  const obj = (x) => (x && typeof x === "object" && !Array.isArray(x) ? x : {});
  const num = (x, d) => (typeof x === "number" && isFinite(x) ? x : d);
  const str = (x) => (x === null || x === undefined ? "" : String(x));
  function nice(id) { return str(id).replace(/[-_]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase()); }
  const colour = (c) => ADV[c] || "#b0a890";
  const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;

  function merchantName(m) { return MERCHANT[m] ? MERCHANT[m].name.replace(/^the /, "The ") : nice(m); }
  function slotName(id) {
    const [p, side] = str(id).split("-");
    const pier = PIER[p];
    return (pier ? pier.name : nice(p)) + (side ? " (" + side + ")" : "");
  }
  function goodName(g) {
    const [size, c] = str(g).split("-");
    return c ? `${size} ${c} good` : nice(g);
  }
  // a Corruption card by its icons (and faction), with its Secret Stash pay-off cost: never its bare id
  function corrShort(c) {
    const k = CORR[c];
    return k ? `${k.icons} icon${k.icons === 1 ? "" : "s"}` + (k.faction ? " " + k.faction : "") : str(c);
  }
  function corrLong(c) {
    const k = CORR[c];
    if (!k) return "Corruption card " + c;
    return `Corruption: ${k.icons} icon${k.icons === 1 ? "" : "s"}` + (k.faction ? ` (${k.faction})` : "")
      + (k.cost ? `; pay-off ${k.cost.amount} ${k.cost.kind}` : "");
  }
  function tfName(t) { return TF[t] ? TF[t].name : nice(t); }
  // the Rogue cards in force, top first (Multiple Rogues: one is removed at each Clean-Up)
  function rogueCards(view) {
    const cards = arr(view.rogue_cards).map(obj).filter((c) => c.name);
    return cards.length ? cards : [obj(view.rogue_card)].filter((c) => c.name);
  }
  const rogueText = (view) => rogueCards(view).map((c) => (c.number !== undefined ? c.number + " " : "") + c.name).join(", ");
  function seatName(view, q) {
    const n = num(Number(q), -1);
    if (view && view.peddler && n === arr(view.players).length) return "the Peddler";
    return "seat " + q;
  }
  function cellName(cell) {
    const k = num(Number(cell), 1) - 1;
    return `row ${Math.floor(k / 3) + 1}, column ${(k % 3) + 1}`;
  }
  function actionCost(view, m, a) {
    if (COMMON[a] !== undefined) return COMMON[a];
    const md = MERCHANT[m];
    return md && md.actions[a] !== undefined ? md.actions[a] : null;
  }

  // ---- legal moves: which drawn thing each is about, and how it reads ----
  // the server's moves (web.py moves, sent beside legal as ctx.notes): {notation: {verb, targets, ...}};
  // a move's ids in its roles' order (web.py ROLES): "sell" is [good, pier], "return" [boat, adventurer]
  let MOVES = {};
  function parts(n, notes) {
    const m = FT.move(notes || MOVES, n);
    return [str(m.verb), ...Object.values(obj(m.targets)).map(str)];
  }
  function targetsOf(n) {
    const [verb, a, b] = parts(n);
    switch (verb) {
      case "merchant": return ["m:" + a];
      case "do": return ["do:" + a];
      case "boat": return ["boat:" + a];
      case "dock": return ["slot:" + a];
      case "hire": case "replace": return ["tf:" + a];
      case "shield": return ["hall:" + a];
      case "discard": return ["corr:" + a];
      case "return": case "take": return ["adv:" + a + ":" + b, "boat:" + a];
      case "rob": return ["seat:" + a];
      case "sell": return ["good:" + a, "pier:" + b];
      case "pour": return ["pour:" + a];
      case "into": return ["caul:" + a];
      case "die": return ["die:" + a];
      case "coal": return ["furn:" + a];
      case "ship": return ["ship:" + a];
      case "treasure": return ["treas:" + a];
      case "push": return ["push:" + a];
      case "worker": return ["cell:" + b, "worker:" + a];
      default: return [];
    }
  }
  const byTarget = (legal) => FT.byTarget(legal, targetsOf);
  function label(n, view, notes) {
    view = obj(view);
    const [verb, a, b, c] = parts(n, notes);
    const me = arr(view.players)[view.to_act] || {};
    switch (verb) {
      case "merchant": return "Play " + merchantName(a);
      case "do": { const c = actionCost(view, me.merchant, a); return nice(a) + (c !== null ? ` (${c} h)` : ""); }
      case "boat": return (view.drawn ? `Put the ${ADV_NAME[view.drawn] || nice(view.drawn)}` : "Put the adventurer") + ` on boat ${a}`;
      case "dock": return "Dock at " + slotName(a);
      case "hire": return `Hire the ${tfName(a)}`;  // its cost is the move's (shown beside it)
      case "replace": return `Replace the ${tfName(a)}`;
      case "skip": return "Skip";
      case "done": return "Done";
      case "shield": return `Sponsor ${a} (shield)`;
      case "discard": return "Discard " + corrLong(a);
      case "pay": return "Pay off " + corrLong(a);
      case "return": return `Boat ${a}: the ${ADV_NAME[b] || nice(b)} back to the bag`;
      case "take": return `Boat ${a}: take the ${ADV_NAME[b] || nice(b)} off`;
      case "rob": return `${nice(seatName(view, a))} draws the Corruption`;
      case "sell": {
        return `Sell ${goodName(a)} at ${PIER[b] ? PIER[b].short : nice(b)}` + (c === "rogues" ? " to the Rogues" : "");
      }
      case "pour": return `Pour from slide marble ${a}`;
      case "into": return `Ichor into the ${a} cauldron`;
      case "die": return `Die ${a} into its furnace`;
      case "coal": return `Coal into the ${a} furnace`;
      case "keep": return a === "colours" ? "Keep the dice colours (1 Corruption)" : "Roll the dice anew";
      case "ship": return `Spin for ship ${a}`;
      case "again": return "Spin again";
      case "stop": return "Stop";
      case "treasure": return `Treasure → large ${a} good`;
      case "push": return "Slide the spare tile into " + (LOG_NAMES[a] || nice(a));
      case "worker": return `Worker ${a} to ${cellName(b)}`;
      // Secret Stash: the Festival, the Rogue cards' choices, the Officials' Staff, a Good paying a card
      case "draw": return "Draw a guest from the bag";
      case "lure": return `Lure the ${ADV_NAME[a] || nice(a)} for ` + (b === "corruption" ? "a Corruption card" : "gold");
      case "challenge": return "Complete the Challenge card";
      case "kraken": return `The Kraken drags the ${ADV_NAME[b] || nice(b)} off boat ${a}`;
      case "hall": return `The ${nice(a)} Faction Hall`;
      case "kill": return `Discard the ${tfName(a)} from the Town Square`;
      case "mind": return `Send the ${ADV_NAME[a] || nice(a)} back to the bag`;
      case "raid": return `Use the ${tfName(a)}'s ability`;
      case "staff": return `Use Staff Ability ${a}`;
      case "give": return `Pay with a ${goodName(a)}`;
      default: return nice(n);
    }
  }

  const makeHot = (node, keys, hot, ctx, picker, what) => FT.makeHot(node, keys, hot, ctx, picker, what, label);
  const chooser = (box, ctx) => FT.chooser(box, ctx, label);

  // ---- small pieces ----
  function meeple(x, y, c, s, title) {
    const g = S("g", { class: "meeple", transform: `translate(${x},${y}) scale(${s || 1})` });
    g.append(S("circle", { cx: 0, cy: -7, r: 5, fill: colour(c), stroke: "#1d1a16", "stroke-width": 1 }),
      S("path", { d: "M-8 9 Q-8 -2 0 -2 Q8 -2 8 9 Z", fill: colour(c), stroke: "#1d1a16", "stroke-width": 1 }));
    if (c === ROGUE) g.append(S("path", { d: "M-5 -9 L5 -9", stroke: "#1d1a16", "stroke-width": 2 }));
    g.append(S("title", { text: title || (ADV_NAME[c] ? `${ADV_NAME[c]} (${c})` : str(c)) }));
    return g;
  }
  function good(x, y, g, title) {
    const [size, c] = str(g).split("-");
    const s = size === "large" ? 20 : 13;
    const n = S("g", { class: "good", transform: `translate(${x},${y})` });
    if (size === "large") n.append(S("path", { d: `M0 ${-s / 2 - 2} L${s / 2} 0 L0 ${s / 2 + 2} L${-s / 2} 0 Z`, fill: colour(c), stroke: "#1d1a16", "stroke-width": 1.3 }));
    else n.append(S("rect", { x: -s / 2, y: -s / 2, width: s, height: s, rx: 2, fill: colour(c), stroke: "#1d1a16", "stroke-width": 1.2 }));
    n.append(S("title", { text: title || goodName(g) }));
    return n;
  }
  function coin(x, y, r) {
    return S("g", {}, [S("circle", { cx: x, cy: y, r, fill: "#d6a530", stroke: "#8a6a12", "stroke-width": 2 }),
      S("text", { x, y: y + r * 0.4, "text-anchor": "middle", class: "coin", "font-size": r * 1.1, text: "¤" })]);
  }
  function shield(x, y, c, n) {
    const g = S("g", { transform: `translate(${x},${y})` });
    g.append(S("path", { d: "M-9 -10 L9 -10 L9 0 Q9 8 0 12 Q-9 8 -9 0 Z", fill: n ? colour(c) : "#f4efe4", stroke: n ? "#1d1a16" : colour(c), "stroke-width": 1.5 }));
    g.append(S("text", { x: 0, y: 4, "text-anchor": "middle", class: n ? "on-dark" : "small", text: n }));
    g.append(S("title", { text: `${n} ${c} shield${n === 1 ? "" : "s"}` }));
    return g;
  }
  function kvText(g, x, y, data, width) {
    // unknown board parts: one line per key, values flattened
    let yy = y;
    for (const [k, v] of Object.entries(obj(data))) {
      let t;
      if (v && typeof v === "object") t = JSON.stringify(v).replace(/[{}"[\]]/g, "").replace(/,/g, ", ").replace(/:/g, ": ");
      else t = str(v);
      const line = nice(k) + ": " + t;
      const max = Math.floor(width / 7);
      g.append(S("text", { x, y: yy, class: "small", text: line.length > max ? line.slice(0, max - 1) + "…" : line }, [S("title", { text: line })]));
      yy += 17;
    }
    return yy;
  }

  // ---- the Clock ----
  function drawClock(view, ctx, W) {
    const clock = obj(view.clock);
    const players = arr(view.players);
    const ped = view.peddler && typeof view.peddler === "object" ? view.peddler : null;
    const market = num(clock.market, 13);
    const hours = players.map((p) => num(obj(p).hour, 1)).concat(ped ? [num(ped.hour, 1)] : []);
    const last = Math.max(market, ...hours, 1);
    const x0 = 14, cw = (W - 28) / last, top = 30, ch = 40;
    const tokens = Math.max(1, hours.length);
    const H = top + ch + 18 + tokens * 19 + 8;
    const svg = S("svg", { viewBox: `0 0 ${W} ${H}`, class: "board-svg mc-clock", role: "group", "aria-label": "The Clock" });
    svg.append(S("rect", { x: 0, y: 0, width: W, height: H, rx: 10, fill: "#f3ead7" }));
    svg.append(S("text", { x: x0, y: 20, class: "title", text: "The Clock" }));
    const order = arr(clock.order);
    if (order.length) {
      const names = order.map((q) => (q === players.length && ped ? "Peddler" : q === ctx.seat ? "you" : "seat " + q));
      svg.append(S("text", { x: W - 14, y: 20, "text-anchor": "end", class: "small", text: "next: " + names.join(" → ") }));
    }
    const mice = arr(clock.mice);
    for (let h = 1; h <= last; h++) {
      const x = x0 + (h - 1) * cw;
      const isMarket = h === market, past = h > market;
      svg.append(S("rect", { x: x + 1, y: top, width: cw - 2, height: ch, rx: 5, fill: isMarket ? "#d6a530" : past ? "#e2d9c7" : "#fffaf0", stroke: "#8a7a55", "stroke-width": 1.2 }));
      svg.append(S("text", { x: x + cw / 2, y: top + 15, "text-anchor": "middle", class: isMarket ? "hour market" : "hour", text: h }));
      if (isMarket) svg.append(S("text", { x: x + cw / 2, y: top + 32, "text-anchor": "middle", class: "tiny", text: "Market" }));
      mice.forEach((m, i) => {
        if (num(m, -1) !== h) return;
        const mx = x + cw / 2 + (i % 2 ? 6 : -6) * (mice.filter((q) => q === m).length > 1 ? 1 : 0), my = top + 30;
        svg.append(S("g", { class: "mouse" }, [S("ellipse", { cx: mx, cy: my, rx: 8, ry: 5, fill: "#7b6a58", stroke: "#3b2f1e" }),
          S("circle", { cx: mx + 7, cy: my - 3, r: 2.5, fill: "#7b6a58", stroke: "#3b2f1e" }),
          S("path", { d: `M${mx - 8} ${my} q-5 -1 -6 -6`, stroke: "#3b2f1e", fill: "none" }),
          S("title", { text: "a Mouse at hour " + h + ": passing it loads an adventurer" })]));
      });
    }
    // timepieces: one row per merchant, in Clock order (the first of a stack acts first)
    const rows = order.length ? order.slice() : hours.map((_, i) => i);
    for (let i = 0; i < hours.length; i++) if (!rows.includes(i)) rows.push(i);
    rows.forEach((q, r) => {
      const h = hours[q];
      if (h === undefined) return;
      const y = top + ch + 14 + r * 19;
      const x = x0 + (Math.min(h, last) - 1) * cw + cw / 2;
      const isPed = ped && q === players.length;
      const col = isPed ? PEDDLER : SEAT[q % SEAT.length];
      svg.append(S("line", { x1: x0, y1: y, x2: x, y2: y, stroke: col, "stroke-width": 2, opacity: 0.25 }));
      const g = S("g", { class: "timepiece" + (view.to_act === q ? " acting" : "") });
      g.append(S("circle", { cx: x, cy: y, r: 8.5, fill: col, stroke: view.to_act === q ? "#e0a100" : "#fff", "stroke-width": view.to_act === q ? 3 : 1.5 }));
      g.append(S("text", { x: x, y: y + 4, "text-anchor": "middle", class: "on-dark tiny", text: isPed ? "P" : q }));
      const who = isPed ? "Peddler" : q === ctx.seat ? "you" : "seat " + q;
      g.append(S("text", { x: x + (x > W - 90 ? -13 : 13), y: y + 4, "text-anchor": x > W - 90 ? "end" : "start", class: "tiny", text: `${who} · ${h}` }));
      g.append(S("title", { text: `${who}: hour ${h}` }));
      svg.append(g);
    });
    return svg;
  }

  // ---- the cove: boats, piers, halls, Lair ----
  function boatPiece(view, b, i, x, y, hot, ctx, picker) {
    const g = S("g", { class: "boat", transform: `translate(${x},${y})`, "data-boat": i + 1 });
    const advs = arr(b.adventurers);
    g.append(S("path", { d: "M0 22 L150 22 L134 50 L16 50 Z", fill: "#8d5a33", stroke: "#3b2f1e", "stroke-width": 1.5, class: "hull" }));
    g.append(S("text", { x: 75, y: 42, "text-anchor": "middle", class: "on-dark", text: "Boat " + (i + 1) }));
    // a seat per adventurer the boat holds (Secret Stash: the 2-seater and the 5-seaters), spread over the hull
    const cap = Math.max(1, num(b.capacity, 4));
    const step = cap > 1 ? Math.min(30, 104 / (cap - 1)) : 0;
    advs.slice(0, cap).forEach((c, k) => {
      const m = meeple(22 + k * step, 12, c, 1.15);
      if (view.to_act !== undefined) makeHot(m, "adv:" + (i + 1) + ":" + c, hot, ctx, picker, `Boat ${i + 1}: ${ADV_NAME[c] || c}`);
      g.append(m);
    });
    for (let k = advs.length; k < cap; k++) g.append(S("circle", { cx: 22 + k * step, cy: 12, r: 6, fill: "none", stroke: "#5f7f93", "stroke-dasharray": "2 2" }));
    if (advs.length > cap) g.append(S("text", { x: 148, y: 12, "text-anchor": "end", class: "tiny", text: "+" + (advs.length - cap) }));
    const sideText = b.side === "any" ? "docks at any pier" : (b.side || "?") + " side";
    g.append(S("title", { text: `Boat ${i + 1} (${sideText}, ${cap} seats): ` + (advs.length ? advs.map((c) => ADV_NAME[c] || c).join(", ") : "empty") + (advs.length >= cap ? " · full" : "") }));
    g.append(S("rect", { x: -2, y: -6, width: 154, height: 60, rx: 6, fill: "transparent", class: "node-shape", stroke: "none" }));
    makeHot(g, "boat:" + (i + 1), hot, ctx, picker, "Boat " + (i + 1));
    return g;
  }

  function drawCove(view, ctx, hot, picker, narrow) {
    const W = narrow ? 520 : 1000;
    const boats = arr(view.boats).map((b) => obj(b));
    const piers = obj(view.piers);
    const slots = Object.keys(piers);
    const townH = 112, pH = narrow ? 196 : 220;
    // boats still sailing: the right-side ones on the right, the others (left side, and Secret Stash's Boat 7
    // that docks anywhere) on the left; the sea grows with the boats a module adds (issue 34: 7-9 were cut off)
    const left = [], right = [];
    boats.forEach((b, i) => ((b.side === "right" || (!b.side && i >= boats.length / 2)) ? right : left).push(i));
    const perRow = 3, rowsOf = (n) => Math.max(1, Math.ceil(n / perRow));
    const rowH = !narrow && Math.max(left.length, right.length) > 3 ? 80 : 100;
    const H = narrow ? townH + pH + 20 + (rowsOf(left.length) + rowsOf(right.length)) * 100 + 24
      : Math.max(440, townH + 22 + Math.max(left.length, right.length) * rowH + 34);
    const svg = S("svg", { viewBox: `0 0 ${W} ${H}`, class: "board-svg mc-cove", role: "group", "aria-label": "The cove" });
    svg.append(S("rect", { x: 0, y: 0, width: W, height: H, rx: 10, fill: "#b9d7e6" }));
    // the town: a strip of land with the Faction Halls and the Lair
    svg.append(S("path", { d: `M0 10 Q0 0 10 0 L${W - 10} 0 Q${W} 0 ${W} 10 L${W} ${townH - 10} Q${W / 2} ${townH + 14} 0 ${townH - 10} Z`, fill: "#e8dcc0", stroke: "#b5a27a", "stroke-width": 2 }));
    const halls = obj(view.halls);
    const hallKeys = FACTIONS.filter((c) => c in halls).concat(Object.keys(halls).filter((c) => !FACTIONS.includes(c)));
    const hw = narrow ? 86 : 120, hx0 = narrow ? 10 : 210;
    svg.append(S("text", { x: narrow ? 10 : 20, y: narrow ? 14 : 26, class: "title", text: "Faction Halls" + (narrow ? "" : "") }));
    if (!narrow) svg.append(S("text", { x: 20, y: 46, class: "small", text: "shields pay each Market" }));
    hallKeys.forEach((c, i) => {
      const x = hx0 + i * (hw + 6), y = narrow ? 22 : 12;
      const g = S("g", { class: "hall", "data-hall": c });
      g.append(S("path", { d: `M${x} ${y + 26} L${x + hw / 2} ${y} L${x + hw} ${y + 26} L${x + hw} ${y + 78} L${x} ${y + 78} Z`, fill: "#fffaf0", stroke: colour(c), "stroke-width": 3, class: "node-shape" }));
      g.append(S("text", { x: x + hw / 2, y: y + 24, "text-anchor": "middle", class: "tiny", text: nice(c) }));
      const n = num(halls[c], 0);
      const per = Math.min(n, 6);
      for (let k = 0; k < per; k++) g.append(meeple(x + 12 + (k % 3) * 14 + (narrow ? 0 : 10), y + 40 + Math.floor(k / 3) * 22, c, 0.8));
      g.append(S("text", { x: x + hw - 8, y: y + 70, "text-anchor": "end", class: "count", text: n }));
      g.append(S("title", { text: `${nice(c)} Faction Hall: ${plural(n, ADV_NAME[c] || "adventurer")}` }));
      makeHot(g, "hall:" + c, hot, ctx, picker, "Sponsor the " + c + " faction");
      svg.append(g);
    });
    {
      const x = hx0 + hallKeys.length * (hw + 6), y = narrow ? 22 : 12, lw = narrow ? W - x - 10 : 130;
      const n = num(view.lair, 0);
      const g = S("g", { class: "lair" });
      g.append(S("path", { d: `M${x} ${y + 78} L${x} ${y + 30} Q${x + lw / 2} ${y - 6} ${x + lw} ${y + 30} L${x + lw} ${y + 78} Z`, fill: "#4a4540", stroke: "#222", "stroke-width": 2 }));
      g.append(S("text", { x: x + lw / 2, y: y + 26, "text-anchor": "middle", class: "on-dark tiny", text: "Lair" }));
      for (let k = 0; k < Math.min(n, 6); k++) g.append(meeple(x + 14 + (k % 3) * 14, y + 42 + Math.floor(k / 3) * 22, ROGUE, 0.8));
      g.append(S("text", { x: x + lw - 8, y: y + 70, "text-anchor": "end", class: "on-dark count", text: n }));
      const rcs = rogueCards(view);
      g.append(S("title", { text: `The Lair: ${plural(n, "Rogue")}` + (rcs.length ? ` · Rogue card${rcs.length > 1 ? "s" : ""} ${rogueText(view)}` : "") }));
      svg.append(g);
      if (!narrow) {
        const bag = obj(view.bag);
        const bx = x + lw + 14;
        svg.append(S("text", { x: bx, y: 26, class: "small bold", text: "Bag" }));
        Object.entries(bag).forEach(([c, k], j) => {
          svg.append(meeple(bx + 8 + (j % 3) * 34, 48 + Math.floor(j / 3) * 26, c, 0.75), S("text", { x: bx + 16 + (j % 3) * 34, y: 52 + Math.floor(j / 3) * 26, class: "tiny", text: num(k, 0) }));
        });
      }
    }
    // piers: jetties from the town into the water, each slot with its customers and docked boat
    const pierBase = (id) => str(id).split("-")[0];
    const groups = [];
    for (const id of slots) {
      const p = pierBase(id);
      let grp = groups.find((q) => q.pier === p);
      if (!grp) groups.push((grp = { pier: p, slots: [] }));
      grp.slots.push(id);
    }
    const px0 = narrow ? 10 : 240, pw = narrow ? 500 : 520;
    const slotW = pw / Math.max(1, slots.length);
    const pTop = townH - 4;
    let si = 0;
    const docked = {};
    for (const grp of groups) {
      const gx = px0 + si * slotW, gw = grp.slots.length * slotW;
      const pg = S("g", { class: "pier", "data-pier": grp.pier });
      pg.append(S("rect", { x: gx + 6, y: pTop, width: gw - 12, height: 26, rx: 4, fill: "#a9784e", stroke: "#5d3b1f", "stroke-width": 1.5, class: "node-shape" }));
      const pd = PIER[grp.pier] || { short: nice(grp.pier), note: "" };
      const fits = !narrow || gw > 150;
      pg.append(S("text", { x: gx + gw / 2, y: pTop + 18, "text-anchor": "middle", class: fits ? "on-dark bold" : "on-dark small bold", text: fits ? pd.short : pd.short.replace(" Market", "") }));
      pg.append(S("text", { x: gx + gw / 2, y: pTop + 40, "text-anchor": "middle", class: "tiny", text: fits ? pd.note : pd.note.replace(" goods", "").replace(" good", "").replace(" Corruption", " Corr.") }));
      pg.append(S("title", { text: (pd.name || pd.short) + (pd.note ? ": " + pd.note : "") }));
      makeHot(pg, "pier:" + grp.pier, hot, ctx, picker, "Sell at " + pd.short);
      svg.append(pg);
      for (const id of grp.slots) {
        const x = px0 + si * slotW + slotW / 2;
        const pier = obj(piers[id]);
        const g = S("g", { class: "slot", "data-slot": id });
        g.append(S("rect", { x: x - 16, y: pTop + 46, width: 32, height: pH - 70, fill: "#b88a5e", stroke: "#5d3b1f", "stroke-width": 1.2 }));
        for (let k = 1; k < 8; k++) g.append(S("line", { x1: x - 16, y1: pTop + 46 + k * (pH - 70) / 8, x2: x + 16, y2: pTop + 46 + k * (pH - 70) / 8, stroke: "#7a5433", "stroke-width": 0.8 }));
        const cust = arr(pier.customers);
        const cbW = Math.min(slotW - 10, 110);
        g.append(S("rect", { x: x - cbW / 2, y: pTop + 52, width: cbW, height: 64, rx: 8, fill: "#fffaf0", stroke: "#8a7a55", "stroke-width": 2, class: "node-shape" }));
        g.append(S("text", { x, y: pTop + 66, "text-anchor": "middle", class: "tiny", text: cust.length ? "customers" : narrow ? "empty" : "no customers" }));
        cust.slice(0, 8).forEach((c, k) => g.append(meeple(x - (Math.min(4, cust.length) - 1) * 11 + (k % 4) * 22, pTop + 86 + Math.floor(k / 4) * 22, c, 0.95)));
        const bn = pier.boat;
        if (bn !== null && bn !== undefined) {
          docked[bn] = id;
          const by = pTop + pH - 26;
          g.append(S("path", { d: `M${x - 40} ${by} L${x + 40} ${by} L${x + 30} ${by + 22} L${x - 30} ${by + 22} Z`, fill: "#8d5a33", stroke: "#3b2f1e", "stroke-width": 1.5 }));
          g.append(S("text", { x, y: by + 16, "text-anchor": "middle", class: "on-dark tiny", text: "Boat " + bn }));
        } else {
          g.append(S("rect", { x: x - 40, y: pTop + pH - 26, width: 80, height: 22, rx: 4, fill: "none", stroke: "#2f6d8e", "stroke-dasharray": "4 3" }));
          g.append(S("text", { x, y: pTop + pH - 11, "text-anchor": "middle", class: "tiny water", text: "free berth" }));
        }
        const side = str(id).split("-")[1];
        g.append(S("title", { text: slotName(id) + ": " + (bn ? "boat " + bn : "no boat") + " · customers " + (cust.join(", ") || "none") + (side ? "" : "") }));
        makeHot(g, ["slot:" + id, "pier:" + grp.pier], hot, ctx, picker, slotName(id));
        svg.append(g);
        si++;
      }
    }
    // narrow: each side's boats in rows of three under the piers; wide: a column each side of the piers
    const rightTop = townH + pH + 20 + rowsOf(left.length) * 100;
    const place = (list, col) => list.forEach((i, k) => {
      const b = boats[i];
      let x, y;
      if (narrow) { x = 10 + (k % perRow) * 170; y = (col ? rightTop : townH + pH + 20) + Math.floor(k / perRow) * 100; }
      else { x = col ? W - 166 : 16; y = townH + 22 + k * rowH; }
      if (b.docked_at || docked[i + 1]) {
        svg.append(S("rect", { x, y: y - 4, width: 150, height: 56, rx: 8, fill: "none", stroke: "#5f7f93", "stroke-dasharray": "5 4" }));
        svg.append(S("text", { x: x + 75, y: y + 16, "text-anchor": "middle", class: "tiny water", text: `Boat ${i + 1} docked` }));
        // the pier on one line, its side under it: a phone's larger type does not fit both in the boat's width
        const [pier, side] = str(b.docked_at || docked[i + 1]).split("-");
        svg.append(S("text", { x: x + 75, y: y + 31, "text-anchor": "middle", class: "tiny water", text: "at " + (PIER[pier] ? PIER[pier].short : nice(pier)) }));
        if (side) svg.append(S("text", { x: x + 75, y: y + 46, "text-anchor": "middle", class: "tiny water", text: "(" + side + ")" }));
      } else svg.append(boatPiece(view, b, i, x, y, hot, ctx, picker));
    });
    place(left, 0); place(right, 1);
    if (narrow) {
      svg.append(S("text", { x: 12, y: townH + pH + 12, class: "tiny water", text: "left-side boats" }));
      svg.append(S("text", { x: 12, y: rightTop - 8, class: "tiny water", text: "right-side boats" }));
    } else {
      svg.append(S("text", { x: 16, y: H - 12, class: "tiny water", text: "◂ boats from the left" }));
      svg.append(S("text", { x: W - 16, y: H - 12, "text-anchor": "end", class: "tiny water", text: "boats from the right ▸" }));
    }
    if (view.drawn) {
      const bw = narrow ? 230 : 180, dx = narrow ? W - bw - 10 : W / 2 - bw / 2, dy = narrow ? H - 46 : H - 58;
      const g = S("g", { class: "drawn" });
      g.append(S("rect", { x: dx, y: dy, width: bw, height: 40, rx: 8, fill: "#fff1c9", stroke: "#d6a530", "stroke-width": 2 }));
      g.append(meeple(dx + 22, dy + 22, view.drawn, 1.1));
      g.append(S("text", { x: dx + 40, y: dy + 25, class: "small", text: "drawn: " + (ADV_NAME[view.drawn] || nice(view.drawn)) }));
      svg.append(g);
    }
    return svg;
  }

  // ---- Town Square (Townsfolk), decks, bag ----
  function tfCard(x, y, w, h, t, hot, ctx, picker, key) {
    const g = S("g", { class: "tf", transform: `translate(${x},${y})` });
    const tf = TF[t] || { colour: "", cost: null, icons: [] };
    const c = tf.colour, cost = tf.cost;
    g.append(S("rect", { x: 0, y: 0, width: w, height: h, rx: 7, fill: "#fffaf0", stroke: colour(c), "stroke-width": 2.5, class: "node-shape" }));
    g.append(S("rect", { x: 0, y: 0, width: w, height: 8, rx: 3, fill: colour(c) }));
    const name = tfName(t);
    g.append(S("text", { x: w / 2, y: 24, "text-anchor": "middle", class: name.length > 12 ? "tiny bold" : "small bold", text: name }));
    (tf.icons.length ? tf.icons : (c ? [c] : [])).forEach((ic, k, all) => g.append(meeple(w / 2 - (all.length - 1) * 10 + k * 20, h - 18, ic, 0.8)));
    if (cost !== null) { g.append(coin(16, h - 16, 9)); g.append(S("text", { x: 16, y: h - 12, "text-anchor": "middle", class: "on-dark tiny", text: cost })); }
    g.append(S("title", { text: name + (cost !== null ? ` · costs ${cost} gold` : "") + (c ? ` · ${c}` : "") }));
    if (key) makeHot(g, key, hot, ctx, picker, name);
    return g;
  }
  function drawTown(view, ctx, hot, picker, narrow) {
    const W = narrow ? 520 : 1000;
    const sq = arr(view.town_square);
    const cw = narrow ? 118 : 130, chh = 84;
    const H = narrow ? 214 : 130;
    const svg = S("svg", { viewBox: `0 0 ${W} ${H}`, class: "board-svg mc-town", role: "group", "aria-label": "The Town Square" });
    svg.append(S("rect", { x: 0, y: 0, width: W, height: H, rx: 10, fill: "#efe4cc" }));
    svg.append(S("text", { x: 12, y: 22, class: "title", text: "Town Square · Townsfolk" }));
    sq.forEach((t, i) => svg.append(tfCard(12 + i * (cw + 8), 32, cw, chh, t, hot, ctx, picker, "tf:" + t)));
    if (!sq.length) svg.append(S("text", { x: 12, y: 60, class: "small", text: "no Townsfolk in the square" }));
    const ix = narrow ? 12 : 12 + Math.max(4, sq.length) * (cw + 8) + 10, iy = narrow ? 140 : 44;
    const lines = [
      `Townsfolk deck: ${num(view.townsfolk_deck, 0)}` + (arr(view.townsfolk_under_deck).length ? ` (${arr(view.townsfolk_under_deck).length} put under it)` : ""),
      `Corruption deck: ${num(view.corruption_deck, 0)} · discards: ${arr(view.corruption_discards).length}`,
      `Rogue card${rogueCards(view).length > 1 ? "s" : ""}: ${rogueCards(view).map((c) => c.name).join(", ") || "?"} · sets: ${str(view.townsfolk_sets).replace("+", " + ") || "?"}`,
    ];
    lines.forEach((l, k) => svg.append(S("text", { x: ix, y: iy + k * 20, class: "small", text: l })));
    if (narrow) {
      const bag = obj(view.bag);
      svg.append(S("text", { x: ix, y: iy + 64, class: "small bold", text: "Bag" }));
      Object.entries(bag).forEach(([c, k], j) => {
        svg.append(meeple(ix + 50 + j * 46, iy + 60, c, 0.75), S("text", { x: ix + 59 + j * 46, y: iy + 64, class: "tiny", text: num(k, 0) }));
      });
    }
    return svg;
  }

  // ---- merchant boards ----
  function boardAlchemist(g, b, y, W, mine, hot, ctx, picker) {
    const slide = arr(b.slide);
    g.append(S("text", { x: 12, y: y + 14, class: "small bold", text: "Slide" }));
    g.append(S("path", { d: `M58 ${y + 20} L${58 + Math.max(6, slide.length) * 24 + 8} ${y + 4}`, stroke: "#8a7a55", "stroke-width": 14, "stroke-linecap": "round", opacity: 0.35 }));
    slide.forEach((c, i) => {
      const cx = 66 + i * 24, cy = y + 18 - i * (16 / Math.max(6, slide.length));
      const m = S("g", { class: "marble" }, [S("circle", { cx, cy, r: 9, fill: colour(c), stroke: "#1d1a16", "stroke-width": 1.2, class: "node-shape" }),
        S("circle", { cx: cx - 3, cy: cy - 3, r: 2.5, fill: "#fff", opacity: 0.6 }), S("title", { text: `marble ${i + 1}: ${c}` })]);
      if (mine) makeHot(m, "pour:" + (i + 1), hot, ctx, picker, `Marble ${i + 1} (${c})`);
      g.append(m);
    });
    if (!slide.length) g.append(S("text", { x: 66, y: y + 18, class: "tiny", text: "empty" }));
    const bag = obj(b.bag);
    let bx = W - 12;
    const bagE = Object.entries(bag).reverse();
    bagE.forEach(([c, n]) => {
      bx -= 34;
      g.append(S("circle", { cx: bx, cy: y + 14, r: 6, fill: colour(c), stroke: "#1d1a16" }), S("text", { x: bx + 9, y: y + 18, class: "tiny", text: num(n, 0) }));
    });
    if (bagE.length) g.append(S("text", { x: bx - 10, y: y + 18, "text-anchor": "end", class: "tiny", text: "bag" }));
    y += 36;
    const caul = obj(b.cauldrons);
    Object.entries(caul).forEach(([c, v], i) => {
      const x = 14 + i * 92;
      const cv = obj(v);
      const node = S("g", { class: "cauldron" });
      node.append(S("path", { d: `M${x} ${y + 6} L${x + 70} ${y + 6} Q${x + 74} ${y + 44} ${x + 35} ${y + 46} Q${x - 4} ${y + 44} ${x} ${y + 6} Z`, fill: "#3d3a36", stroke: colour(c), "stroke-width": 3, class: "node-shape" }));
      node.append(S("rect", { x: x - 3, y: y + 2, width: 76, height: 7, rx: 3, fill: colour(c) }));
      const mn = num(cv.marbles, 0);
      for (let k = 0; k < Math.min(mn, 8); k++) node.append(S("circle", { cx: x + 14 + (k % 4) * 14, cy: y + 20 + Math.floor(k / 4) * 12, r: 5, fill: colour(c), stroke: "#fff", "stroke-width": 0.8 }));
      const ich = num(cv.ichor, 0);
      node.append(S("text", { x: x + 35, y: y + 60, "text-anchor": "middle", class: "tiny", text: `${mn} marble${mn === 1 ? "" : "s"}` }));
      for (let k = 0; k < Math.min(ich, 3); k++) node.append(S("circle", { cx: x + 58 - k * 9, cy: y + 38, r: 4, fill: ADV.ichor, stroke: "#fff", "stroke-width": 0.8 }));
      if (ich) node.append(S("text", { x: x + 35, y: y + 73, "text-anchor": "middle", class: "tiny", fill: ADV.ichor, text: `+ ${ich} Ichor` }));
      node.append(S("title", { text: `${c} cauldron: ${mn} marbles, ${ich} Ichor` }));
      if (mine) makeHot(node, "caul:" + c, hot, ctx, picker, `${nice(c)} cauldron`);
      g.append(node);
    });
    y += 82;
    const extra = [];
    if (b.toxic_waste !== undefined) extra.push(`Toxic Waste: ${num(b.toxic_waste, 0)}`);
    if (num(b.pours_left, 0)) extra.push(`pours left: ${b.pours_left}`);
    if (num(b.ichor_waiting, 0)) extra.push(`Ichor waiting for a cauldron: ${b.ichor_waiting}`);
    if (extra.length) { g.append(S("text", { x: 12, y: y + 4, class: "small", text: extra.join(" · ") })); y += 20; }
    const rest = Object.fromEntries(Object.entries(b).filter(([k]) => !["bag", "slide", "cauldrons", "toxic_waste", "pours_left", "ichor_waiting"].includes(k)));
    return kvText(g, 12, y + 4, rest, W - 24) - 4;
  }
  function pips(g, x, y, s, n) {
    const P = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
      5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };
    for (const [dx, dy] of P[n] || []) g.append(S("circle", { cx: x + dx * s * 0.27, cy: y + dy * s * 0.27, r: s * 0.09, fill: "#fff" }));
    if (!P[n] && n) g.append(S("text", { x, y: y + 5, "text-anchor": "middle", class: "on-dark", text: n }));
  }
  function boardBlacksmith(g, b, y, W, mine, hot, ctx, picker) {
    const dice = arr(b.dice);
    g.append(S("text", { x: 12, y: y + 22, class: "small bold", text: "Dice" }));
    dice.forEach((d0, i) => {
      const d = obj(d0);
      const x = 74 + i * 46;
      const node = S("g", { class: "die" });
      node.append(S("rect", { x: x - 17, y: y + 4, width: 34, height: 34, rx: 6, fill: d.colour ? colour(d.colour) : "#9b948a", stroke: "#1d1a16", "stroke-width": 1.5, class: "node-shape" }));
      pips(node, x, y + 21, 34, num(d.pips, 0));
      if (d.furnace) node.append(S("path", { d: `M${x - 12} ${y + 44} L${x + 12} ${y + 44} L${x} ${y + 52} Z`, fill: colour(d.furnace), stroke: "#1d1a16" }));
      node.append(S("title", { text: `die ${i + 1}: ` + (num(d.pips, 0) ? `${d.pips} ${d.colour || ""}` : "not rolled") + (d.furnace ? ` · in the ${d.furnace} furnace` : "") }));
      if (mine) makeHot(node, "die:" + (i + 1), hot, ctx, picker, `Die ${i + 1}`);
      g.append(node);
    });
    const coal = num(b.coal, 0);
    const cx = Math.max(74 + dice.length * 46 + 10, W - 180);
    g.append(S("path", { d: `M${cx} ${y + 30} l8 -14 l10 4 l8 -10 l10 10 l-4 12 Z`, fill: "#2d2d2d", stroke: "#000" }));
    g.append(S("text", { x: cx + 44, y: y + 27, class: "small", text: `coal ${coal}` + (num(b.placed_this_action, 0) ? ` · placed ${b.placed_this_action}` : "") }));
    y += 60;
    const furn = obj(b.furnaces);
    Object.entries(furn).forEach(([c, h], i) => {
      const x = 14 + i * 118;
      const heat = num(h, 0);
      const node = S("g", { class: "furnace" });
      node.append(S("path", { d: `M${x} ${y + 50} L${x} ${y + 14} Q${x + 50} ${y - 6} ${x + 100} ${y + 14} L${x + 100} ${y + 50} Z`, fill: "#5a4a42", stroke: colour(c), "stroke-width": 3, class: "node-shape" }));
      node.append(S("rect", { x: x + 8, y: y + 30, width: 84, height: 12, rx: 3, fill: "#2b2220" }));
      node.append(S("rect", { x: x + 8, y: y + 30, width: Math.min(84, (84 * heat) / 11), height: 12, rx: 3, fill: heat >= 11 ? "#ff7a00" : heat >= 6 ? "#f0a030" : "#c06030" }));
      node.append(S("line", { x1: x + 8 + 84 * 6 / 11, y1: y + 28, x2: x + 8 + 84 * 6 / 11, y2: y + 44, stroke: "#fff", "stroke-width": 1, opacity: 0.6 }));
      node.append(S("text", { x: x + 50, y: y + 22, "text-anchor": "middle", class: "on-dark tiny", text: `${c} · heat ${heat}` }));
      node.append(S("title", { text: `${c} furnace: heat ${heat} (a small good at 6, a large one at 11)` }));
      if (mine) makeHot(node, "furn:" + c, hot, ctx, picker, `${nice(c)} furnace`);
      g.append(node);
    });
    y += 58;
    const rest = Object.fromEntries(Object.entries(b).filter(([k]) => !["dice", "furnaces", "coal", "placed_this_action"].includes(k)));
    return kvText(g, 12, y + 8, rest, W - 24) - 4;
  }
  function boardCaptain(g, b, y, W, mine, hot, ctx, picker) {
    const ships = arr(b.ships);
    ships.forEach((s0, i) => {
      const s = obj(s0);
      const x = 12 + i * 122;
      const node = S("g", { class: "ship" });
      node.append(S("rect", { x, y, width: 114, height: 76, rx: 8, fill: s.at_sea ? "#d6e9f3" : "#efe4cc", stroke: "#5f7f93", "stroke-width": 1.5, class: "node-shape" }));
      node.append(S("path", { d: `M${x + 10} ${y + 30} L${x + 54} ${y + 30} L${x + 48} ${y + 40} L${x + 16} ${y + 40} Z`, fill: "#8d5a33", stroke: "#3b2f1e" }));
      node.append(S("path", { d: `M${x + 32} ${y + 28} L${x + 32} ${y + 8} L${x + 46} ${y + 26} Z`, fill: "#fffaf0", stroke: "#3b2f1e" }));
      node.append(S("text", { x: x + 60, y: y + 20, class: "tiny bold", text: `Ship ${i + 1}` }));
      node.append(S("text", { x: x + 60, y: y + 36, class: "tiny", text: s.at_sea ? "at sea" : "in port" }));
      const hold = obj(s.hold);
      let k = 0;
      for (const [c, n] of Object.entries(hold)) {
        const hx = x + 12 + k * 21, hy = y + 58;
        if (c === "treasure") node.append(S("path", { d: `M${hx - 7} ${hy - 4} L${hx + 7} ${hy - 4} L${hx + 7} ${hy + 6} L${hx - 7} ${hy + 6} Z`, fill: "#d6a530", stroke: "#6b4f0a" }));
        else node.append(S("rect", { x: hx - 6, y: hy - 6, width: 12, height: 12, rx: 2, fill: colour(c), stroke: "#1d1a16", opacity: num(n, 0) ? 1 : 0.3 }));
        node.append(S("text", { x: hx, y: hy + 19, "text-anchor": "middle", class: "tiny", text: num(n, 0) }));
        k++;
      }
      node.append(S("title", { text: `Ship ${i + 1}: ${s.at_sea ? "at sea" : "in port"} · hold ` + (Object.entries(hold).map(([c, n]) => `${c} ${n}`).join(", ") || "empty") }));
      if (mine) makeHot(node, "ship:" + (i + 1), hot, ctx, picker, `Ship ${i + 1}`);
      g.append(node);
    });
    // the compass, and the treasure's choice of colour
    const cx = Math.max(12 + ships.length * 122 + 48, W - 60), cy = y + 38;
    g.append(S("circle", { cx, cy, r: 34, fill: "#fffaf0", stroke: "#8a7a55", "stroke-width": 2 }));
    FACTIONS.forEach((c, i) => {
      const a = (i * Math.PI) / 2 - Math.PI / 2;
      const node = S("g", { class: "compass-pt" });
      node.append(S("path", { d: `M${cx} ${cy} L${cx + 12 * Math.cos(a - 0.6)} ${cy + 12 * Math.sin(a - 0.6)} L${cx + 30 * Math.cos(a)} ${cy + 30 * Math.sin(a)} L${cx + 12 * Math.cos(a + 0.6)} ${cy + 12 * Math.sin(a + 0.6)} Z`, fill: colour(c), stroke: "#1d1a16", class: "node-shape" }));
      node.append(S("title", { text: c }));
      if (mine) makeHot(node, "treas:" + c, hot, ctx, picker, `Treasure as a large ${c} good`);
      g.append(node);
    });
    y += 86;
    const bits = [];
    if (b.treasures_left !== undefined) bits.push(`treasures left: ${num(b.treasures_left, 0)}`);
    if (b.spins_left !== undefined) bits.push(`spins left: ${num(b.spins_left, 0)}`);
    if (num(b.treasures_to_place, 0)) bits.push(`treasures to place: ${b.treasures_to_place}`);
    if (bits.length) { g.append(S("text", { x: 12, y: y + 6, class: "small", text: bits.join(" · ") })); y += 20; }
    const rest = Object.fromEntries(Object.entries(b).filter(([k]) => !["ships", "treasures_left", "spins_left", "treasures_to_place"].includes(k)));
    return kvText(g, 12, y + 6, rest, W - 24) - 4;
  }
  function boardChronomancer(g, b, y, W, mine, hot, ctx, picker) {
    const grid = arr(b.grid);
    const n = Math.max(1, grid.length), cs = 40, gx = 40, gy = y + 24;
    const workers = arr(b.workers);
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
      const t = arr(grid[r])[c];
      const x = gx + c * cs, yy = gy + r * cs;
      const cell = r * n + c + 1;
      const node = S("g", { class: "tile" });
      node.append(S("rect", { x: x + 1, y: yy + 1, width: cs - 2, height: cs - 2, rx: 5, fill: t === "anomaly" ? "#3a2f4f" : colour(t), stroke: "#1d1a16", "stroke-width": 1.2, class: "node-shape" }));
      if (t === "anomaly") node.append(S("path", { d: `M${x + 12} ${yy + 12} Q${x + cs / 2} ${yy + cs} ${x + cs - 12} ${yy + 12}`, stroke: "#c9a7ff", fill: "none", "stroke-width": 2 }));
      workers.forEach((w, wi) => {
        if (num(w, 0) !== cell) return;
        const wx = x + cs / 2 + (workers.filter((q) => q === w).length > 1 ? (wi ? 8 : -8) : 0);
        node.append(S("circle", { cx: wx, cy: yy + cs / 2, r: 10, fill: "#fffaf0", stroke: "#1d1a16", "stroke-width": 2 }),
          S("text", { x: wx, y: yy + cs / 2 + 4, "text-anchor": "middle", class: "tiny bold", text: wi + 1 }));
      });
      node.append(S("title", { text: `${cellName(cell)}: ${t || "?"}` + workers.map((w, wi) => (num(w, 0) === cell ? ` · worker ${wi + 1}` : "")).join("") }));
      if (mine) makeHot(node, "cell:" + cell, hot, ctx, picker, `Tile ${cellName(cell)}`);
      g.append(node);
    }
    // the push arrows around the grid
    const arrow = (key, x, yy, rot, what) => {
      const node = S("g", { class: "push", transform: `translate(${x},${yy}) rotate(${rot})` });
      node.append(S("path", { d: "M-8 -7 L8 0 L-8 7 Z", fill: "#d8cfbf", stroke: "#8a7a55", class: "node-shape" }));
      node.append(S("title", { text: what }));
      if (mine && makeHot(node, "push:" + key, hot, ctx, picker, what)) node.querySelector("path").setAttribute("fill", "#e0a100");
      g.append(node);
    };
    for (let k = 0; k < n; k++) {
      arrow(`r${k + 1}-left`, gx - 14, gy + k * cs + cs / 2, 0, `Slide into row ${k + 1} from the left`);
      arrow(`r${k + 1}-right`, gx + n * cs + 14, gy + k * cs + cs / 2, 180, `Slide into row ${k + 1} from the right`);
      arrow(`c${k + 1}-top`, gx + k * cs + cs / 2, gy - 13, 90, `Slide into column ${k + 1} from the top`);
      arrow(`c${k + 1}-bottom`, gx + k * cs + cs / 2, gy + n * cs + 13, 270, `Slide into column ${k + 1} from the bottom`);
    }
    const sx = gx + n * cs + 44;
    g.append(S("text", { x: sx, y: gy + 10, class: "small bold", text: "Spare tile" }));
    g.append(S("rect", { x: sx, y: gy + 18, width: cs - 2, height: cs - 2, rx: 5, fill: b.spare === "anomaly" ? "#3a2f4f" : colour(b.spare), stroke: "#1d1a16", "stroke-width": 1.2 }, [S("title", { text: "spare: " + str(b.spare) })]));
    const shards = obj(b.shards);
    g.append(S("text", { x: sx + 100, y: gy + 10, class: "small bold", text: "Time shards" }));
    Object.entries(shards).forEach(([c, k], i) => {
      const x = sx + 100 + i * 34;
      g.append(S("path", { d: `M${x + 8} ${gy + 20} L${x + 16} ${gy + 34} L${x + 8} ${gy + 48} L${x} ${gy + 34} Z`, fill: colour(c), stroke: "#1d1a16" }, [S("title", { text: `${k} ${c} shards` })]));
      g.append(S("text", { x: x + 8, y: gy + 64, "text-anchor": "middle", class: "small", text: num(k, 0) }));
    });
    y = gy + n * cs + 22;
    const rest = Object.fromEntries(Object.entries(b).filter(([k]) => !["grid", "spare", "workers", "shards"].includes(k)));
    return kvText(g, 12, y + 6, rest, W - 24) - 4;
  }
  const BOARDS = { alchemist: boardAlchemist, blacksmith: boardBlacksmith, captain: boardCaptain, chronomancer: boardChronomancer };

  // ---- one merchant's panel ----
  function playerPanel(view, ctx, hot, picker, p, seat, isPed) {
    const W = 495;
    const g = S("g", { class: "player" });
    const acting = view.to_act === seat;
    const mine = acting && ctx.legal && (ctx.legal.size || ctx.legal.length);
    const col = isPed ? PEDDLER : SEAT[seat % SEAT.length];
    const parts = [];
    let y = 0;
    const name = isPed ? "The Peddler (automaton)" : seat === ctx.seat ? `You (seat ${seat})` : ctx.seatLabel ? ctx.seatLabel(seat) : "Seat " + seat;
    const head = S("g", { class: "p-head" });
    head.append(S("text", { x: 24, y: 24, class: "p-name", text: name + (acting ? " · to act" : "") }));
    head.append(S("text", { x: 24, y: 44, class: "small", text: isPed ? `deck ${num(p.deck, 0)} · card ${p.card || "—"}` : p.merchant ? merchantName(p.merchant) : "no merchant yet" }));
    head.append(S("rect", { x: 14, y: 4, width: 300, height: 46, fill: "transparent" }));
    makeHot(head, "seat:" + seat, hot, ctx, picker, name + " draws the Corruption");
    parts.push(head);
    const gold = num(p.gold, 0);
    parts.push(coin(W - 150, 22, 12), S("text", { x: W - 132, y: 29, class: "p-big", text: gold }, [S("title", { text: gold + " gold" })]));
    parts.push(S("text", { x: W - 12, y: 29, "text-anchor": "end", class: "small", text: `hour ${num(p.hour, "?")}` }));
    if (p.on_action) parts.push(S("text", { x: W - 12, y: 46, "text-anchor": "end", class: "tiny", text: "on: " + nice(p.on_action) }));
    y = 58;
    // shelf
    const shelf = obj(p.shelf);
    parts.push(S("text", { x: 14, y: y + 16, class: "small bold", text: "Shelf" }));
    const shelfItems = Object.entries(shelf).filter(([, n]) => num(n, 0) > 0);
    const shelfTotal = shelfItems.reduce((a, [, n]) => a + num(n, 0), 0);
    shelfItems.forEach(([gid, n], i) => {
      const x = 70 + i * 52;
      const node = S("g", { class: "shelf-item" });
      node.append(S("rect", { x: x - 4, y: y + 1, width: 48, height: 24, rx: 5, fill: "#fffaf0", stroke: "#b5a98e", class: "node-shape" }));
      node.append(good(x + 12, y + 13, gid));
      node.append(S("text", { x: x + 26, y: y + 18, class: "small", text: "×" + n }));
      node.append(S("title", { text: `${n} ${goodName(gid)}${n === 1 ? "" : "s"} for sale` }));
      if (acting) makeHot(node, "good:" + gid, hot, ctx, picker, "Sell " + goodName(gid));
      parts.push(node);
    });
    if (!shelfItems.length) parts.push(S("text", { x: 70, y: y + 17, class: "tiny", text: "empty" }));
    else parts.push(S("text", { x: W - 12, y: y + 17, "text-anchor": "end", class: "tiny", text: `${shelfTotal}/10` }));
    y += 32;
    if (!isPed) {
      // shields, Staff, Corruption
      const sh = obj(p.shields);
      parts.push(S("text", { x: 14, y: y + 16, class: "small bold", text: "Shields" }));
      Object.entries(sh).forEach(([c, n], i) => parts.push(shield(84 + i * 24, y + 12, c, num(n, 0))));
      const cc = num(p.corruption_cards, 0);
      const cg = S("g", {}, [S("rect", { x: 200, y: y + 1, width: 18, height: 24, rx: 3, fill: cc ? "#6c3483" : "#eee", stroke: "#3b1f4f" }),
        S("text", { x: 224, y: y + 18, class: "small", text: `${plural(cc, "Corruption card")}` }), S("title", { text: `${cc} Corruption cards` })]);
      parts.push(cg);
      y += 32;
      const your = seat === view.seat && Array.isArray(view.your_corruption) ? view.your_corruption : null;
      if (your && your.length) {
        parts.push(S("text", { x: 14, y: y + 15, class: "tiny bold", text: "yours:" }));
        your.forEach((c, i) => {
          const x = 60 + i * 56;
          if (x > W - 58) return;
          const node = S("g", { class: "corr" }, [S("rect", { x, y: y + 1, width: 52, height: 22, rx: 4, fill: "#efe0f5", stroke: "#6c3483", "stroke-width": 1.5, class: "node-shape" }),
            S("text", { x: x + 26, y: y + 16, "text-anchor": "middle", class: "tiny bold", text: corrShort(c) }), S("title", { text: corrLong(c) })]);
          if (acting) makeHot(node, "corr:" + c, hot, ctx, picker, "Corruption " + c);
          parts.push(node);
        });
        y += 30;
      }
      const staff = arr(p.townsfolk);
      if (staff.length) {
        parts.push(S("text", { x: 14, y: y + 16, class: "small bold", text: "Staff" }));
        staff.forEach((t, i) => {
          const x = 62 + (i % 4) * 107, yy = y + Math.floor(i / 4) * 30;
          const c = TF[t] ? TF[t].colour : "";
          parts.push(S("g", {}, [S("rect", { x, y: yy + 1, width: 102, height: 24, rx: 5, fill: "#fffaf0", stroke: colour(c), "stroke-width": 2 }),
            // a long name is squeezed into the chip (a phone's larger type ran past the panel's edge)
            S("text", Object.assign({ x: x + 51, y: yy + 17, "text-anchor": "middle", class: "tiny bold", text: tfName(t) },
              tfName(t).length > 9 ? { textLength: 94, lengthAdjust: "spacingAndGlyphs" } : {})), S("title", { text: tfName(t) + (c ? " (" + c + ")" : "") })]));
        });
        y += 30 * Math.ceil(staff.length / 4) + 2;
      }
    }
    // action spaces
    if (!isPed && p.merchant) {
      const md = MERCHANT[p.merchant];
      const acts = Object.assign({}, COMMON, md ? md.actions : {});
      for (const k of hot.keys()) if (acting && k.startsWith("do:") && !(k.slice(3) in acts)) acts[k.slice(3)] = null;
      const keys = Object.keys(acts);
      const aw = Math.min(66, (W - 34) / keys.length - 4);
      keys.forEach((a, i) => {
        const x = 12 + i * (aw + 4);
        const last = p.on_action === a;
        const node = S("g", { class: "space" + (last ? " last" : "") });
        node.append(S("rect", { x, y, width: aw, height: 34, rx: 6, fill: last ? col : "#f1e8d4", stroke: "#8a7a55", "stroke-width": 1.2, class: "node-shape" }));
        node.append(S("text", { x: x + aw / 2, y: y + 14, "text-anchor": "middle", class: last ? "on-dark tiny bold" : "tiny bold", text: nice(a) }));
        if (acts[a] !== null) node.append(S("text", { x: x + aw / 2, y: y + 28, "text-anchor": "middle", class: last ? "on-dark tiny" : "tiny", text: acts[a] + " h" }));
        node.append(S("title", { text: nice(a) + (acts[a] !== null ? ` · ${acts[a]} hour${acts[a] === 1 ? "" : "s"}` : "") + (last ? " · the last action (not again now)" : "") }));
        if (acting) makeHot(node, "do:" + a, hot, ctx, picker, nice(a));
        parts.push(node);
      });
      y += 44;
    }
    // the merchant's own board
    if (!isPed) {
      const board = obj(p.board);
      const draw = BOARDS[p.merchant];
      if (Object.keys(board).length) {
        parts.push(S("line", { x1: 12, y1: y - 2, x2: W - 12, y2: y - 2, stroke: "#d8cdb6" }));
        const bg = S("g", { class: "merchant-board" });
        let ny = y + 6;
        try { ny = draw ? draw(bg, board, y + 6, W, !!mine, hot, ctx, picker) : kvText(bg, 12, y + 20, board, W - 24); }
        catch (e) { bg.replaceChildren(); ny = kvText(bg, 12, y + 20, board, W - 24); }
        parts.push(bg);
        y = ny + 8;
      } else if (!p.merchant) {
        const choices = Array.from(hot.keys()).filter((k) => k.startsWith("m:"));
        if (acting && choices.length) {
          parts.push(S("text", { x: 14, y: y + 14, class: "small bold", text: "Choose your merchant:" }));
          y += 22;
          choices.forEach((k, i) => {
            const m = k.slice(2);
            const x = 12 + (i % 2) * 238, yy = y + Math.floor(i / 2) * 52;
            const node = S("g", { class: "merchant-choice" }, [S("rect", { x, y: yy, width: 230, height: 46, rx: 8, fill: "#fffaf0", stroke: "#8a7a55", "stroke-width": 2, class: "node-shape" }),
              S("text", { x: x + 12, y: yy + 20, class: "small bold", text: merchantName(m) }),
              S("text", { x: x + 12, y: yy + 37, class: "tiny", text: MERCHANT[m] ? Object.keys(MERCHANT[m].actions).map(nice).join(" · ") : "" })]);
            makeHot(node, k, hot, ctx, picker, merchantName(m));
            parts.push(node);
          });
          y += Math.ceil(choices.length / 2) * 52 + 4;
        }
      }
      // the supply left to make
      const sup = obj(p.supply);
      const ents = Object.entries(sup);
      if (ents.length) {
        parts.push(S("text", { x: 14, y: y + 14, class: "tiny bold", text: "Supply" }));
        ents.forEach(([gid, n], i) => {
          const x = 66 + i * 53;
          parts.push(good(x, y + 10, gid), S("text", { x: x + 12, y: y + 14, class: "tiny", text: num(n, 0) }));
        });
        y += 24;
      }
    }
    const H = Math.max(y + 8, 100);
    g.append(S("rect", { x: 0, y: 0, width: W - 10, height: H, rx: 10, fill: "#fffdf7", stroke: acting ? "#d6a530" : "#c9bb9b", "stroke-width": acting ? 5 : 2, class: "panel-frame" }));
    g.append(S("rect", { x: 0, y: 0, width: 12, height: H, rx: 6, fill: col }));
    for (const part of parts) g.append(part);
    g.setAttribute("transform", "translate(5,5)");
    return S("svg", { class: "board-svg mc-panel", viewBox: `0 0 ${W} ${H + 10}`, role: "group", "aria-label": name }, [g]);
  }

  const STYLE = `
.mcove { display: flex; flex-direction: column; gap: .5rem; min-width: 0; }
.mcove .mc-head { display: flex; flex-wrap: wrap; gap: .3rem .9rem; font-size: .95rem; padding: .2rem .3rem; }
.mcove .mc-head b { color: #5d3b1f; }
.mcove .mc-pick { display: flex; flex-wrap: wrap; gap: .35rem; align-items: center; background: #fff1c9; border-left: 4px solid #d6a530; padding: .4rem; border-radius: .4rem; }
.mcove .mc-pick[hidden] { display: none; }
.mcove .mc-panels { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-start; }
.mcove.narrow .tiny { font-size: 15px; }
.mcove.narrow .small { font-size: 15.5px; }
.mcove .mc-panels > svg { flex: 0 1 calc(50% - .25rem); min-width: 0; }
@media (max-width: 1100px) { .mcove .mc-panels > svg { flex-basis: 100%; } }
.mcove svg text { font-family: inherit; fill: #2a2118; }
.mcove .title { font-size: 16px; font-weight: 700; }
.mcove .small { font-size: 13px; }
.mcove .tiny { font-size: 13px; }
.mcove .bold { font-weight: 700; }
.mcove .hour { font-size: 13px; font-weight: 700; }
.mcove .count { font-size: 18px; font-weight: 800; }
.mcove .p-name { font-size: 17px; font-weight: 700; }
.mcove .p-big { font-size: 20px; font-weight: 800; }
.mcove svg text.on-dark, .mcove svg .coin { fill: #fff; }
.mcove svg text.water { fill: #1d3a4c; }
.mcove .hot > .node-shape, .mcove .hot.node-shape { stroke: #e0a100 !important; stroke-width: 4 !important; }
.mcove .boat.hot > .node-shape { stroke: #e0a100 !important; stroke-width: 3 !important; fill: rgba(255, 241, 201, .35); }
.mcove .meeple.hot circle, .mcove .meeple.hot path { stroke: #e0a100; stroke-width: 3; }
.mcove .clickable { cursor: pointer; }
.mcove .clickable:hover, .mcove .clickable:focus { filter: drop-shadow(0 0 5px #e0a100); }
`;
  function ensureStyle() {
    if (document.getElementById("mcove-style")) return;
    document.head.append(FT.el("style", { id: "mcove-style", text: STYLE }));
  }

  function drawAll(root, view, ctx) {
    ensureStyle();
    const legal = ctx.legal instanceof Set ? Array.from(ctx.legal) : arr(ctx.legal);
    const hot = byTarget(legal);
    const wrap = FT.el("div", { class: "mcove" });
    const width = root.clientWidth || (typeof window !== "undefined" ? window.innerWidth : 1000);
    const narrow = width < 640;
    if (narrow) wrap.classList.add("narrow");
    const rogues = rogueText(view);
    const head = FT.el("div", { class: "mc-head" }, [
      FT.el("span", {}, [FT.el("b", { text: "Day " }), `${num(view.day, "?")} of ${num(view.days, 3)}`]),
      FT.el("span", {}, [FT.el("b", { text: "Stage " }), nice(view.stage || "?") + (view.phase && view.phase !== view.stage ? " · " + nice(view.phase) : "")]),
      rogues ? FT.el("span", {}, [FT.el("b", { text: "Rogues " }), rogues]) : null,
      arr(view.market_order).length ? FT.el("span", {}, [FT.el("b", { text: "Market order " }), arr(view.market_order).map((q) => seatName(view, q)).join(" → ")]) : null,
    ]);
    // a piece's choices go to the table's dock (ctx.picks) when it has one, never over the board
    const pickBox = ctx.picks || FT.el("div", { role: "group", "aria-label": "Choose a move", hidden: true });
    pickBox.classList.add("mc-pick");
    const picker = chooser(pickBox, ctx);
    const sections = ctx.picks ? [head] : [head, pickBox];
    const safe = (f) => { try { return f(); } catch (e) { console.error(e); return null; } };
    sections.push(safe(() => drawClock(view, ctx, narrow ? 520 : 1000)));
    sections.push(safe(() => drawCove(view, ctx, hot, picker, narrow)));
    sections.push(safe(() => drawTown(view, ctx, hot, picker, narrow)));
    const panels = FT.el("div", { class: "mc-panels" });
    const players = arr(view.players);
    // your own board first
    const order = players.map((_, i) => i);
    if (typeof ctx.seat === "number" && ctx.seat < players.length) { order.splice(order.indexOf(ctx.seat), 1); order.unshift(ctx.seat); }
    for (const i of order) { const pn = safe(() => playerPanel(view, ctx, hot, picker, obj(players[i]), i, false)); if (pn) panels.append(pn); }
    if (view.peddler && typeof view.peddler === "object") {
      const pn = safe(() => playerPanel(view, ctx, hot, picker, obj(view.peddler), players.length, true));
      if (pn) panels.append(pn);
    }
    sections.push(panels);
    for (const s of sections) if (s) wrap.append(s);
    root.replaceChildren(wrap);
  }

  let last = null, resizeTimer = null, lastNarrow = null;
  FT.register("merchants-cove", {
    init,
    label,
    draw(root, view, ctx) {
      view = obj(view);
      ctx = Object.assign({}, ctx, { view });
      MOVES = obj(ctx.notes);
      last = { root, view, ctx };
      try { drawAll(root, view, ctx); }
      catch (e) {
        console.error(e);
        if (FT.renderers.generic) FT.renderers.generic.draw(root, view, ctx);
      }
      lastNarrow = (root.clientWidth || 1000) < 640;
      if (!resizeTimer && typeof window !== "undefined") {
        resizeTimer = true;
        window.addEventListener("resize", () => {
          clearTimeout(resizeTimer);
          resizeTimer = setTimeout(() => {
            if (!last) return;
            const n = (last.root.clientWidth || 1000) < 640;
            if (n !== lastNarrow) FT.renderers["merchants-cove"].draw(last.root, last.view, last.ctx);
          }, 200);
        });
      }
    },
  });
})();
