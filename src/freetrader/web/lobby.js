// The lobby: create a table (game, seats, options), list open tables, join a free seat or watch.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let games = [];

  function game() { return games.find((g) => g.name === $("game").value); }

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
      for (const kind of ["human"].concat(g.bots)) sel.append(FT.el("option", { value: kind }, kind === "human" ? "human" : kind + " bot"));
      sel.value = old[i] || (i === 0 ? "human" : (g.bots.includes("heuristic") ? "heuristic" : g.bots[0]));
      box.append(FT.el("label", {}, ["Seat " + i + " ", sel]));
    }
  }

  function renderOptions() {
    const g = game();
    const box = $("options");
    box.replaceChildren();
    $("game-summary").textContent = g.summary;
    for (const o of g.options) {
      let input;
      if (o.choices) {
        input = FT.el("select", { id: "opt-" + o.name, "data-option": o.name });
        for (const c of o.choices) input.append(FT.el("option", { value: JSON.stringify(c) }, String(c)));
        input.value = JSON.stringify(o.default);
      } else if (typeof o.default === "boolean") {
        input = FT.el("input", { type: "checkbox", id: "opt-" + o.name, "data-option": o.name, checked: o.default });
      } else {
        input = FT.el("input", { type: "number", id: "opt-" + o.name, "data-option": o.name, value: o.default, min: o.minimum, max: o.maximum });
      }
      box.append(FT.el("div", { class: "form-row" }, [FT.el("label", { for: "opt-" + o.name }, o.name), input, FT.el("small", {}, o.help)]));
    }
  }

  function readOptions() {
    const out = {};
    const g = game();
    for (const node of $("options").querySelectorAll("[data-option]")) {
      const o = g.options.find((x) => x.name === node.dataset.option);
      let v;
      if (node.type === "checkbox") v = node.checked;
      else if (node.tagName === "SELECT") v = JSON.parse(node.value);
      else v = parseInt(node.value, 10);
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
    try {
      const made = await FT.api("POST", "/api/tables", body);
      if (!seats.includes("human")) { location.href = "/t/" + made.table.id; return; }
      const name = $("name").value.trim();
      const joined = await FT.api("POST", "/api/tables/" + made.table.id + "/join", name ? { name } : {});
      location.href = joined.link;
    } catch (err) { $("create-error").textContent = err.message; }
  }

  async function join(tableId, seat) {
    const name = $("name").value.trim();
    try {
      const joined = await FT.api("POST", "/api/tables/" + tableId + "/join", name ? { seat, name } : { seat });
      location.href = joined.link;
    } catch (err) { $("tables-error").textContent = err.message; }
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
        for (const s of free) li.append(FT.el("button", { type: "button", onclick: () => join(t.id, s.seat) }, "Join seat " + s.seat));
        li.append(FT.el("a", { href: "/t/" + t.id }, "Watch"));
        ul.append(li);
      }
      $("tables-error").textContent = "";
    } catch (err) { $("tables-error").textContent = err.message; }
  }

  async function start() {
    games = await FT.api("GET", "/api/games");
    for (const g of games) $("game").append(FT.el("option", { value: g.name }, g.title));
    $("game").addEventListener("change", () => { renderOptions(); renderSeats(); });
    $("nseats").addEventListener("change", renderSeats);
    $("create").addEventListener("submit", create);
    renderOptions(); renderSeats();
    refresh();
    setInterval(refresh, 4000);
  }
  start().catch((err) => { $("create-error").textContent = err.message; });
})();
