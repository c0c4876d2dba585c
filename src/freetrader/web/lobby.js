// The lobby: create a table (game, seats, options), list open tables, join a free seat or watch.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let games = [];

  function game() { return games.find((g) => g.name === $("game").value); }

  // What a player reads about a game's options and bots: the game's drawing.toml [lobby] section, served
  // with its components (GET /api/games/<game>/components); the spec's own help is the fallback.
  const lobbyText = {};
  async function loadLobbyText(name) {
    if (!(name in lobbyText)) {
      try {
        const r = await FT.api("GET", "/api/games/" + encodeURIComponent(name) + "/components");
        const d = r && r.components && r.components.drawing;
        lobbyText[name] = d && d.lobby && typeof d.lobby === "object" ? d.lobby : {};
      } catch (err) { lobbyText[name] = {}; }
    }
    return lobbyText[name];
  }
  function lobbyOf(g) { return (g && lobbyText[g.name]) || {}; }
  // the bots every game has, by what they do; a game's own bots name themselves in its [lobby.bots]
  const BOT_NAMES = { random: "Beginner (random legal moves)", heuristic: "Rule-of-thumb player",
    ismcts: "Thinker (searches ahead; slower)" };
  function botInfo(g, b) {
    const own = (lobbyOf(g).bots || {})[b] || {};
    return { name: own.name || BOT_NAMES[b] || b, strength: own.strength || "", advanced: !!own.advanced };
  }
  function botText(g, b) {
    const i = botInfo(g, b);
    return i.name + " — " + (i.strength || "strength not measured");
  }
  function offeredBots(g) {
    const all = $("show-old-bots") && $("show-old-bots").checked;
    return g.bots.filter((b) => all || !botInfo(g, b).advanced);
  }

  function renderSeats() {
    const g = game();
    if (!g) return;
    const n = Math.max(g.min_seats, Math.min(g.max_seats, parseInt($("nseats").value, 10) || g.min_seats));
    $("nseats").min = g.min_seats; $("nseats").max = g.max_seats; $("nseats").value = n;
    const box = $("seat-kinds");
    const old = Array.from(box.querySelectorAll("select")).map((s) => s.value);
    box.replaceChildren();
    for (let i = 0; i < n; i++) {
      const sel = FT.el("select", { id: "seat-" + i, "aria-label": "Seat " + i });
      const bots = offeredBots(g);
      for (const kind of ["human"].concat(bots)) sel.append(FT.el("option", { value: kind }, kind === "human" ? "a person" : "bot: " + botText(g, kind)));
      const was = old[i] && (old[i] === "human" || bots.includes(old[i])) ? old[i] : null;
      sel.value = was || (i === 0 ? "human" : (bots.includes("heuristic") ? "heuristic" : bots[0]));
      box.append(FT.el("label", {}, ["Seat " + i + " ", sel]));
    }
  }

  // How an option is drawn, by its kind (the server's Option.kind): a choice is a select, a flag a checkbox,
  // a number an input with its bounds, a text an input showing its default. An empty field means the default.
  function kindOf(o) {
    if (o.kind) return o.kind;
    if (o.choices) return "choice";
    if (typeof o.default === "boolean") return "flag";
    return typeof o.default === "number" ? "number" : "text";
  }

  function bounds(o) {
    if (o.minimum !== null && o.minimum !== undefined && o.maximum !== null && o.maximum !== undefined) return o.minimum + " to " + o.maximum;
    if (o.minimum !== null && o.minimum !== undefined) return "at least " + o.minimum;
    if (o.maximum !== null && o.maximum !== undefined) return "at most " + o.maximum;
    return "a whole number";
  }

  function optionInput(o, words) {
    const id = "opt-" + o.name;
    const kind = kindOf(o);
    if (kind === "choice") {
      const sel = FT.el("select", { id, "data-option": o.name, "data-kind": kind });
      const names = (words && words.choices) || {};
      for (const c of o.choices) {
        const mark = JSON.stringify(c) === JSON.stringify(o.default) ? " (default)" : "";
        sel.append(FT.el("option", { value: JSON.stringify(c) }, (names[String(c)] || String(c)) + mark));
      }
      sel.value = JSON.stringify(o.default);
      return sel;
    }
    if (kind === "flag") return FT.el("input", { type: "checkbox", id, "data-option": o.name, "data-kind": kind, checked: o.default });
    if (kind === "number") {
      return FT.el("input", { type: "number", id, "data-option": o.name, "data-kind": kind, step: 1,
        min: o.minimum, max: o.maximum, placeholder: String(o.default) + " (default; " + bounds(o) + ")" });
    }
    return FT.el("input", { type: "text", id, "data-option": o.name, "data-kind": kind, maxlength: 200,
      placeholder: String(o.default) + " (default)" });
  }

  // Each option as a label and a sentence; the legacy and rarely wanted ones under "Advanced".
  function renderOptions() {
    const g = game();
    const box = $("options"), adv = $("advanced-options");
    box.replaceChildren(); adv.replaceChildren();
    $("game-summary").textContent = g.summary;
    const words = lobbyOf(g).options || {};
    for (const o of g.options) {
      const kind = kindOf(o);
      const w = words[o.name] || null;
      const hint = kind === "number" ? " Default " + o.default + "; " + bounds(o) + "; empty: the default."
        : kind === "text" ? " Default " + JSON.stringify(o.default) + "; empty: the default." : "";
      (w && w.advanced ? adv : box).append(FT.el("div", { class: "form-row", "data-kind": kind },
        [FT.el("label", { for: "opt-" + o.name }, w ? w.label : o.name), optionInput(o, w), FT.el("small", {}, (w ? w.text : o.help) + hint)]));
    }
    const timeoutBot = $("timeout-bot"), was = timeoutBot.value;
    timeoutBot.replaceChildren(...g.bots.filter((b) => b === "random" || b === "heuristic").map((b) => FT.el("option", { value: b }, botText(g, b))));
    if (was && g.bots.includes(was)) timeoutBot.value = was;
  }

  // The options that differ from their defaults; a number that is not one is sent as typed, so the
  // server's one-line refusal names the option and what it takes.
  function readOptions() {
    const out = {};
    const g = game();
    for (const node of document.querySelectorAll("#options [data-option], #advanced-options [data-option]")) {
      const o = g.options.find((x) => x.name === node.dataset.option);
      if (!o) continue;
      let v;
      if (node.dataset.kind === "flag") v = node.checked;
      else if (node.dataset.kind === "choice") v = JSON.parse(node.value);
      else {
        const text = node.value.trim();
        if (text === "") {
          if (node.dataset.kind === "number" && node.validity && node.validity.badInput) { out[o.name] = "not a number"; }
          continue;
        }
        v = node.dataset.kind === "number" ? (/^-?\d+$/.test(text) ? parseInt(text, 10) : text) : text;
      }
      if (JSON.stringify(v) !== JSON.stringify(o.default)) out[o.name] = v;
    }
    return out;
  }

  async function create(e) {
    e.preventDefault();
    $("create-error").textContent = "";
    const seats = Array.from($("seat-kinds").querySelectorAll("select")).map((s) => s.value);
    const body = { game: $("game").value, seats, options: readOptions() };
    const secs = parseFloat($("turn-seconds").value);
    if (secs > 0) { body.turn_seconds = secs; body.timeout_bot = $("timeout-bot").value; }
    if ($("hints").checked) body.hints = true;
    // an invited friend's seat: the game waits until every human seat is taken, or the host starts it with bots
    if (seats.filter((k) => k === "human").length >= 2) body.wait_for_seats = true;
    try {
      const made = await FT.api("POST", "/api/tables", body);
      if (!seats.includes("human")) { location.href = "/t/" + made.table.id; return; }
      const name = $("name").value.trim();
      const joined = await FT.api("POST", "/api/tables/" + made.table.id + "/join", name ? { name } : {});
      remember(made.table, joined, name);
      location.href = joined.link;
    } catch (err) { $("create-error").textContent = err.message; }
  }

  function remember(table, joined, name) {
    FT.mySeats.remember(table.id, { token: joined.token, seat: joined.seat, title: table.title || "", name: name || "" });
  }

  // "Your tables": the seats this browser holds, each with its state from the server and Resume.
  async function renderMine() {
    const mine = FT.mySeats.all();
    const ids = Object.keys(mine).sort((a, b) => (mine[b].at || 0) - (mine[a].at || 0));
    const box = $("mine-box");
    box.hidden = !ids.length;
    const ul = $("mine");
    const items = await Promise.all(ids.map(async (id) => {
      let t = null, gone = false;
      try { t = (await FT.api("GET", "/api/tables/" + encodeURIComponent(id))).table; } catch (e) { gone = /no table/.test(e.message); }
      return { id, s: mine[id], t, gone };
    }));
    ul.replaceChildren();
    for (const { id, s, t, gone } of items) {
      const title = (t && t.title) || s.title || "table";
      let state = "";
      if (gone) state = "no longer on this server";
      else if (t && t.is_over) state = "game over";
      else if (t) state = t.to_act === s.seat ? "your turn" : t.actions + " moves";
      const li = FT.el("li", { "data-mine": id }, [FT.el("span", { class: "what" },
        [FT.el("strong", {}, title), " — table " + id + ", seat " + s.seat + (state ? " — " + state : "")])]);
      if (!gone) li.append(FT.el("a", { href: "/t/" + encodeURIComponent(id) + "#token=" + encodeURIComponent(s.token), class: "resume" }, t && t.is_over ? "See the end" : "Resume"));
      li.append(FT.el("button", { type: "button", class: "secondary", onclick: () => { FT.mySeats.forget(id); renderMine(); } }, "Forget"));
      ul.append(li);
    }
  }

  // Joining asks for the player's name first (the others see it in place of "Seat 1"); the box stays
  // outside the list, which is redrawn every few seconds.
  function askName(tableId, seat, title) {
    const box = $("join-box");
    box.hidden = false;
    box.dataset.table = tableId;
    box.dataset.seat = String(seat);
    box.dataset.title = title;
    $("join-what").textContent = title + ", seat " + seat;
    $("join-error").textContent = "";
    if (!$("join-name").value) $("join-name").value = $("name").value.trim() || FT.playerName.get();
    $("join-name").focus();
  }

  async function join(e) {
    e.preventDefault();
    const box = $("join-box");
    const name = $("join-name").value.trim();
    if (!name) { $("join-error").textContent = "Give your name, so the others at the table know who sits here."; return; }
    const tableId = box.dataset.table, seat = parseInt(box.dataset.seat, 10);
    try {
      const joined = await FT.api("POST", "/api/tables/" + encodeURIComponent(tableId) + "/join", { seat, name });
      FT.playerName.set(name);
      remember({ id: tableId, title: box.dataset.title }, joined, name);
      location.href = joined.link;
    } catch (err) { $("join-error").textContent = err.message; }
  }

  async function refresh() {
    try {
      const data = await FT.api("GET", "/api/tables");
      const ul = $("tables");
      ul.replaceChildren();
      if (!data.tables.length) ul.append(FT.el("li", { class: "muted" }, "No open tables yet: create one."));
      for (const t of data.tables) {
        const free = t.seats.filter((s) => s.kind === "human" && !s.taken);
        const who = t.seats.map((s) => s.kind === "human" ? (s.taken ? (s.name || "human") : "free") : s.kind).join(", ");
        const li = FT.el("li", { "data-table": t.id }, [
          FT.el("span", { class: "what" }, [FT.el("strong", {}, t.title + (t.label ? " · " + t.label : "")), " — " + who + " — " + t.actions + " moves" + (t.seed_chosen ? " — seed chosen by the creator (practice)" : "")]),
        ]);
        if (t.waiting) li.querySelector(".what").append(" — waiting for players");
        for (const s of free) li.append(FT.el("button", { type: "button", "data-join": String(s.seat), onclick: () => askName(t.id, s.seat, t.title) }, "Join seat " + s.seat));
        li.append(FT.el("a", { href: "/t/" + t.id }, "Watch"));
        ul.append(li);
      }
      $("tables-error").textContent = "";
    } catch (err) { $("tables-error").textContent = err.message; }
  }

  async function start() {
    refresh(); // the open tables need nothing from the games' words: asked first, not after them
    games = await FT.api("GET", "/api/games");
    // every game's words first (fetched together), so that changing the game redraws the form at once
    await Promise.all(games.map((g) => loadLobbyText(g.name)));
    for (const g of games) $("game").append(FT.el("option", { value: g.name }, g.title));
    const show = () => { renderOptions(); renderSeats(); };
    $("game").addEventListener("change", show);
    $("nseats").addEventListener("change", renderSeats);
    $("show-old-bots").addEventListener("change", renderSeats);
    $("create").addEventListener("submit", create);
    $("join-form").addEventListener("submit", join);
    $("join-cancel").addEventListener("click", () => { $("join-box").hidden = true; });
    show();
    renderMine();
    setInterval(refresh, 4000);
  }
  start().catch((err) => { $("create-error").textContent = err.message; });
})();
