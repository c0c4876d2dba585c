// Step through a finished game: each position is the spectator's view from POST /api/replay.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let record = null;
  let step = 0;

  function seatLabel(s) {
    const t = record && record.table;
    if (!t) return "Seat " + s;
    const kind = t.seats[s];
    const name = t.names && t.names[s];
    return kind === "human" ? (name ? name + " (seat " + s + ")" : "Seat " + s) : "Seat " + s + " · " + kind + " bot";
  }

  async function show(k) {
    if (!record) return;
    step = Math.max(0, Math.min(record.actions.length, k));
    $("step").value = step;
    $("where").textContent = "after " + step + " of " + record.actions.length + " actions";
    try {
      const r = await FT.api("POST", "/api/replay", { record: { game: record.game, options: record.options, seats: record.seats, seed: record.seed, actions: record.actions }, upto: step });
      const v = r.view;
      const renderer = await FT.loadRenderer(FT.gameName(v.game));
      renderer.draw($("board"), v, { seat: null, legal: new Set(), act: () => {}, seatLabel, table: null });
      $("prompt").textContent = v.is_over ? "The game is over." : seatLabel(v.to_act) + " to act: " + v.prompt;
      $("log").replaceChildren(...v.events.map((e) => FT.el("li", { text: e })));
      $("log").scrollTop = $("log").scrollHeight;
      const moves = $("moves");
      moves.replaceChildren(...record.actions.map((a, i) => {
        const li = FT.el("li", { class: i === step - 1 ? "acting" : "" }, [FT.el("a", { href: "#", onclick: (e) => { e.preventDefault(); show(i + 1); } }, a)]);
        return li;
      }));
      $("error").textContent = "";
    } catch (err) { $("error").textContent = err.message; }
  }

  function load(rec) {
    record = rec;
    if (!record || !Array.isArray(record.actions)) { $("error").textContent = "this file is not a game record (it has no list of actions)"; record = null; return; }
    $("step").max = record.actions.length;
    $("title").textContent = "Replay · " + record.game + (record.table ? " · table " + record.table.id : "");
    show(0);
  }

  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(step - 1);
  $("next").onclick = () => show(step + 1);
  $("last").onclick = () => show(record ? record.actions.length : 0);
  $("step").oninput = () => show(parseInt($("step").value, 10));
  document.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") show(step + 1);
    if (e.key === "ArrowLeft") show(step - 1);
  });
  $("file").onchange = async () => {
    const f = $("file").files[0];
    if (!f) return;
    try { load(JSON.parse(await f.text())); } catch (err) { $("error").textContent = "could not read the file: " + err.message; }
  };
  const table = new URLSearchParams(location.search).get("table");
  if (table) FT.api("GET", "/api/tables/" + encodeURIComponent(table) + "/record").then(load).catch((err) => { $("error").textContent = err.message; });
})();
