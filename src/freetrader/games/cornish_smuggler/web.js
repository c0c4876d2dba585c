// Cornish Smuggler: the map of West Cornwall (Penwith and Mount's Bay) with its roads, sea spaces and Merchants,
// every counter, Customs Officer, Goods Shape and ship; each player's hold and storehouses as grids; the
// Characters, the Customs Track, the Gold Wheel and your own Secrets.
//
// The client only ever gets views, which name places, ships, storehouses and cards by id. The board facts
// (names, kinds, sizes, risks, roads, sea lanes, hold grids, card names and texts) come from the server,
// GET /api/games/cornish-smuggler/components, built by web.py from the game's data files (or a data pack);
// this file copies none of them. The x/y positions and colours are the drawing's own, in data/drawing.toml.
// Anything a view names that the components do not list is still shown, by a readable form of its id.
"use strict";
(function () {
  const S = FT.svg;

  // ---- board data: GET /api/games/cornish-smuggler/components (web.py, from data/*.toml); set by init() ----
  let LOCS = {}, SEAS = {}, SHIPS = {}, STORES = {}, SHAPES = {}, CHARS = {}, SECRETS = {};
  let TRACK = { discovery: [], bribe: [], new_officer: [] };
  let WAREHOUSE = "";  // the location of the Customs Warehouse
  let SCILLY = "";     // no Customs at a landing there
  // the Goods Price List exactly as the rules read it (web.py price_list): PRICES[town size][goods size][row] = [gold, rep]
  let PACKINGS = {};  // PACKINGS[hold id][shape ids sorted, space-separated] = ["01.1..", ...] (web.py)
  let PRICES = {}, PRICE_COLS = {}, ROW_COST = [0, 1, 2], ROWS = ["top", "middle", "bottom"];
  // the drawing's own layout and colours (data/drawing.toml): positions on a 1000 x 640 map, label placement
  // [dx, dy, anchor], the mainland's coast as [x, y] points
  let POS = {}, LABEL = {}, DECK_COLOURS = {}, UP_COUNTY = "", WATER = [], COAST = [];

  function init(c) {
    c = obj(c);
    LOCS = obj(c.locations); SEAS = obj(c.seas); SHIPS = obj(c.ships); STORES = obj(c.storehouses);
    SHAPES = obj(c.shapes); CHARS = obj(c.characters); SECRETS = obj(c.secrets);
    const t = obj(c.track);
    TRACK = { discovery: arr(t.discovery), bribe: arr(t.bribe), new_officer: arr(t.new_officer) };
    WAREHOUSE = String(c.warehouse || ""); SCILLY = String(c.scilly || "");
    PRICES = obj(c.prices); PRICE_COLS = obj(c.price_columns); PACKINGS = obj(c.packings);
    if (arr(c.row_cost).length) ROW_COST = arr(c.row_cost);
    if (arr(c.rows).length) ROWS = arr(c.rows);
    const d = obj(c.drawing);
    POS = obj(d.position); LABEL = obj(d.label); DECK_COLOURS = obj(d.deck_colours);
    UP_COUNTY = String(d.up_county || ""); WATER = arr(d.water); COAST = arr(d.coast);
    for (const deck of arr(c.decks)) if (!DECK_COLOURS[deck]) DECK_COLOURS[deck] = "#666";
  }

  const W = 1000, H = 640;
  const COLOURS = ["#c0392b", "#2166ac", "#1e8449", "#b7950b", "#7d3c98", "#ca6f1e"];
  const SEA_FILL = "#bcd8e6";

  // ---- small helpers --------------------------------------------------------------------------------
  const arr = (x) => (Array.isArray(x) ? x : []);
  const obj = (x) => (x && typeof x === "object" && !Array.isArray(x) ? x : {});
  const num = (x, d) => (typeof x === "number" && isFinite(x) ? x : d);
  function nice(id) {
    return String(id === null || id === undefined ? "" : id).replace(/[-_]+/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
  }
  function nameOf(id) {
    const t = LOCS[id] || SEAS[id] || CHARS[id] || SECRETS[id] || SHIPS[id] || STORES[id];
    return t ? t.name : nice(id);
  }
  function colour(seat) { return seat === null || seat === undefined || seat < 0 ? "#8c8c8c" : COLOURS[seat % COLOURS.length]; }
  function words(text, width, max) {
    const out = [];
    let line = "";
    for (const w of String(text || "").split(/\s+/)) {
      if (!w) continue;
      if (line && (line + " " + w).length > width) { out.push(line); line = w; } else line = line ? line + " " + w : w;
    }
    if (line) out.push(line);
    if (max && out.length > max) { out.length = max; out[max - 1] = out[max - 1].replace(/.{0,2}$/, "…"); }
    return out;
  }
  function who(ctx, seat) {
    const s = ctx.table && ctx.table.seats ? ctx.table.seats[seat] : null;
    if (seat === ctx.seat) return (s && s.name ? s.name : "Seat " + seat) + " (you)";
    if (s && s.kind && s.kind !== "human") return "Seat " + seat + " (" + s.kind + " bot)";
    if (s && s.name) return s.name + " (seat " + seat + ")";
    return "Seat " + seat;
  }

  // ---- the legal moves, as the server describes them (web.py moves, sent beside legal as ctx.notes) ----
  // {notation: {verb, label, targets: {role: id}, cost: {resource: n}, pays: {resource: n}, note}}: the
  // page reads what a move does and costs from these, never from its notation or a card's text
  let MOVES = {};
  const moveOf = (n) => obj(MOVES[n]);
  // a move's parts: its verb, the thing it is about (its id and role: goods, officer, character...), the
  // place it goes to, and the way of paying it was chosen with ("with": influence, gold, reputation)
  function parse(n) {
    const m = moveOf(n), t = obj(m.targets);
    const role = Object.keys(t).find((k) => k !== "to" && k !== "with") || "";
    return { verb: String(m.verb || ""), item: role ? String(t[role]) : "", role, to: String(t.to || ""), pay: String(t.with || "") };
  }
  const isPlace = (id) => !!(LOCS[id] || SEAS[id]);
  const ROLE_KEYS = { place: "p", goods: "g", officer: "o", character: "c", ship: "s", storehouse: "h", deck: "d", secret: "x" };
  // the thing on the board a legal move is about, as a key: place, goods, character, officer, ship, storehouse, deck, secret
  function targetOf(n) {
    const a = parse(n);
    if (a.to && isPlace(a.to)) return "p:" + a.to;
    return ROLE_KEYS[a.role] ? ROLE_KEYS[a.role] + ":" + a.item : null;
  }

  function goodsName(view, gid) {
    const g = arr(view && view.goods).find((x) => x && x.id === gid);
    return g ? nice(g.shape) + " (" + g.size + ")" : gid;
  }
  const cap = (s) => String(s || "").charAt(0).toUpperCase() + String(s || "").slice(1);
  // what a move costs, as the engine charges it: "1 Influence + 3 Gold"
  function payText(n) { return FT.amounts(moveOf(n).cost); }
  // a move as people say it (web.py names it): "Sail → Mount's Bay — 1 Influence", "Spend 2 Influence to hide"
  function label(n, view, notes) {
    if (notes) MOVES = obj(notes);  // the table's current moves (the same draw() got)
    const m = moveOf(n);
    if (!m.label) return n;
    return m.label + (parse(n).pay ? " — " + payText(n) : "");
  }

  // ---- holds: which cells each Goods Shape takes comes from the engine (web.py hold_packings) ---------
  function cellsOf(rows) {  // a grid's usable cells in row-major order: the order the served packings use
    const out = [];
    arr(rows).forEach((row, r) => String(row).split("").forEach((ch, c) => { if (ch === "#") out.push([r, c]); }));
    return out;
  }
  // the packing drawn for each hold and contents: the player's pick among the served ones (a click on the
  // hold shows the next). The rulebook lets Goods be repositioned at any time, so this is no Action.
  let PICKS = {};
  try { PICKS = obj(JSON.parse(localStorage.getItem("cornish-packings") || "{}")); } catch (e) { PICKS = {}; }
  function packKey(inside) { return inside.map((g) => String(g.shape)).sort().join(" "); }
  function packingsOf(holdId, inside) { return arr(obj(PACKINGS[holdId])[packKey(inside)]); }
  function nextPacking(holdId, inside) {
    const k = holdId + "|" + packKey(inside), n = packingsOf(holdId, inside).length;
    PICKS[k] = (num(PICKS[k], 0) + 1) % Math.max(1, n);
    try { localStorage.setItem("cornish-packings", JSON.stringify(PICKS)); } catch (e) { /* private mode */ }
    if (LAST) draw(LAST.root, LAST.view, LAST.ctx);
  }
  // -> {goods id: [[r, c], ...]} from the served packing, or null when none is served for these goods
  function placedIn(holdId, rows, inside) {
    const options = packingsOf(holdId, inside);
    if (!inside.length || !options.length) return null;
    const code = String(options[num(PICKS[holdId + "|" + packKey(inside)], 0) % options.length]);
    const cells = cellsOf(rows);
    if (code.length !== cells.length) return null;
    // pieces in the key's order: by shape id; identical shapes are interchangeable
    const order = inside.slice().sort((x, y) => (x.shape < y.shape ? -1 : x.shape > y.shape ? 1 : x.id < y.id ? -1 : 1));
    const out = {};
    order.forEach((g, k) => { out[g.id] = []; });
    for (let i = 0; i < code.length; i++) {
      const k = parseInt(code[i], 36);
      if (!isNaN(k) && order[k]) out[order[k].id].push(cells[i]);
    }
    return order.every((g) => out[g.id].length) ? out : null;
  }

  // ---- point, then choose ---------------------------------------------------------------------------
  // Click a piece you may act with (your ship, a counter, an officer, a Goods Shape, a character, a card):
  // only its destinations light up; click one; several payments open a chooser with each amount. The side
  // panel offers the same moves grouped by kind, never more than a screenful.
  const KINDS = [["Move", ["sail", "carry", "counter", "escort", "officer", "move", "step"]],
    ["Land", ["land", "unload", "done", "hide", "store", "unstore", "claim"]], ["Sell", ["sell", "price"]],
    ["Hire", ["hire", "place"]], ["Bribe", ["bribe"]], ["Discover", ["discover"]], ["Buy", ["buy", "buy-reputation"]],
    ["Cards", ["motivate", "play", "choose", "decline"]], ["Customs", ["post", "raid", "discard", "remove"]],
    ["Set-up", ["ship", "storehouse", "draw", "keep", "launch"]], ["Pass", ["pass", "honest-work"]]];
  function kindOf(n) {
    const v = parse(n).verb;
    for (const [k, verbs] of KINDS) if (verbs.includes(v)) return k;
    return "Other";
  }
  // the piece a move acts with, as a key ("ship", "g:g07", "n:madron", "o:2", "c:<character>", "x:<secret>"), or ""
  function pieceOf(n) {
    const a = parse(n);
    switch (a.verb) {
      case "sail": return "ship";
      case "carry": case "escort": case "sell": case "unload": case "store": case "unstore": case "claim": case "buy": case "raid":
        return a.role === "goods" ? "g:" + a.item : "";
      case "counter": return a.item ? "n:" + a.item : "";
      case "officer": case "bribe": return a.role === "officer" ? "o:" + a.item : "";
      case "hire": case "motivate": return a.item ? "c:" + a.item : "";
      case "play": return a.item ? "x:" + a.item : "";
      default: return "";
    }
  }
  function pieceName(key, view) {
    if (key === "ship") { const me = obj(arr(view.players)[view.seat]); return (SHIPS[me.ship] || {}).name || "your ship"; }
    const [k, id] = [key.slice(0, 1), key.slice(2)];
    if (k === "g") return goodsName(view, id);
    if (k === "n") return "your counter at " + nameOf(id);
    if (k === "o") return "Customs Officer " + id;
    return nameOf(id);
  }
  const base = (n) => { const a = parse(n); return a.verb + " " + a.item + " " + a.to; };
  function noPay(n) { return moveOf(n).label || n; }

  let SEL = null;        // the selection: {kind}, {piece} or {pay: [notations]}, and its page
  let SEL_KEY = "";      // the decision it was made in: a new decision clears it
  let LAST = null;       // the last draw's arguments, to redraw on a new selection
  let PANEL = null;      // the side panel's last arguments
  function select(sel) {
    SEL = sel;
    if (LAST) draw(LAST.root, LAST.view, LAST.ctx);
    if (PANEL) renderPanel(PANEL.box, PANEL.legal, PANEL.tctx);
  }
  function played(n) { SEL = null; }
  // what a choice costs and pays (the server's move), where the label does not say it already
  function noteOf(ctx, n) {
    const note = parse(n).pay && parse(n).verb !== "price" ? "" : FT.moveNote(moveOf(n));
    return note ? " · " + note : "";
  }

  // the hot keys of the board: pieces to select, or (once one is selected) the places its moves go to
  function buildHot(legal) {
    const hot = new Map();
    const add = (k, mode, n) => {
      if (!k) return;
      if (!hot.has(k)) hot.set(k, { mode, list: [] });
      hot.get(k).list.push(n);
    };
    const piece = SEL && SEL.piece;
    for (const n of legal) {
      const p = pieceOf(n);
      if (piece) {
        if (p !== piece) continue;
        add(p, "selected", n);
        const a = parse(n);
        if (a.to && isPlace(a.to)) add("p:" + a.to, "play", n);
        else if (a.verb === "store" && a.to) add("h:" + a.to, "play", n);
      } else if (p) add(p, "select", n);
      else add(targetOf(n), "play", n);
    }
    return hot;
  }
  // mark `node` hot for the first of `keys` that has moves; a click selects, plays, or opens the payment chooser
  function makeHot(node, keys, hot, ctx, picker, what) {
    for (const k of [].concat(keys)) {
      const h = hot.get(k);
      if (!h) continue;
      node.classList.add("hot");
      if (h.mode === "selected") node.classList.add("selected");
      const tip = h.mode === "select" ? what + ": choose what it does" : h.mode === "selected" ? what + " (selected; click to let go)"
        : what + (h.list.length > 1 ? ": " + h.list.map(payText).join(" or ") : ": " + label(h.list[0], ctx.view));
      FT.clickable(node, tip, () => {
        if (h.mode === "select") select({ piece: k });
        else if (h.mode === "selected") select(null);
        else if (h.list.length === 1) ctx.act(h.list[0]);
        else picker(what, h.list);
      });
      return true;
    }
    return false;
  }
  // the chooser above the board: the ways to pay for one move, each with its amount
  function chooser(box, ctx) {
    return function (what, list) {
      box.hidden = false;
      box.classList.add("cs-paying");
      box.replaceChildren(FT.el("strong", { text: what + ": " }));
      for (const n of list) {
        const text = parse(n).pay ? noPay(n, ctx.view) + " — " + payText(n) : label(n, ctx.view);
        box.append(FT.el("button", { type: "button", class: "pick", "data-action": n, title: n, onclick: () => ctx.act(n) },
          noteOf(ctx, n) ? [text, FT.el("span", { class: "note", text: noteOf(ctx, n) })] : text));
      }
      box.append(FT.el("button", { type: "button", class: "secondary", onclick: () => { box.hidden = true; box.replaceChildren(); } }, "Cancel"));
      const first = box.querySelector("button.pick");
      if (first) first.focus();
    };
  }
  // a selected piece: what it may do, above the board (on a phone the side panel is far below)
  function selectedBox(box, legal, ctx) {
    const key = SEL && SEL.piece;
    const moves = legal.filter((n) => pieceOf(n) === key);
    if (!key || !moves.length) return;
    box.hidden = false;
    const view = ctx.view;
    const places = moves.filter((n) => parse(n).to);
    box.append(FT.el("strong", { text: cap(pieceName(key, view)) + ": " }),
      FT.el("span", { class: "cs-hint", text: places.length ? "click a lit place on the map, or choose here." : "choose what it does." }));
    const c = key.startsWith("c:") ? CHARS[key.slice(2)] : key.startsWith("x:") ? SECRETS[key.slice(2)] : null;
    if (c) box.append(FT.el("p", { class: "cs-card-text", text: cardLine(c) }));
    for (const n of moves) box.append(FT.el("button", { type: "button", class: "pick", "data-action": n, title: n, onclick: () => ctx.act(n) }, label(n, view)));
    box.append(FT.el("button", { type: "button", class: "secondary cs-cancel", onclick: () => select(null) }, "Cancel"));
  }
  function cardLine(c) {
    const bits = [];
    if (typeof c.gold === "number") bits.push(c.gold + " Gold to hire", "+" + c.rep + " Reputation");
    if (c.cost) bits.push((c.timing || c.use === "action" ? "costs " : "costs ") + c.cost);
    if (c.timing) bits.push(nice(c.timing));
    return (c.job ? c.job + ". " : "") + bits.join(" · ") + (c.text ? " — " + c.text : "");
  }

  // ---- pieces ---------------------------------------------------------------------------------------
  function goodsSquare(x, y, g, s) {
    const fill = g && g.owner >= 0 ? colour(g.owner) : "#d9c79a";
    const grp = S("g", { class: "goods", transform: `translate(${x},${y})` });
    grp.append(S("rect", { x: -s / 2, y: -s / 2, width: s, height: s, rx: 2, fill, stroke: "#3b2f1e", "stroke-width": 1.2 }));
    grp.append(S("text", { x: 0, y: s * 0.32, "text-anchor": "middle", class: "goods-size", "font-size": Math.max(13, s * 0.78),
      fill: g && g.owner >= 0 ? "#fff" : "#2a2118", text: g ? g.size : "?" }));
    grp.append(S("title", { text: g ? nice(g.shape) + " " + g.id + ", size " + g.size + (g.owner >= 0 ? ", seat " + g.owner + "'s" : "") : "goods" }));
    return grp;
  }
  function officerPiece(x, y, o) {
    const g = S("g", { class: "officer", transform: `translate(${x},${y})` });
    const bribed = num(o.bribed_by, -1) >= 0;
    if (bribed) g.append(S("circle", { cx: 0, cy: -2, r: 12, fill: "none", stroke: colour(o.bribed_by), "stroke-width": 4 }));
    g.append(S("path", { d: "M-7 9 L-4 -1 L4 -1 L7 9 Z", fill: "#111" }), S("circle", { cx: 0, cy: -6, r: 5, fill: "#111" }));
    g.append(S("title", { text: "Customs Officer " + o.id + (bribed ? ", bribed by seat " + o.bribed_by : "") }));
    return g;
  }
  function boat(x, y, seat, name) {
    // kept inside the map's frame: a ship at a space by the edge (the Irish Merchant's) was cut off
    x = Math.min(Math.max(x, 17), W - 17); y = Math.min(Math.max(y, 18), H - 12);
    const g = S("g", { class: "ship", transform: `translate(${x},${y})` });
    g.append(S("path", { d: "M-15 2 L15 2 L10 10 L-10 10 Z", fill: colour(seat), stroke: "#222", "stroke-width": 1.2 }));
    g.append(S("path", { d: "M-1 0 L-1 -16 L10 0 Z", fill: "#fffaf0", stroke: "#222", "stroke-width": 1 }));
    g.append(S("text", { x: -8, y: -1, "text-anchor": "middle", class: "ship-seat", text: seat }));
    g.append(S("title", { text: name + " (seat " + seat + ")" }));
    return g;
  }

  // ---- the map --------------------------------------------------------------------------------------
  function smooth(points) {
    // a closed Catmull-Rom curve through the coast points
    const n = points.length;
    let d = `M${points[0][0]},${points[0][1]}`;
    for (let i = 0; i < n; i++) {
      const p0 = points[(i - 1 + n) % n], p1 = points[i], p2 = points[(i + 1) % n], p3 = points[(i + 2) % n];
      const c1 = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
      const c2 = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
      d += ` C${c1[0].toFixed(1)},${c1[1].toFixed(1)} ${c2[0].toFixed(1)},${c2[1].toFixed(1)} ${p2[0]},${p2[1]}`;
    }
    return d + " Z";
  }

  function drawMap(view, ctx, hot, picker) {
    const svg = S("svg", { viewBox: `0 0 ${W} ${H}`, class: "board-svg cornish-map", role: "group", "aria-label": "Map of West Cornwall" });
    svg.append(S("rect", { x: 0, y: 0, width: W, height: H, fill: SEA_FILL }));
    // the county goes on past the map's east edge: the one shape meant to be cut by the frame (data-bleed)
    svg.append(S("path", { d: smooth(COAST), fill: "#ece3c8", stroke: "#8a7a55", "stroke-width": 2.5, "data-bleed": "edge" }));
    // the Isles of Scilly: a scatter of islands
    for (const [id, l] of Object.entries(LOCS)) {
      if (l.kind !== "island" || !POS[id]) continue;
      for (const [dx, dy, rx, ry] of [[-8, -6, 22, 14], [16, 10, 12, 8], [-22, 14, 9, 6], [6, -22, 8, 5]]) {
        svg.append(S("ellipse", { cx: POS[id][0] + dx, cy: POS[id][1] + dy, rx, ry, fill: "#ece3c8", stroke: "#8a7a55", "stroke-width": 2 }));
      }
    }
    for (const w of WATER) svg.append(S("text", { x: num(w.x, 0), y: num(w.y, 0), class: "water", "text-anchor": "middle", text: w.text }));

    // sea lanes: between sea spaces and from each port or cove to its sea space
    const lanes = S("g", { class: "lanes" });
    const seen = new Set();
    const lane = (a, b) => {
      const k = [a, b].sort().join("|");
      if (seen.has(k) || !POS[a] || !POS[b]) return;
      seen.add(k);
      lanes.append(S("line", { x1: POS[a][0], y1: POS[a][1], x2: POS[b][0], y2: POS[b][1], stroke: "#4f86a8", "stroke-width": 2.2, "stroke-dasharray": "7 6" }));
    };
    for (const [id, s] of Object.entries(SEAS)) for (const b of s.adj) lane(id, b);
    for (const [id, l] of Object.entries(LOCS)) for (const b of l.sea) lane(id, b);
    svg.append(lanes);
    // roads
    const roads = S("g", { class: "roads" });
    const seenRoad = new Set();
    for (const [id, l] of Object.entries(LOCS)) {
      for (const b of l.land) {
        const k = [id, b].sort().join("|");
        if (seenRoad.has(k) || !POS[id] || !POS[b]) continue;
        seenRoad.add(k);
        roads.append(S("line", { x1: POS[id][0], y1: POS[id][1], x2: POS[b][0], y2: POS[b][1], stroke: "#9b7b4b", "stroke-width": 3.5, "stroke-linecap": "round" }));
      }
    }
    if (POS[UP_COUNTY]) {  // the road on up the county
      const [x, y] = POS[UP_COUNTY];
      roads.append(S("path", { d: `M${x} ${y} L${x + 50} ${y - 40} m-15 1 l15 -1 l-2 15`, stroke: "#9b7b4b", "stroke-width": 3.5, fill: "none", "stroke-linecap": "round" }));
    }
    svg.append(roads);

    // sea spaces and the Merchants
    const goods = arr(view.goods).filter((g) => g && typeof g === "object");
    for (const [id, s] of Object.entries(SEAS)) {
      const [x, y] = POS[id] || [0, 0];
      if (!POS[id]) continue;
      const g = S("g", { class: "sea-node" + (s.merchant ? " merchant" : ""), "data-place": id });
      if (s.merchant) {
        const here = goods.filter((x2) => x2.where === "merchant" && x2.at === id);
        const w = Math.max(170, here.length * 18 + 16);
        g.append(S("rect", { x: x - w / 2, y: y - 28, width: w, height: 56, rx: 10, fill: "#f5efe0", stroke: "#6b5a3a", "stroke-width": 2, class: "node-shape" }));
        g.append(S("text", { x, y: y - 10, "text-anchor": "middle", class: "merchant-name", text: s.name }));
        here.forEach((gd, i) => {
          const sq = goodsSquare(x - (here.length - 1) * 9 + i * 18, y + 12, gd, 16);
          makeHot(sq, "g:" + gd.id, hot, ctx, picker, "Goods " + goodsName(view, gd.id));
          g.append(sq);
        });
        if (!here.length) g.append(S("text", { x, y: y + 16, "text-anchor": "middle", class: "small", text: "sold out" }));
      } else {
        g.append(S("circle", { cx: x, cy: y, r: 20, fill: "#e3f0f6", stroke: "#4f86a8", "stroke-width": 2, class: "node-shape" }));
        const lines = words(s.name, 16, 2);
        lines.forEach((t, i) => g.append(S("text", { x, y: y + 34 + i * 14, "text-anchor": "middle", class: "sea-name", text: t })));
      }
      const hit = s.merchant ? S("rect", { x: x - 85, y: y - 28, width: 170, height: 22, fill: "transparent" }) : S("circle", { cx: x, cy: y, r: 22, fill: "transparent" });
      if (makeHot(hit, "p:" + id, hot, ctx, picker, s.name)) g.classList.add("hot");
      g.append(hit);
      svg.append(g);
    }

    // land locations
    for (const [id, l] of Object.entries(LOCS)) {
      if (!POS[id]) continue;
      const [x, y] = POS[id];
      const g = S("g", { class: "loc " + l.kind, "data-place": id });
      const r = l.size ? 17 : (l.kind === "village" ? 8 : 12);
      if (l.kind === "cove") {
        g.append(S("circle", { cx: x, cy: y, r: r + 5, fill: "none", stroke: "#2b5d7a", "stroke-width": 2.2, "stroke-dasharray": "2 4", "stroke-linecap": "round" }));
      }
      g.append(S("circle", { cx: x, cy: y, r, class: "node-shape", fill: l.size ? "#fffaf0" : (l.kind === "village" ? "#6e5a3a" : "#fffaf0"),
        stroke: l.kind === "port" || l.kind === "island" || l.kind === "cove" ? "#2b5d7a" : "#4a3b22", "stroke-width": l.size ? 3 : 2 }));
      if (l.size) g.append(S("text", { x, y: y + 6, "text-anchor": "middle", class: "loc-size", text: l.size }));
      if (l.risk) {
        g.append(S("rect", { x: x + r * 0.55, y: y - r - 10, width: 24, height: 17, rx: 8, fill: "#2b5d7a" }));
        g.append(S("text", { x: x + r * 0.55 + 12, y: y - r + 3, "text-anchor": "middle", class: "loc-risk", text: "+" + l.risk }));
      }
      const [dx, dy, anchor] = LABEL[id] || [0, r + 16, "middle"];
      g.append(S("text", { x: x + dx, y: y + dy, "text-anchor": anchor, class: "loc-name" + (l.size ? " town" : ""), text: l.name }));
      const kindText = { town: "town", village: "village", port: "port", cove: "Secret Cove", island: "island port" }[l.kind] || l.kind;
      g.append(S("title", { text: l.name + " — " + kindText + (l.size ? ", sells size " + l.size : "") + (l.risk ? ", landing risk +" + l.risk : "") }));
      const hit = S("circle", { cx: x, cy: y, r: Math.max(r + 6, 18), fill: "transparent" });
      if (makeHot(hit, "p:" + id, hot, ctx, picker, l.name)) g.classList.add("hot");
      g.append(hit);
      svg.append(g);
    }

    // pieces on land: one row above each location (Network Counters, Customs Officers, Goods)
    const row = {};
    const add = (loc, kind, item) => { if (POS[loc]) (row[loc] = row[loc] || []).push([kind, item]); };
    arr(view.players).forEach((p, seat) => arr(p && p.counters).forEach((loc) => add(loc, "counter", seat)));
    arr(view.officers).forEach((o) => { if (o && o.at) add(o.at, "officer", o); });
    goods.forEach((g) => { if (g.where === "land") add(g.at, "goods", g); });
    for (const [loc, items] of Object.entries(row)) {
      const [x, y] = POS[loc];
      const l = LOCS[loc] || {};
      const r = l.size ? 17 : (l.kind === "village" ? 8 : 12);
      const step = 17, perRow = 5;
      items.forEach(([kind, item], i) => {
        const inRow = Math.min(perRow, items.length - Math.floor(i / perRow) * perRow);
        const px = x - (l.risk ? 10 : 0) - ((inRow - 1) * step) / 2 + (i % perRow) * step;
        const py = y - r - 12 - Math.floor(i / perRow) * 19;
        if (kind === "counter") {
          const c = S("circle", { cx: px, cy: py, r: 7, fill: colour(item), stroke: "#fff", "stroke-width": 2, class: "counter" });
          if (!(item === ctx.seat && makeHot(c, "n:" + loc, hot, ctx, picker, "Your Network Counter at " + nameOf(loc)))) {
            c.append(S("title", { text: "Network Counter of seat " + item + " at " + nameOf(loc) }));
          }
          svg.append(c);
        } else if (kind === "officer") {
          const piece = officerPiece(px, py, item);
          makeHot(piece, "o:" + item.id, hot, ctx, picker, "Customs Officer " + item.id);
          svg.append(piece);
        } else {
          const sq = goodsSquare(px, py, item, 15);
          makeHot(sq, "g:" + item.id, hot, ctx, picker, "Goods " + goodsName(view, item.id));
          svg.append(sq);
        }
      });
    }
    const warehouse = goods.filter((g) => g.where === "warehouse");
    if (warehouse.length && POS[WAREHOUSE]) {
      const [x, y] = POS[WAREHOUSE];
      const t = S("g", { class: "warehouse" });
      t.append(S("rect", { x: x + 22, y: y + 12, width: 128, height: 22, rx: 6, fill: "#1f3b63" }));
      t.append(S("text", { x: x + 86, y: y + 27, "text-anchor": "middle", class: "warehouse-text", text: "Customs House: " + warehouse.length }));
      t.append(S("title", { text: "Seized goods in the Customs Warehouse: " + warehouse.map((g) => nice(g.shape) + " (" + g.size + ")").join(", ") }));
      warehouse.forEach((gd) => { const sq = S("g"); if (makeHot(sq, "g:" + gd.id, hot, ctx, picker, "Seized goods " + goodsName(view, gd.id))) { sq.append(S("rect", { x: x + 22, y: y + 12, width: 128, height: 22, fill: "transparent" })); t.append(sq); } });
      svg.append(t);
    }
    // ships: at a sea space around it, at a port or cove just off the coast
    const shipsAt = {};
    arr(view.players).forEach((p, seat) => { if (p && p.ship_at) (shipsAt[p.ship_at] = shipsAt[p.ship_at] || []).push(seat); });
    for (const [at, seats] of Object.entries(shipsAt)) {
      if (!POS[at]) continue;
      let [x, y] = POS[at];
      if (LOCS[at] && LOCS[at].sea.length && POS[LOCS[at].sea[0]]) {
        const [sx, sy] = POS[LOCS[at].sea[0]];
        const d = Math.hypot(sx - x, sy - y) || 1;
        x += ((sx - x) / d) * 44; y += ((sy - y) / d) * 44;
      } else if (SEAS[at] && SEAS[at].merchant) x += 85 + 16 + (seats.length - 1) * 16;  // beside the Merchant's box, never on it
      else y -= 30;
      seats.forEach((seat, i) => {
        const p = view.players[seat];
        const b = boat(x + (i - (seats.length - 1) / 2) * 32, y, seat, (SHIPS[p.ship] || {}).name || nice(p.ship));
        if (seat === ctx.seat) makeHot(b, "ship", hot, ctx, picker, (SHIPS[p.ship] || {}).name || "your ship");
        svg.append(b);
      });
    }
    // the landing in progress
    const landing = obj(view.landing);
    if (landing.at && POS[landing.at]) {
      const [x, y] = POS[landing.at];
      svg.append(S("circle", { cx: x, cy: y, r: 30, fill: "none", stroke: "#d35400", "stroke-width": 3, "stroke-dasharray": "6 4", class: "landing" }));
    }
    // heading and the tracks in brief
    const c = obj(view.customs);
    // two short lines left of the Irish Merchant's box (one long line ran into it); no phase id (the prompt
    // says what is being decided)
    const head = [`Turn ${num(view.turn, "?")}`];
    if (view.ending) head.push("last round");
    svg.append(S("text", { x: 12, y: 24, class: "map-head", text: head.join(" · ") }));
    if (view.first_player !== undefined && view.first_player !== null) {
      const fp = ctx.seatLabel ? ctx.seatLabel(view.first_player) : "seat " + view.first_player;
      svg.append(S("text", { x: 12, y: 44, class: "map-sub", text: "First Player: " + words(fp, 34, 1)[0] }));
    }
    svg.append(S("text", { x: W - 12, y: 24, "text-anchor": "end", class: "map-head", text: `Discovery Level ${num(c.discovery, "?")} · Bribe Cost ${num(c.bribe, "?")}` }));
    if (landing.at) svg.append(S("text", { x: W - 12, y: 46, "text-anchor": "end", class: "map-sub", text: `Landing at ${nameOf(landing.at)}: ${arr(landing.goods).length} goods` }));
    // legend
    const lg = S("g", { class: "legend", transform: "translate(262,572)" });
    lg.append(S("circle", { cx: 0, cy: 0, r: 9, fill: "#fffaf0", stroke: "#4a3b22", "stroke-width": 2.5 }), S("text", { x: 16, y: 5, class: "small", text: "town: size" }));
    lg.append(S("rect", { x: -10, y: 14, width: 22, height: 15, rx: 7, fill: "#2b5d7a" }), S("text", { x: 16, y: 26, class: "small", text: "port: risk" }));
    lg.append(S("circle", { cx: 0, cy: 44, r: 9, fill: "none", stroke: "#2b5d7a", "stroke-width": 2, "stroke-dasharray": "2 3" }), S("text", { x: 16, y: 49, class: "small", text: "Secret Cove" }));
    svg.append(lg);
    return svg;
  }

  // ---- holds: a ship's or a storehouse's grid with the Goods Shapes packed into it --------------------
  function pieceFill(gid) {
    const n = parseInt(String(gid).replace(/\D/g, ""), 10) || 0;
    return `hsl(${(n * 47) % 360}, 55%, 62%)`;
  }
  function drawHold(parent, x, y, holdId, rows, inside, cell, view, ctx, hot, picker) {
    rows = arr(rows);
    const many = packingsOf(holdId, inside).length;
    const g = S("g", { class: "hold", transform: `translate(${x},${y})`, "data-hold": holdId, "data-packings": many });
    const cells = cellsOf(rows);
    const width = Math.max(1, ...rows.map((r) => String(r).length)) * cell;
    const height = Math.max(1, rows.length) * cell;
    const grid = S("g", { class: "hold-grid" + (many > 1 ? " rearrange" : "") });
    for (const [r, c] of cells) grid.append(S("rect", { x: c * cell, y: r * cell, width: cell, height: cell, fill: "#f7f1e1", stroke: "#a8997a", "stroke-width": 1 }));
    if (many > 1) {  // your pick of the engine's packings: Goods may be repositioned at any time (rulebook)
      grid.append(S("title", { text: "Click the hold to draw its Goods packed another way (" + many + " ways shown)" }));
      grid.addEventListener("click", () => nextPacking(holdId, inside));
    }
    g.append(grid);
    const placed = cells.length ? placedIn(holdId, rows, inside) : null;
    let extraH = 0;
    inside.forEach((gd, i) => {
      const pg = S("g", { class: "piece" });
      const at = placed && placed[gd.id];
      if (at) {
        for (const [r, c] of at) pg.append(S("rect", { x: c * cell + 1, y: r * cell + 1, width: cell - 2, height: cell - 2, rx: 2, fill: pieceFill(gd.id), stroke: "#3b2f1e", "stroke-width": 1 }));
        const [r0, c0] = at[0];
        pg.append(S("text", { x: c0 * cell + cell / 2, y: r0 * cell + cell * 0.72, "text-anchor": "middle", class: "piece-size", "font-size": cell * 0.62, text: gd.size }));
        pg.append(S("title", { text: nice(gd.shape) + " " + gd.id + ", size " + gd.size }));
        if (many > 1 && !hot.has("g:" + gd.id)) { pg.classList.add("rearrange"); pg.addEventListener("click", () => nextPacking(holdId, inside)); }
      } else {  // no drawing of its place: a square beside the grid
        pg.append(goodsSquare(width + 12 + (i % 4) * (cell + 2), cell / 2 + Math.floor(i / 4) * (cell + 2), gd, cell - 2));
        extraH = Math.max(extraH, (Math.floor(i / 4) + 1) * (cell + 2));
      }
      makeHot(pg, "g:" + gd.id, hot, ctx, picker, "Goods " + goodsName(view, gd.id));
      g.append(pg);
    });
    parent.append(g);
    return { width: width + (placed || !inside.length ? 0 : 4 * (cell + 2) + 12), height: Math.max(height, extraH) };
  }

  function stat(g, x, y, fill, letter, value, title) {
    const s = S("g", { transform: `translate(${x},${y})` });
    s.append(S("circle", { cx: 10, cy: 0, r: 10, fill }), S("text", { x: 10, y: 4.5, "text-anchor": "middle", class: "stat-letter", text: letter }));
    s.append(S("text", { x: 25, y: 6, class: "stat-value", text: value }), S("title", { text: title + ": " + value }));
    g.append(s);
  }

  function playerPanel(view, ctx, seat, hot, picker) {
    const p = obj(arr(view.players)[seat]);
    const goods = arr(view.goods).filter((g) => g && typeof g === "object");
    const byId = new Map(goods.map((g) => [g.id, g]));
    const acting = view.to_act === seat;
    const PW = 500;
    const svg = S("svg", { class: "board-svg cornish-panel" + (acting ? " acting" : ""), role: "group", "aria-label": "Seat " + seat, "data-seat": seat });
    const body = S("g");
    body.append(S("rect", { x: 0, y: 0, width: PW, height: 34, fill: colour(seat) }));
    const tags = [];
    if (acting) tags.push("to act");
    if (p.passed) tags.push("passed");
    if (view.first_player === seat) tags.push("first player");
    body.append(S("text", { x: 12, y: 23, class: "panel-name", text: who(ctx, seat) }));
    body.append(S("text", { x: PW - 12, y: 23, "text-anchor": "end", class: "panel-tags", text: tags.join(" · ") }));
    stat(body, 12, 56, "#d6a530", "G", num(p.gold, "?"), "Gold");
    stat(body, 92, 56, "#5b7fb5", "I", num(p.influence, "?"), "Influence");
    stat(body, 172, 56, "#3f8f5a", "R", num(p.reputation, "?"), "Reputation");
    body.append(S("text", { x: 256, y: 62, class: "panel-small", text: `${arr(p.counters).length} counters · ${num(p.secrets, 0)} secret${p.secrets === 1 ? "" : "s"}` }));
    // the ship and its hold
    let y = 84, x = 12, rowH = 0;
    const ship = SHIPS[p.ship];
    const holdGoods = arr(p.hold).map((id) => byId.get(id) || { id, shape: "", size: "?", owner: seat });
    if (p.ship) {
      body.append(S("text", { x, y, class: "panel-label", text: ship ? ship.name : nice(p.ship) }));
      body.append(S("text", { x, y: y + 14, class: "panel-small", text: p.ship_at ? "at " + nameOf(p.ship_at) : "not at sea" }));
      const d = drawHold(body, x, y + 22, p.ship, ship ? ship.hold : [], holdGoods, 22, view, ctx, hot, picker);
      rowH = d.height + 28;
      x += Math.max(d.width, 8.4 * Math.max((ship ? ship.name : String(p.ship)).length, 10), 6.8 * (3 + (p.ship_at ? nameOf(p.ship_at) : "not at sea").length)) + 24;
    } else {
      body.append(S("text", { x, y, class: "panel-small", text: "no ship yet" }));
      x += 150;
      rowH = 10;
    }
    // storehouses
    for (const sid of arr(p.storehouses)) {
      const st = STORES[sid];
      const inside = goods.filter((g) => g.where === "storehouse" && g.at === sid);
      const w = st ? Math.max(...st.hold.map((r) => r.length)) * 18 : 60;
      if (x + Math.max(w, (st ? st.name : String(sid)).length * 8.4) > PW - 8) { x = 12; y += rowH + 16; rowH = 0; }
      const title = S("text", { x, y, class: "panel-label", text: st ? st.name : nice(sid) });
      title.append(S("title", { text: (st ? st.name + ", " + nameOf(st.at) : nice(sid)) }));
      body.append(title);
      body.append(S("text", { x, y: y + 14, class: "panel-small", text: st ? nameOf(st.at) : "" }));
      const d = drawHold(body, x, y + 22, sid, st ? st.hold : [], inside, 18, view, ctx, hot, picker);
      rowH = Math.max(rowH, d.height + 28);
      x += Math.max(d.width, (st ? st.name : String(sid)).length * 8.4, 6.8 * nameOf(st ? st.at : "").length, 90) + 24;
    }
    y += rowH + 18;
    // hired characters
    const chars = arr(p.characters);
    body.append(S("text", { x: 12, y, class: "panel-label", text: chars.length ? "Characters" : "No characters hired" }));
    y += 8;
    chars.forEach((cid, i) => {
      const ch = CHARS[cid];
      const cx = 12 + (i % 2) * 240, cy = y + Math.floor(i / 2) * 38;
      const face = arr(p.motivated).includes(cid) ? " · face down" : "";
      const cg = S("g", { class: "char-chip", transform: `translate(${cx},${cy})` });
      cg.append(S("rect", { x: 0, y: 0, width: 232, height: 34, rx: 5, fill: face ? "#ece6da" : "#fffaf0", stroke: ch ? DECK_COLOURS[ch.deck] || "#666" : "#666", "stroke-width": 1.5 }));
      cg.append(S("rect", { x: 0, y: 0, width: 7, height: 34, rx: 2, fill: ch ? DECK_COLOURS[ch.deck] || "#666" : "#666" }));
      cg.append(S("text", { x: 13, y: 14, class: "chip-name", text: words(ch ? ch.name : nice(cid), 30, 1)[0] }));
      cg.append(S("text", { x: 13, y: 28, class: "card-sub", text: words(ch ? `${ch.gold} G · +${ch.rep} Rep` + (ch.cost ? " · " + ch.cost : "") + face + " · " + ch.text : "", 40, 1)[0] || "" }));
      cg.append(S("title", { text: ch ? ch.name + (ch.job ? ", " + ch.job : "") + " (" + ch.gold + " Gold, +" + ch.rep + " Reputation" + (ch.cost ? ", costs " + ch.cost : "") + "): " + ch.text : nice(cid) }));
      makeHot(cg, "c:" + cid, hot, ctx, picker, ch ? ch.name : nice(cid));
      body.append(cg);
    });
    y += Math.ceil(chars.length / 2) * 38 + 6;
    svg.setAttribute("viewBox", `0 0 ${PW} ${y}`);
    svg.append(S("rect", { x: 1, y: 1, width: PW - 2, height: y - 2, rx: 8, fill: "#fffdf7", stroke: acting ? "#d6a530" : "#c9bb9b", "stroke-width": acting ? 4 : 2 }));
    svg.append(body);
    return svg;
  }

  // a card; `foot`: lines kept at its bottom (a Character's hiring cost), each cut to the card's width
  function card(x, y, w, h, head, title, sub, text, extra, foot) {
    foot = arr(foot).filter(Boolean);
    const g = S("g", { class: "card", transform: `translate(${x},${y})` });
    g.append(S("rect", { x: 0, y: 0, width: w, height: h, rx: 7, fill: "#fffaf0", stroke: head, "stroke-width": 2, class: "card-rect" }));
    g.append(S("rect", { x: 0, y: 0, width: w, height: 18, rx: 6, fill: head }));
    if (extra) g.append(S("text", { x: w / 2, y: 13, "text-anchor": "middle", class: "card-head", text: extra }));
    let yy = 34;
    for (const line of words(title, Math.floor(w / 8.2), 2)) { g.append(S("text", { x: 6, y: yy, class: "card-title", text: line })); yy += 14; }
    for (const line of words(sub, Math.floor(w / 6.4), 2)) { g.append(S("text", { x: 6, y: yy, class: "card-sub", text: line })); yy += 12; }
    yy += 3;
    const room = Math.max(0, Math.floor((h - yy - 4 - foot.length * 13) / 11.5));
    for (const line of words(text, Math.floor(w / 5.6), room)) { g.append(S("text", { x: 6, y: yy, class: "card-text", text: line })); yy += 11.5; }
    const fit = Math.floor((w - 10) / 6.8);
    foot.forEach((line, i) => g.append(S("text", { x: 6, y: h - 7 - (foot.length - 1 - i) * 13, class: "card-cost",
      text: line.length > fit ? line.slice(0, fit - 1) + "…" : line })));
    g.append(S("title", { text: [title, sub, text].concat(foot).filter(Boolean).join(" — ") }));
    return g;
  }
  const costFoot = (c) => (c ? [`${c.gold} Gold · ${c.rep} Rep`, c.cost] : []);

  function charactersPanel(view, ctx, hot, picker) {
    const chars = obj(view.characters);
    const faceUp = obj(chars.face_up), stacks = obj(chars.stacks);
    const decks = Array.from(new Set(Object.keys(DECK_COLOURS).concat(Object.keys(faceUp), Object.keys(stacks))));
    const PW = 500, cw = 116, ch = 176;
    const svg = S("svg", { class: "board-svg cornish-panel", role: "group", "aria-label": "Characters" });
    const body = S("g");
    body.append(S("text", { x: 12, y: 22, class: "panel-label big", text: "Characters for hire" }));
    body.append(S("text", { x: PW - 12, y: 22, "text-anchor": "end", class: "panel-small", text: `${num(chars.discarded, 0)} discarded` }));
    decks.slice(0, 4).forEach((deck, i) => {
      const x = 10 + i * (cw + 6), y = 34;
      const cid = faceUp[deck];
      const c = CHARS[cid];
      let node;
      if (cid) {
        node = card(x, y, cw, ch, DECK_COLOURS[deck] || "#666", c ? c.name : nice(cid), c ? c.job : "", c ? c.text : "", nice(deck), costFoot(c));
        makeHot(node, "c:" + cid, hot, ctx, picker, "Hire " + (c ? c.name : nice(cid)));
      } else {
        node = S("g", { transform: `translate(${x},${y})` });
        node.append(S("rect", { x: 0, y: 0, width: cw, height: ch, rx: 7, fill: "#eee7d8", stroke: "#b5a98e", "stroke-dasharray": "5 4" }));
        node.append(S("text", { x: cw / 2, y: ch / 2, "text-anchor": "middle", class: "panel-small", text: "none face up" }));
      }
      body.append(node);
      const st = S("g", { transform: `translate(${x},${y + ch + 6})` });
      st.append(S("rect", { x: 0, y: 0, width: cw, height: 22, rx: 5, fill: DECK_COLOURS[deck] || "#666", opacity: 0.85 }));
      st.append(S("text", { x: cw / 2, y: 15.5, "text-anchor": "middle", class: "card-head", text: `${nice(deck)} stack: ${num(stacks[deck], 0)}` }));
      makeHot(st, "d:" + deck, hot, ctx, picker, "Draw from the " + deck + " stack");
      body.append(st);
    });
    let y = 34 + ch + 40;
    // the set-up draw: the cards you drew (yours only) and who is drawing
    const drawing = obj(view.drawing);
    const drawn = arr(view.your_drawn);
    if (drawn.length || drawing.stacks) {
      body.append(S("text", { x: 12, y, class: "panel-label", text: drawn.length ? "You drew — keep one:" : `Seat ${drawing.seat} is drawing (${arr(drawing.stacks).join(", ")})` }));
      y += 8;
      drawn.forEach((cid, i) => {
        const c = CHARS[cid];
        const node = card(10 + i * (cw + 6), y, cw, ch, c ? DECK_COLOURS[c.deck] || "#666" : "#666", c ? c.name : nice(cid), c ? c.job : "", c ? c.text : "", c ? nice(c.deck) : "", costFoot(c));
        makeHot(node, "c:" + cid, hot, ctx, picker, "Keep " + (c ? c.name : nice(cid)));
        body.append(node);
      });
      if (drawn.length) y += ch + 10;
      y += 8;
    }
    svg.setAttribute("viewBox", `0 0 ${PW} ${y}`);
    svg.append(S("rect", { x: 1, y: 1, width: PW - 2, height: y - 2, rx: 8, fill: "#fffdf7", stroke: "#c9bb9b", "stroke-width": 2 }), body);
    return svg;
  }

  function customsPanel(view, ctx, hot, picker) {
    const c = obj(view.customs);
    const PW = 500;
    const svg = S("svg", { class: "board-svg cornish-panel", role: "group", "aria-label": "Customs Track and Gold Wheel" });
    const body = S("g");
    body.append(S("text", { x: 12, y: 22, class: "panel-label big", text: "Customs Track" }));
    body.append(S("text", { x: PW - 12, y: 22, "text-anchor": "end", class: "panel-small", text: `Discovery Level ${num(c.discovery, "?")} · Bribe Cost ${num(c.bribe, "?")}` }));
    // only the spaces this game plays: 2-4 players start past the ones only 5 play
    const end = num(c.track_end, 15), track = num(c.track, 0), first = num(c.track_start, 0);
    // in rows of at most 24 spaces, so that a long track stays readable (48 spaces at 5 players)
    const spaces = end - first + 1, rows = Math.ceil(spaces / 24), perRow = Math.ceil(spaces / rows);
    const cw = Math.min(29, (PW - 24) / perRow), RH = 58;
    for (let i = first; i <= end; i++) {
      const k = i - first, x = 12 + (k % perRow) * cw, ty = 32 + Math.floor(k / perRow) * RH, here = i === track;
      body.append(S("rect", { x, y: ty, width: cw - 2, height: 44, rx: 4, fill: here ? "#1f3b63" : (i < track ? "#d9d2c2" : "#f4efe4"), stroke: "#8b7a5a" }));
      const disc = here ? num(c.discovery, TRACK.discovery[i]) : TRACK.discovery[i];
      const bribe = here ? num(c.bribe, TRACK.bribe[i]) : TRACK.bribe[i];
      body.append(S("text", { x: x + cw / 2 - 1, y: ty + 19, "text-anchor": "middle", class: "track-num" + (here ? " here" : ""), text: disc === undefined ? "" : disc }));
      body.append(S("text", { x: x + cw / 2 - 1, y: ty + 37, "text-anchor": "middle", class: "track-num small" + (here ? " here" : ""), text: bribe === undefined ? "" : "$" + bribe }));
      if (TRACK.new_officer.includes(i)) body.append(S("path", { d: `M${x + cw - 9} ${ty + 4} l3 -6 l3 6 Z`, fill: here ? "#fff" : "#111" }));
      if (i === end) body.append(S("text", { x: x + cw / 2 - 1, y: ty + 56, "text-anchor": "middle", class: "track-num", text: "END" }));
    }
    const dy = (rows - 1) * RH;  // what follows moves down by the extra rows
    body.append(S("text", { x: 12, y: 102 + dy, class: "panel-small", text: "top: Discovery Level · bottom: Bribe Cost · ▲ a new officer" }));
    // the Gold Wheel
    const size = Math.max(1, num(c.wheel_size, 8)), wheel = num(c.wheel, 0);
    const cx = 70, cy = 176 + dy, R = 50;
    body.append(S("text", { x: 12, y: 118 + dy, class: "panel-label", text: "Gold Wheel" }));
    for (let i = 0; i < size; i++) {
      const a0 = -Math.PI / 2 + (2 * Math.PI * i) / size, a1 = a0 + (2 * Math.PI) / size;
      const d = `M${cx} ${cy} L${cx + R * Math.cos(a0)} ${cy + R * Math.sin(a0)} A${R} ${R} 0 0 1 ${cx + R * Math.cos(a1)} ${cy + R * Math.sin(a1)} Z`;
      body.append(S("path", { d, fill: i === wheel ? "#d6a530" : (i === 0 ? "#efe1b8" : "#f7f1e1"), stroke: "#8b7a5a", "stroke-width": 1.5 }));
      const am = (a0 + a1) / 2;
      body.append(S("text", { x: cx + R * 0.68 * Math.cos(am), y: cy + R * 0.68 * Math.sin(am) + 4, "text-anchor": "middle", class: "wheel-num", text: i === 0 ? "S" : i }));
    }
    body.append(S("title", { text: `Gold Wheel: space ${wheel} of ${size} (S = START; passing it moves the Customs Track)` }));
    const officers = arr(view.officers).filter((o) => o && typeof o === "object");
    // still to come: those on spaces ahead of the counter (one on a space a smaller game skips never comes)
    const waiting = TRACK.new_officer.filter((x) => x > track).length;
    const facts = [
      // numbered as the log numbers it ("moves to space 1"): the first box is space 0
      `Customs Track: space ${track} of ${end}` + (first ? ` (this game started on space ${first})` : ""),
      `Customs Officers on the board: ${officers.filter((o) => o.at).length}, waiting: ${waiting}`,
      `Bribed: ${officers.filter((o) => num(o.bribed_by, -1) >= 0).map((o) => "officer " + o.id + " by seat " + o.bribed_by).join(", ") || "none"}`,
      `Seized in the Customs House: ${arr(view.goods).filter((g) => g && g.where === "warehouse").length} goods`,
      `Secrets deck: ${num(view.secrets_deck, "?")} · Bank: ${num(view.bank, "?")} Gold`,
    ];
    // each fact wrapped to the panel's width (a long list of bribes was cut off: issue 34)
    let fy = 146 + dy;
    for (const t of facts) {
      for (const line of words(t, 48, 3)) { body.append(S("text", { x: 140, y: fy, class: "panel-small", text: line })); fy += 16; }
      fy += 4;
    }
    const y = Math.max(236 + dy, fy);
    svg.setAttribute("viewBox", `0 0 ${PW} ${y}`);
    svg.append(S("rect", { x: 1, y: 1, width: PW - 2, height: y - 2, rx: 8, fill: "#fffdf7", stroke: "#c9bb9b", "stroke-width": 2 }), body);
    return svg;
  }

  function secretsPanel(view, ctx, hot, picker) {
    const mine = arr(view.your_secrets);
    const PW = 500, cw = 154, ch = 150;
    const svg = S("svg", { class: "board-svg cornish-panel", role: "group", "aria-label": "Your Secrets" });
    const body = S("g");
    body.append(S("text", { x: 12, y: 22, class: "panel-label big", text: "Your Secrets" }));
    body.append(S("text", { x: PW - 12, y: 22, "text-anchor": "end", class: "panel-small", text: "only you see these" }));
    mine.forEach((sid, i) => {
      const s = SECRETS[sid];
      const node = card(10 + (i % 3) * (cw + 6), 34 + Math.floor(i / 3) * (ch + 8), cw, ch, "#4a2c2c", s ? s.name : nice(sid), s && s.cost ? "costs " + s.cost : "", s ? s.text : "", s ? nice(s.timing) : "Secret");
      makeHot(node, "x:" + sid, hot, ctx, picker, "Play " + (s ? s.name : nice(sid)));
      body.append(node);
    });
    if (!mine.length) body.append(S("text", { x: 12, y: 50, class: "panel-small", text: "You hold no Secrets." }));
    const y = mine.length ? 34 + Math.ceil(mine.length / 3) * (ch + 8) + 4 : 64;
    svg.setAttribute("viewBox", `0 0 ${PW} ${y}`);
    svg.append(S("rect", { x: 1, y: 1, width: PW - 2, height: y - 2, rx: 8, fill: "#fffdf7", stroke: "#c9bb9b", "stroke-width": 2 }), body);
    return svg;
  }

  // set-up: the ships and storehouses still to choose, when a choice is open
  function choicesPanel(view, ctx, hot, picker) {
    const ships = arr(view.ships_to_choose).filter((id) => hot.has("s:" + id));
    const stores = arr(view.storehouses_to_choose).filter((id) => hot.has("h:" + id));
    if (!ships.length && !stores.length) return null;
    const PW = 500;
    const svg = S("svg", { class: "board-svg cornish-panel", role: "group", "aria-label": "Choose a ship or storehouse" });
    const body = S("g");
    body.append(S("text", { x: 12, y: 22, class: "panel-label big", text: ships.length ? "Choose a ship" : "Choose a storehouse" }));
    let x = 12, y = 42, rowH = 0;
    for (const [id, def, key, cell] of ships.map((id) => [id, SHIPS[id], "s:" + id, 16]).concat(stores.map((id) => [id, STORES[id], "h:" + id, 16]))) {
      const rows = def ? def.hold : ["#"];
      const w = Math.max(96, (def ? def.name : String(id)).length * 7.6 + 8, Math.max(...rows.map((r) => r.length)) * cell + 8);
      if (x + w > PW - 8) { x = 12; y += rowH + 12; rowH = 0; }
      const g = S("g", { class: "choice", transform: `translate(${x},${y})` });
      g.append(S("rect", { x: -4, y: -4, width: w, height: rows.length * cell + 40, rx: 6, fill: "#fffaf0", stroke: "#b5a98e", class: "card-rect" }));
      g.append(S("text", { x: 2, y: 10, class: "panel-label", text: def ? def.name : nice(id) }));
      if (def && def.at) g.append(S("text", { x: 2, y: 24, class: "panel-small", text: nameOf(def.at) }));
      drawHold(g, 2, def && def.at ? 30 : 18, id, rows, [], cell, view, ctx, hot, picker);
      makeHot(g, key, hot, ctx, picker, def ? def.name : nice(id));
      body.append(g);
      rowH = Math.max(rowH, rows.length * cell + 40);
      x += w + 10;
    }
    y += rowH + 8;
    svg.setAttribute("viewBox", `0 0 ${PW} ${y}`);
    svg.append(S("rect", { x: 1, y: 1, width: PW - 2, height: y - 2, rx: 8, fill: "#fffdf7", stroke: "#c9bb9b", "stroke-width": 2 }), body);
    return svg;
  }

  const STYLE = `
.cornish { display: flex; flex-direction: column; gap: .5rem; }
.cornish g.hold-grid.rearrange, .cornish g.piece.rearrange { cursor: pointer; }
.cornish text.piece-size { pointer-events: none; }
.cornish .cs-panels { display: flex; flex-wrap: wrap; gap: .5rem; }
.cornish .cs-panels > svg { flex: 0 1 calc(50% - .25rem); min-width: 0; }
@media (max-width: 700px) { .cornish .cs-panels > svg { flex-basis: 100%; } }
.cs-pick { display: flex; flex-wrap: wrap; gap: .35rem; align-items: center; background: #fff1c9; border-left: 4px solid #d6a530; padding: .4rem; border-radius: .4rem; }
.cs-pick[hidden] { display: none; }
.cornish .cs-map { overflow-x: auto; width: 0; min-width: 100%; }
.cornish svg text { font-family: inherit; }
.cornish .water { fill: #4f7f9c; font-size: 17px; font-style: italic; }
.cornish .sea-name { fill: #2e5870; font-size: 13px; font-style: italic; }
.cornish .merchant-name { fill: #3b2f1e; font-size: 14px; font-weight: 700; }
.cornish .loc-name { fill: #2a2118; font-size: 14px; paint-order: stroke; stroke: #ece3c8; stroke-width: 3px; }
.cornish .loc-name.town { font-weight: 700; font-size: 15px; }
.cornish .loc-size { fill: #2a2118; font-size: 17px; font-weight: 700; }
.cornish .loc-risk { fill: #fff; font-size: 13px; font-weight: 700; }
.cornish .map-head { fill: #1d3a4c; font-size: 16px; font-weight: 600; }
.cornish .map-sub { fill: #8a3b00; font-size: 14px; font-weight: 600; }
.cornish .small { fill: #3b3326; font-size: 13px; }
.cornish .goods-size { font-weight: 700; }
.cornish .ship-seat { fill: #222; font-size: 13px; font-weight: 700; }
.cornish .warehouse-text { fill: #fff; font-size: 13px; font-weight: 600; }
.cornish .panel-name { fill: #fff; font-size: 16px; font-weight: 700; }
.cornish .panel-tags { fill: #fff; font-size: 13px; }
.cornish .panel-label { fill: #2a2118; font-size: 13px; font-weight: 700; }
.cornish .panel-label.big { font-size: 16px; }
.cornish .panel-small { fill: #5f574a; font-size: 13px; }
.cornish .stat-letter { fill: #fff; font-size: 13px; font-weight: 700; }
.cornish .stat-value { fill: #2a2118; font-size: 17px; font-weight: 700; }
.cornish .piece-size { fill: #1d1a16; font-weight: 700; }
.cornish .chip-name { fill: #2a2118; font-size: 13px; }
.cornish .card-head { fill: #fff; font-size: 11px; font-weight: 700; }
.cornish .card-title { fill: #2a2118; font-size: 12.5px; font-weight: 700; }
.cornish .card-sub { fill: #5f574a; font-size: 10.5px; font-style: italic; }
.cornish .card-text { fill: #3b3326; font-size: 9.5px; }
.cornish .card-cost { fill: #7a5a12; font-size: 11px; font-weight: 700; }
.cornish .track-num { fill: #3b3326; font-size: 10px; font-weight: 700; }
.cornish .track-num.here { fill: #fff; font-size: 14px; }
.cornish .track-num.small { font-size: 9px; }
.cornish .track-num.here.small { font-size: 11px; }
.cornish .wheel-num { fill: #3b3326; font-size: 11px; font-weight: 700; }
.cornish .hot > .node-shape, .cornish g.hot > .card-rect { stroke: #e0a100 !important; stroke-width: 5 !important; }
.cornish .loc.hot .node-shape { filter: drop-shadow(0 0 4px #f5b800); }
.cornish .clickable { cursor: pointer; }
.cornish .clickable:hover, .cornish .clickable:focus { filter: drop-shadow(0 0 5px #e0a100); }
.cornish .piece.hot rect, .cornish .goods.hot rect { stroke: #e0a100; stroke-width: 3; }
.cornish .char-chip.hot rect:first-child { stroke: #e0a100; stroke-width: 4; }
.cornish .selected { filter: drop-shadow(0 0 6px #c0392b) !important; }
.cs-pick .cs-card-text { flex-basis: 100%; margin: .2rem 0; font-size: .88rem; }
.cs-hint { color: #5f574a; font-size: .88rem; }
.cs-info { background: #fffaf0; border: 1px solid #c9bb9b; border-left: 4px solid #1f5f8b; border-radius: .4rem; padding: .45rem .6rem; font-size: .92rem; overflow-x: auto; }
.cs-info.cs-react { border-left-color: #7d3c98; }
.cs-info.cs-landing { border-left-color: #d35400; }
.cs-info table { border-collapse: collapse; margin: .35rem 0; font-size: .88rem; }
.cs-info th, .cs-info td { border: 1px solid #ddd3c2; padding: .15rem .4rem; text-align: left; white-space: nowrap; }
.cs-info th { background: #f3ead4; }
.cs-info tr.cs-off { color: #9a9080; }
.cs-price-list tr.cs-town td { background: #fff1c9; }
.cs-price-list td.mine { background: #d6a530 !important; font-weight: 700; }
.cs-info summary { cursor: pointer; margin-top: .3rem; }
.cs-info ul { margin: .3rem 0; padding-left: 1.2rem; }
@media (max-width: 500px) { .cs-this-sale td, .cs-this-sale th { white-space: normal; } .cs-info table { font-size: .8rem; } }
.actions .cs-kind { font-size: .8rem; color: #6b645a; text-transform: uppercase; letter-spacing: .04em; margin-top: .2rem; }
.actions .cs-where { font-weight: 700; }
.actions .cs-note { margin: 0; font-size: .92rem; }
.actions button.cs-open { background: #e9f1f8; color: #1d1a16; border: 1px solid #1f5f8b; text-align: left; }
.actions button.move { text-align: left; }
.actions .cs-pages { display: flex; gap: .4rem; align-items: center; font-size: .88rem; }
`;
  function ensureStyle() {
    if (document.getElementById("cornish-style")) return;
    document.head.append(FT.el("style", { id: "cornish-style", text: STYLE }));
  }

  // ---- the side panel: the moves grouped by kind, then by piece, then by payment ------------------------
  // entries a page of the panel shows, and the most shown unpaged: fewer on a phone, whose dock (two
  // choices a row, along the bottom of the screen) must show them all without scrolling
  const narrowDock = () => !!(window.matchMedia && window.matchMedia("(max-width: 820px)").matches);
  let PAGE = 11, UNPAGED = 13;
  function useEntries(moves, view, group) {
    const byBase = new Map();
    for (const n of moves) { const k = base(n); if (!byBase.has(k)) byBase.set(k, []); byBase.get(k).push(n); }
    return Array.from(byBase.values()).map((list) => (list.length === 1 ? { text: label(list[0], view), n: list[0], group }
      : { text: noPay(list[0], view) + " — " + list.map(payText).join(" or "), open: { pay: list, parent: SEL }, group, covers: list }));
  }
  function panelEntries(legal, view) {
    if (SEL && SEL.pay) return SEL.pay.filter((n) => legal.includes(n)).map((n) => ({ text: noPay(n, view) + " — " + payText(n), n }));
    if (SEL && SEL.piece) return useEntries(legal.filter((n) => pieceOf(n) === SEL.piece), view);
    const kinds = new Set(legal.map(kindOf));
    const kind = SEL && SEL.kind ? SEL.kind : kinds.size === 1 && useEntries(legal, view).length > UNPAGED ? kindOf(legal[0]) : "";
    if (kind) {  // one kind (chosen, or the only one there is): its pieces, then the moves without a piece
      const pieces = new Map(), direct = [];
      for (const n of legal.filter((x) => kindOf(x) === kind)) {
        const p = pieceOf(n);
        if (!p) direct.push(n);
        else { if (!pieces.has(p)) pieces.set(p, []); pieces.get(p).push(n); }
      }
      const out = [];
      for (const [p, list] of pieces) {
        const uses = useEntries(list, view);
        if (uses.length === 1) { out.push(uses[0]); continue; }
        const places = new Set(list.map((n) => parse(n).to).filter(Boolean)).size;
        out.push({ text: cap(pieceName(p, view)) + " ▸ " + (places ? places + " place" + (places > 1 ? "s" : "") : uses.length + " choices"),
          open: { piece: p, parent: SEL }, covers: list });
      }
      return out.concat(useEntries(direct, view));
    }
    const all = useEntries(legal, view);
    if (all.length <= UNPAGED) return legal.length ? useEntries(sortByKind(legal), view).map((e) => Object.assign(e, { group: kindOf(e.n || e.open.pay[0]) })) : [];
    const out = [];
    for (const [kind] of KINDS.concat([["Other"]])) {
      const moves = legal.filter((n) => kindOf(n) === kind);
      if (!moves.length) continue;
      const uses = useEntries(moves, view, kind);
      // Pass (and Honest Work) stay one click away, whatever else there is
      if (uses.length === 1 || kind === "Pass") out.push(...uses);
      else out.push({ text: kind + " ▸ " + uses.length + " choices", open: { kind }, group: kind, covers: moves });
    }
    return out;
  }
  function sortByKind(legal) {
    const order = KINDS.map((k) => k[0]).concat(["Other"]);
    return legal.slice().sort((a, b) => order.indexOf(kindOf(a)) - order.indexOf(kindOf(b)));
  }
  function renderPanel(box, legal, tctx) {
    [PAGE, UNPAGED] = narrowDock() ? [6, 8] : [11, 13];
    drawPanel(box, legal, tctx);
    // where the dock is short (a laptop's window, two-line choices), fewer a page until every one is in
    // view: a Pass below the fold is a Pass not found
    const room = box.closest(".dock-body");
    while (room && room.scrollHeight > room.clientHeight + 1 && PAGE > 3) {
      PAGE -= 1; UNPAGED -= 1;
      drawPanel(box, legal, tctx);
    }
  }
  function drawPanel(box, legal, tctx) {
    PANEL = { box, legal, tctx };
    MOVES = obj(tctx.notes);
    const view = obj(tctx.view);
    box.replaceChildren();
    box.dataset.index = String(num(view.actions_taken, -1));  // which decision these entries are for
    if (!legal.length) return;
    const go = (n) => { played(n); tctx.act(n); };
    const disabled = !!tctx.disabled;
    const entries = panelEntries(legal, view);
    const page = Math.max(0, Math.min(num(SEL && SEL.page, 0), Math.ceil(entries.length / PAGE) - 1));
    const paged = entries.length > UNPAGED;
    const shown = paged ? entries.slice(page * PAGE, page * PAGE + PAGE) : entries;
    const where = SEL ? (SEL.pay ? "How to pay" : SEL.piece ? cap(pieceName(SEL.piece, view)) : SEL.kind) : "";
    if (where) box.append(FT.el("div", { class: "cs-where", text: where }));
    // a reaction window you cannot answer: say so, and one Decline
    const onlyDecline = legal.length === 1 && legal[0] === "decline";
    if (onlyDecline) {
      box.append(FT.el("p", { class: "cs-note", text: "None of your cards can answer " + eventText(view.reaction) + "." }));
    }
    let lastGroup = "";
    for (const e of shown) {
      if (!SEL && e.group && e.group !== lastGroup && !e.open) { box.append(FT.el("div", { class: "cs-kind", text: e.group })); }
      lastGroup = e.group || lastGroup;
      // a Character card to keep or hire carries its hiring cost, Reputation and ability on the button itself
      const card = e.n && ["keep", "hire"].includes(parse(e.n).verb) ? CHARS[parse(e.n).item] : null;
      const note = noteOf(tctx, e.n) || (card ? " · " + cardLine(card) : "");
      if (e.n) box.append(FT.el("button", { type: "button", class: "move", "data-action": e.n, title: e.n, disabled, onclick: () => go(e.n) },
        note ? [e.text, FT.el("span", { class: "note", text: note })] : e.text));
      else box.append(FT.el("button", { type: "button", class: "cs-open", "data-actions": arr(e.covers).join("|"), disabled, onclick: () => select(e.open) }, e.text));
    }
    if (paged) {
      const pages = Math.ceil(entries.length / PAGE);
      const turn = (k) => select(Object.assign({}, SEL || {}, { page: k }));
      box.append(FT.el("div", { class: "cs-pages" }, [
        FT.el("button", { type: "button", class: "secondary cs-page", disabled: page === 0, onclick: () => turn(page - 1) }, "‹ Earlier"),
        " " + (page + 1) + " of " + pages + " ",
        FT.el("button", { type: "button", class: "secondary cs-page", disabled: page >= pages - 1, onclick: () => turn(page + 1) }, "More ›")]));
    }
    if (SEL) box.append(FT.el("button", { type: "button", class: "secondary cs-back", onclick: () => select(SEL.parent || null) }, "‹ Back"));
  }

  // ---- what a decision is about: a reaction window, the Price List at a sale, the Landing Risk ---------
  const EVENTS = { land: "a landing", sail: "a ship's move", sale: "a sale", seizure: "goods about to be seized", seized: "a seizure",
    bribe: "a bribe", buy: "a purchase", "buy-reputation": "a purchase of Reputation", "ship-enters": "a ship entering a space",
    place: "a new Network Counter", "customs-move": "an officer's move" };
  function eventText(r) {
    r = obj(r);
    return (EVENTS[r.event] || (r.event ? "the " + String(r.event).replace(/-/g, " ") : "this event")) + (typeof r.about === "number" && r.about >= 0 ? " by seat " + r.about : "");
  }
  function reactionInfo(view, legal, ctx) {
    if (!view.reaction || !legal.length) return null;
    const cards = legal.filter((n) => n !== "decline");
    if (!cards.length && ctx.details) return null;  // the dock's panel says it and holds the one Decline
    const box = FT.el("div", { class: "cs-info cs-react" }, [FT.el("strong", { text: "Reaction window: " + cap(eventText(view.reaction)) + ". " }),
      cards.length ? "You may answer it with " + cards.map((n) => nameOf(parse(n).item)).join(", ") + ", or decline."
        : "None of your cards can answer it. "]);
    // nothing to answer with: the one click it costs is here, beside the map (on a phone the panel is far below)
    if (!cards.length && legal.includes("decline") && !ctx.disabled) {
      box.append(FT.el("button", { type: "button", class: "pick cs-decline", "data-action": "decline", onclick: () => ctx.act("decline") }, "Decline"));
    }
    return box;
  }
  function goodsById(view, gid) { return arr(view.goods).find((g) => g && g.id === gid) || null; }
  function cell(town, size, row) {
    const c = arr(obj(PRICES[String(town)])[String(size)])[row];
    return Array.isArray(c) ? c : null;
  }
  // the server's quote for the sale under way (web.py sale_quote, in the choice notes): the shape on sale, the
  // town size the sale uses (a card may change it) and each row's Gold, Reputation, cost and Gold Wheel move
  function quoteOf(ctx) {
    return obj(obj(ctx && ctx.notes)["@sale"]);
  }
  function saleInfo(view, legal, ctx) {
    const prices = legal.filter((n) => parse(n).verb === "price");
    if (!prices.length) return null;
    const q = quoteOf(ctx);
    const g = q.goods ? goodsById(view, q.goods) || { id: q.goods, shape: q.shape, size: q.size } : null;
    const town = q.at ? LOCS[q.at] || { name: nameOf(q.at) } : null;
    const tsize = num(q.town_size, 0);
    const cu = obj(view.customs);
    const box = FT.el("div", { class: "cs-info cs-sale", "data-goods": g ? g.id : "", "data-town-size": tsize, "data-goods-size": g ? g.size : "" });
    const changed = g && q.printed_town_size !== tsize ? " — sold as a size " + tsize + " town (a card)" : "";
    box.append(FT.el("strong", { text: g ? "Selling " + goodsName(view, g.id) + " in " + town.name + " (a size " + num(q.printed_town_size, tsize) + " town)" + changed : "Selling: choose the price row" }));
    if (g) {
      const t = FT.el("table", { class: "cs-this-sale" });
      t.append(FT.el("tr", {}, ["Row", "Costs", "Gold", "Reputation", "Gold Wheel"].map((h) => FT.el("th", { text: h }))));
      for (const r of arr(q.rows)) {
        const ways = prices.filter((n) => parse(n).item === r.row);
        const wheel = num(q.wheel_from, 0) + " → " + r.wheel + (r.track ? " (START passed: Customs Track +" + r.track + ")" : "");
        const cost = r.free_by_card ? "free (a card)" : r.cost ? (ways.length ? ways.map(payText).join(" or ") : r.cost + " Influence or Reputation (you have too little)") : "free";
        t.append(FT.el("tr", { "data-row": r.row, class: ways.length ? "" : "cs-off" }, [FT.el("td", { text: cap(r.row) }), FT.el("td", { text: cost }),
          FT.el("td", { class: "gold", text: r.gold + (r.bonus ? " + " + r.bonus : "") }), FT.el("td", { class: "rep", text: r.reputation }), FT.el("td", { class: "wheel", text: wheel })]));
      }
      box.append(t);
      if (arr(q.rows).some((r) => r.gold < r.printed_gold)) box.append(FT.el("p", { class: "cs-hint", text: "The bank holds " + view.bank + " Gold: a sale pays no more." }));
    }
    // the whole Goods Price List as printed: a block of three rows per town size, a column per goods size
    const sizes = Array.from(new Set([].concat(...Object.values(PRICE_COLS).map(arr)))).sort((a, b) => a - b);
    const list = FT.el("table", { class: "cs-price-list" });
    list.append(FT.el("tr", {}, [FT.el("th", { text: "Town" }), FT.el("th", { text: "Row" })].concat(sizes.map((s) => FT.el("th", { text: s + " squares" })))));
    for (const town of Object.keys(PRICES).sort((a, b) => a - b)) {
      const cols = arr(PRICE_COLS[town]);
      ROWS.forEach((row, i) => {
        const here = Number(town) === tsize;
        const tr = FT.el("tr", { class: here ? "cs-town" : "", "data-town": town, "data-row": row });
        tr.append(FT.el("td", { text: i === 0 ? "size " + town : "" }), FT.el("td", { text: cap(row) + (ROW_COST[i] ? " (" + ROW_COST[i] + ")" : "") }));
        for (const s of sizes) {
          const c = cols.includes(s) ? cell(town, s, i) : null;
          tr.append(FT.el("td", { class: here && s === q.column ? "cs-cell mine" : "cs-cell", text: c ? c[0] + " G · " + c[1] + " R" : "—" }));
        }
        list.append(tr);
      });
    }
    box.append(FT.el("details", { open: true }, [FT.el("summary", { text: "Goods Price List (Gold · Reputation; row cost in Influence or Reputation)" }), list]));
    if (g) box.append(FT.el("p", { class: "cs-hint", text: "A shape bigger than the town sells at the town's own size. The nearest Customs Officer then moves one space toward " + town.name + "." }));
    return box;
  }
  function landingInfo(view, legal) {
    const l = obj(view.landing);
    if (!l.at || !legal.length || !legal.some((n) => ["unload", "done", "hide", "store"].includes(parse(n).verb))) return null;
    const loc = LOCS[l.at] || { name: nameOf(l.at), risk: 0 };
    const disc = num(obj(view.customs).discovery, 0);
    const sizes = arr(l.goods).map((gid) => num(obj(goodsById(view, gid)).size, 0));
    const squares = sizes.reduce((a, b) => a + b, 0);
    const risk = num(loc.risk, 0) + squares;
    const box = FT.el("div", { class: "cs-info cs-landing", "data-port-risk": num(loc.risk, 0), "data-squares": squares, "data-discovery": disc });
    box.append(FT.el("strong", { text: "Landing at " + loc.name + ": " }),
      FT.el("span", { class: "cs-risk", text: "port risk +" + num(loc.risk, 0) + " plus " + squares + " square" + (squares === 1 ? "" : "s") + " = Landing Risk " + risk
        + " against Discovery Level " + disc + (l.at === SCILLY ? " (no Customs on the Isles of Scilly)" : risk > disc ? ": " + (risk - disc) + " over" : ": not over") }));
    const hides = legal.filter((n) => parse(n).verb === "hide");
    if (hides.length) {
      // the engine's figure after any card played on the landing: "... (N Customs moves otherwise)"
      const m = /(\d+) Customs moves? otherwise/.exec(String(view.prompt || ""));
      const over = m ? Number(m[1]) : Math.max(0, risk - disc);
      const t = FT.el("table", { class: "cs-hide" });
      t.append(FT.el("tr", {}, ["Spend", "Landing Risk", "Customs moves"].map((h) => FT.el("th", { text: h }))));
      for (const n of hides) {
        const k = Number(parse(n).item) || 0;
        const left = Math.max(0, over - k);
        t.append(FT.el("tr", { "data-hide": k }, [FT.el("td", { text: k + " Influence" }), FT.el("td", { class: "risk", text: disc + left }),
          FT.el("td", { class: "moves", text: left ? left + (left === 1 ? " (the nearest officer moves one space)" : " (officers move " + left + " spaces)") : "none: no officer moves" })]));
      }
      box.append(t);
    } else if (legal.some((n) => parse(n).verb === "unload")) {
      const ul = FT.el("ul", { class: "cs-unload" });
      for (const n of legal.filter((x) => parse(x).verb === "unload")) {
        const g = goodsById(view, parse(n).item);
        const r = risk + num(obj(g).size, 0);
        ul.append(FT.el("li", { "data-goods": parse(n).item, text: "with " + goodsName(view, parse(n).item) + ": Landing Risk " + r + (r > disc ? ", " + (r - disc) + " over" : ", not over") }));
      }
      box.append(ul);
    }
    return box;
  }

  function draw(root, view, ctx) {
    ensureStyle();
    view = obj(view);
    const act = ctx.act;
    ctx = Object.assign({}, ctx, { view, act: (n) => { played(n); act(n); } });
    LAST = { root, view, ctx: Object.assign({}, ctx, { act }) };
    MOVES = obj(ctx.notes);
    const legal = ctx.legal instanceof Set ? Array.from(ctx.legal) : arr(ctx.legal);
    const key = num(view.actions_taken, 0) + "|" + legal.join("|");
    if (key !== SEL_KEY) { SEL_KEY = key; SEL = null; }
    if (SEL && SEL.piece && !legal.some((n) => pieceOf(n) === SEL.piece)) SEL = null;
    const hot = buildHot(legal);
    const wrap = FT.el("div", { class: "cornish" });
    // a piece's choices go to the table's dock (ctx.picks) when it has one, never over the board
    const pickBox = ctx.picks || FT.el("div", { role: "group", "aria-label": "Choose a move", hidden: true });
    pickBox.classList.add("cs-pick");
    const picker = chooser(pickBox, ctx);
    selectedBox(pickBox, legal, ctx);
    if (!ctx.picks) wrap.append(pickBox);
    // what the decision is about (the sale's prices, the landing's risk, the window's event): beside the choices
    for (const info of [reactionInfo(view, legal, ctx), saleInfo(view, legal, ctx), landingInfo(view, legal, ctx)]) if (info) (ctx.details || wrap).append(info);
    wrap.append(FT.el("div", { class: "cs-map" }, drawMap(view, ctx, hot, picker)));
    const panels = FT.el("div", { class: "cs-panels" });
    const choices = choicesPanel(view, ctx, hot, picker);
    if (choices) panels.append(choices);
    // your own panel first, then the others in seat order
    const n = arr(view.players).length;
    const me = typeof ctx.seat === "number" && ctx.seat < n ? ctx.seat : 0;
    for (let k = 0; k < n; k++) panels.append(playerPanel(view, ctx, (me + k) % n, hot, picker));
    if ("your_secrets" in view) panels.append(secretsPanel(view, ctx, hot, picker));
    panels.append(charactersPanel(view, ctx, hot, picker), customsPanel(view, ctx, hot, picker));
    wrap.append(panels);
    root.replaceChildren(wrap);
  }

  // the engine's reaction prompt names its event by id ("(customs-move)"): the table says it in words
  function prompt(view) {
    const p = String(obj(view).prompt || "");
    return view && view.reaction ? p.replace(/ \(([a-z-]+)\)/, () => ": " + eventText(view.reaction)) : p;
  }

  FT.register("cornish-smuggler", { init, label, draw, actions: renderPanel, prompt });
})();
