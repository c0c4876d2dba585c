// Freetrader table client: shared helpers and the renderer registry (no build step).
"use strict";
(function () {
  const SVGNS = "http://www.w3.org/2000/svg";
  const FT = (window.FT = window.FT || {});
  FT.renderers = FT.renderers || {};

  // A game's board renderer (games/<game>/web.js) registers itself by game name (e.g. "contraband"):
  //   FT.register("contraband", {init(components), draw(root, view, ctx), label(notation, view)})
  // init() gets the game's components (GET /api/games/<game>/components) once, before the first draw;
  // draw() fills `root` (a <div>) from the seat's view; ctx.act(notation) plays an action,
  // ctx.legal is the set of legal notations (empty unless it is ctx.seat's turn).
  FT.register = function (name, renderer) { FT.renderers[name] = renderer; };

  FT.el = function (tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") node.textContent = String(v);
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of [].concat(children || [])) {
      if (c === null || c === undefined) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  };

  FT.svg = function (tag, attrs, children) {
    const node = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") node.textContent = String(v);
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, String(v));
    }
    for (const c of [].concat(children || [])) {
      if (c === null || c === undefined) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  };

  // Make an SVG element act as a button: focusable, Enter/Space or click runs `fn`.
  FT.clickable = function (node, label, fn) {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", label);
    node.classList.add("clickable");
    node.addEventListener("click", fn);
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn(); }
    });
    node.append(FT.svg("title", { text: label }));
    return node;
  };

  // A legal move as the server describes it (core/moves.py, sent beside `legal` as the message's `notes`,
  // keyed by notation): {verb, label, targets: {role: id}, cost: {resource: n}, pays: {resource: n}, note}.
  // Pages read what a move does and costs from it, never from its notation or a card's text.
  FT.move = function (notes, n) {
    const m = notes ? notes[n] : null;
    return m && typeof m === "object" && !Array.isArray(m) ? m : {};
  };
  // amounts as people read them: {influence: 1, gold: 3} -> "1 Influence + 3 Gold"
  FT.amounts = function (amounts) {
    return Object.entries(amounts || {}).map(([r, k]) => k + " " + r.charAt(0).toUpperCase() + r.slice(1)).join(" + ");
  };
  // what a move costs and pays, and what else it says: "costs 1 Influence + 3 Gold; pays 2 Reputation"
  FT.moveNote = function (m) {
    const parts = [];
    if (m && m.cost && Object.keys(m.cost).length) parts.push("costs " + FT.amounts(m.cost));
    if (m && m.pays && Object.keys(m.pays).length) parts.push("pays " + FT.amounts(m.pays));
    if (m && m.note) parts.push(m.note);
    return parts.join("; ");
  };

  // Legal moves indexed by the board pieces they act on: `targets(notation)` gives a key, a list of keys, or nothing.
  FT.byTarget = function (legal, targets) {
    const m = new Map();
    for (const n of legal || []) for (const k of [].concat(targets(n) || [])) {
      if (!k) continue;
      if (!m.has(k)) m.set(k, []);
      m.get(k).push(n);
    }
    return m;
  };

  // Hot-spots on a board: a piece with one legal move plays it at once; with several, `picker`
  // (from FT.chooser) offers them. `keys` (one or a list) index `hot` (key -> notations);
  // `label(notation, view)` names a move for people.
  FT.makeHot = function (node, keys, hot, ctx, picker, what, label) {
    const list = [];
    for (const k of [].concat(keys)) for (const n of hot.get(k) || []) if (!list.includes(n)) list.push(n);
    if (!list.length) return false;
    node.classList.add("hot");
    FT.clickable(node, what + (list.length > 1 ? ": " + list.length + " moves" : ": " + label(list[0], ctx.view)), () => {
      if (list.length === 1) ctx.act(list[0]); else picker(what, list);
    });
    return true;
  };

  // The small chooser above a board: one button per move, and Cancel.
  FT.chooser = function (box, ctx, label) {
    return function (what, list) {
      box.hidden = false;
      box.replaceChildren(FT.el("strong", { text: what + ": " }));
      for (const n of list) box.append(FT.el("button", { type: "button", class: "pick", "data-action": n, title: n, onclick: () => ctx.act(n) }, label(n, ctx.view)));
      box.append(FT.el("button", { type: "button", class: "secondary", onclick: () => { box.hidden = true; box.replaceChildren(); } }, "Cancel"));
      const first = box.querySelector("button.pick");
      if (first) first.focus();
    };
  };

  FT.gameName = function (slug) { return String(slug || "").replace(/-v\d+$/, ""); };

  // Load a game's renderer once: its script (games/<game>/web.js in the game's folder, served at
  // /static/games/<name>.js) and its components (GET /api/games/<name>/components: the board, the cards,
  // their names and texts, built by the server from the game's data files). A renderer with init(components)
  // gets them before its first draw; the game files keep no copy of the data. No script: the generic renderer.
  const loading = {};
  FT.components = FT.components || {};
  FT.loadRenderer = function (name) {
    if (!loading[name]) {
      const script = new Promise((resolve) => {
        const s = document.createElement("script");
        s.src = "/static/games/" + encodeURIComponent(name) + ".js";
        s.onload = () => resolve(FT.renderers[name] || null);
        s.onerror = () => resolve(null);
        document.head.append(s);
      });
      const parts = fetch("/api/games/" + encodeURIComponent(name) + "/components")
        .then((r) => (r.ok ? r.json() : null)).catch(() => null);
      loading[name] = Promise.all([script, parts]).then(([r, c]) => {
        if (!r) return FT.renderers.generic;
        FT.components[name] = c && c.components ? c.components : {};
        if (r.init) r.init(FT.components[name]);
        return r;
      });
    }
    return loading[name];
  };

  FT.seatLabel = function (table, seat) {
    if (seat === null || seat === undefined) return "—";
    const s = table && table.seats ? table.seats[seat] : null;
    if (!s) return "Seat " + seat;
    if (s.kind === "human") return s.name ? s.name + " (seat " + seat + ")" : "Seat " + seat;
    return "Seat " + seat + " · " + s.kind + " bot";
  };

  // One line of the readable log (server/log.py): its stable number and its text; its kind ("event", "you",
  // "timeout", "takeback") is its class. Shared by the table and the replay page.
  FT.logLine = function (l) {
    const li = FT.el("li", { class: "line " + l.kind, "data-n": String(l.n) },
      [FT.el("span", { class: "n", text: String(l.n) }), FT.el("span", { class: "t", text: l.text })]);
    li.dataset.text = l.text;
    return li;
  };

  FT.fmt = function (v) { return Number.isInteger(v) ? String(v) : Number(v).toFixed(2); };

  // The results of a finished game (the server's results_of): who won, then each seat's rank, score and its
  // breakdown in the game's own terms, and the game's length. `seatLabel(seat)` names a seat; `actions`:
  // how many actions the game took. Shared by the table's end panel and the replay's last position.
  FT.resultsPanel = function (res, winners, seatLabel, actions) {
    const cut = res && res.cut;
    const out = [FT.el("p", { class: "winner", text: cut
      ? "Stopped by the table's safety cap before the game's own end: no winner. The ranks are the standing when it stopped."
      : "Winner" + (winners.length > 1 ? "s" : "") + ": " + winners.map(seatLabel).join(", ") })];
    if (!res) return out;
    const head = FT.el("tr", {}, [FT.el("th", { text: "#" }), FT.el("th", { text: "Player" }),
      FT.el("th", { text: res.score }), FT.el("th", { text: "Made of" })]);
    const rows = res.seats.slice().sort((a, b) => a.rank - b.rank || a.seat - b.seat).map((r) =>
      FT.el("tr", { class: "result-row", "data-seat": String(r.seat), "data-rank": String(r.rank) }, [
        FT.el("td", { class: "rank", text: String(r.rank) }),
        FT.el("td", { class: "who", text: seatLabel(r.seat) }),
        FT.el("td", { class: "score", text: FT.fmt(r.score) }),
        FT.el("td", { class: "parts" }, [FT.el("ul", {}, r.parts.map((p) =>
          FT.el("li", { class: "part" }, [p.label + " ", FT.el("b", { text: FT.fmt(p.value) })])))]),
      ]));
    out.push(FT.el("table", { class: "results", id: "results" }, [FT.el("thead", {}, [head]), FT.el("tbody", {}, rows)]));
    out.push(FT.el("p", { class: "muted", id: "results-length",
      text: "Length: " + res.length + ", " + actions + " actions. Ties: " + res.tie_break + "." }));
    return out;
  };

  // The seats this browser holds (localStorage): table id -> {token, seat, title, name, at}. The lobby lists
  // them with Resume; the table page warns when one exists for a table opened without its token.
  const SEATS_KEY = "freetrader.seats";
  FT.mySeats = {
    all() {
      try {
        const data = JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
        return data && typeof data === "object" && !Array.isArray(data) ? data : {};
      } catch (e) { return {}; }
    },
    get(tableId) { return FT.mySeats.all()[tableId] || null; },
    remember(tableId, info) {
      const data = FT.mySeats.all();
      data[tableId] = Object.assign({}, data[tableId] || {}, info, { at: Date.now() });
      try { localStorage.setItem(SEATS_KEY, JSON.stringify(data)); } catch (e) { /* storage full or disabled */ }
    },
    forget(tableId) {
      const data = FT.mySeats.all();
      delete data[tableId];
      try { localStorage.setItem(SEATS_KEY, JSON.stringify(data)); } catch (e) { /* storage disabled */ }
    },
  };
  // The name this browser last sat down with, offered at the next join (the lobby's and a table page's)
  FT.playerName = {
    get() { try { return localStorage.getItem("ft-name") || ""; } catch (e) { return ""; } },
    set(name) { try { localStorage.setItem("ft-name", name); } catch (e) { /* private mode: asked again next time */ } },
  };
  FT.seatLink = function (tableId, token) {
    return location.origin + "/t/" + encodeURIComponent(tableId) + "#token=" + encodeURIComponent(token);
  };

  FT.api = async function (method, path, body) {
    const opts = { method, headers: {} };
    if (body !== undefined) { opts.headers["content-type"] = "application/json"; opts.body = JSON.stringify(body); }
    const r = await fetch(path, opts);
    let data = null;
    try { data = await r.json(); } catch (e) { data = { error: "the server answered " + r.status }; }
    if (!r.ok) {
      const err = new Error((data && data.error) || "request failed (" + r.status + ")");
      err.status = r.status; // 503 "try again in a moment": a caller may retry
      throw err;
    }
    return data;
  };
})();
