// Step through a finished game: each position is the spectator's view from POST /api/replay.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let record = null;
  let step = 0;
  let shown = 0; // the latest show() asked for: an older answer that comes back later is dropped
  let review = null; // GET /api/tables/<id>/review once done: each decision judged from its seat's view
  const SEAT_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
  const pct = (x) => Math.round(100 * x) + "%";

  // the record's table (its seats' kinds and names) in the shape FT.seatLabel reads, as the table page names them
  let seats = null;
  function seatLabel(s) { return FT.seatLabel(seats, s); }

  // the server answers 503 when its replay worker had to be replaced: it asks to try again, so we do, a few times
  async function replayAt(sent, upto, ticket) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await FT.api("POST", "/api/replay", { record: sent, upto });
      } catch (err) {
        if (err.status !== 503 || attempt >= 4) throw err;
        await new Promise((ok) => setTimeout(ok, 500 * attempt));
        if (ticket !== shown) return null;
      }
    }
  }

  async function show(k) {
    if (!record) return;
    const ticket = ++shown;
    step = Math.max(0, Math.min(record.actions.length, k));
    $("step").value = step;
    $("where").textContent = "after " + step + " of " + record.actions.length + " actions";
    try {
      // the table's part of the record (seat names, timer moves, take-backs) makes the log read as the table's did
      const sent = { game: record.game, options: record.options, seats: record.seats, seed: record.seed, actions: record.actions };
      if (record.table) sent.table = { seats: record.table.seats, names: record.table.names, moves: record.table.moves,
        takebacks: record.table.takebacks, settings: record.table.settings };
      const r = await replayAt(sent, step, ticket);
      if (!r) return; // a newer position was asked for meanwhile
      const v = r.view;
      const renderer = await FT.loadRenderer(FT.gameName(v.game));
      // a click on "last" while the first position was still on its way: that one must not draw over it
      if (ticket !== shown) return;
      renderer.draw($("board"), v, { seat: null, legal: new Set(), act: () => {}, seatLabel, table: null });
      $("prompt").textContent = v.is_over ? "The game is over." : seatLabel(v.to_act) + " to act: " + v.prompt;
      // the server's readable log (names, not ids; a spectator's: no private line), as at the table
      const lines = Array.isArray(r.log) ? r.log : v.events.map((t, i) => ({ n: i + 1, text: t, kind: "event" }));
      $("log").replaceChildren(...lines.map(FT.logLine));
      $("log").scrollTop = $("log").scrollHeight;
      const over = $("over");
      over.hidden = !v.is_over;
      over.replaceChildren(...(v.is_over ? [FT.el("h2", { text: "Game over" }),
        ...FT.resultsPanel(r.results, v.winners || [], seatLabel, record.actions.length)] : []));
      const moves = $("moves");
      const flaggedAt = new Map(review ? review.decisions.filter((d) => d.flagged).map((d) => [d.index, d]) : []);
      moves.replaceChildren(...record.actions.map((a, i) => {
        const f = flaggedAt.get(i);
        const cls = [i === step - 1 ? "acting" : "", f ? "flagged" : ""].join(" ").trim();
        const li = FT.el("li", { class: cls || null, title: f ? "the review preferred " + (f.best_label || f.best) : null },
          [FT.el("a", { href: "#", onclick: (e) => { e.preventDefault(); show(i + 1); } }, a), f ? " ?" : null]);
        return li;
      }));
      drawReview();
      $("error").textContent = "";
    } catch (err) { $("error").textContent = err.message; }
  }

  // -- the review: each seat's win-chance line, the flagged moves, what the review preferred ----------
  function drawReview() {
    const box = $("review");
    if (!review || !record) return;
    box.hidden = false;
    const W = 600, H = 160, L = 34, R = 8, T = 8, B = 22;
    const n = Math.max(1, review.actions);
    const x = (i) => L + (W - L - R) * (i / n);
    const y = (p) => T + (H - T - B) * (1 - p);
    const parts = [];
    for (const p of [0, 0.5, 1]) {
      parts.push(FT.svg("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), class: "grid" }));
      parts.push(FT.svg("text", { x: L - 4, y: y(p) + 4, "text-anchor": "end", text: pct(p) }));
    }
    parts.push(FT.svg("text", { x: W - R, y: H - 6, "text-anchor": "end", text: "action " + review.actions }));
    parts.push(FT.svg("line", { x1: x(step), x2: x(step), y1: T, y2: H - B, class: "now" }));
    const legend = [];
    for (const seat of review.reviewed_seats) {
      const mine = review.decisions.filter((d) => d.seat === seat);
      const won = review.winners.includes(seat) ? 1 / review.winners.length : 0;
      const pts = mine.map((d) => [d.index, d.before.win]).concat([[review.actions, won]]);
      const colour = SEAT_COLOURS[seat % SEAT_COLOURS.length];
      parts.push(FT.svg("polyline", { class: "winline", "data-seat": seat, stroke: colour,
        points: pts.map(([i, p]) => x(i).toFixed(1) + "," + y(p).toFixed(1)).join(" ") },
        [FT.svg("title", { text: seatLabel(seat) + ": estimated win chance" })]));
      legend.push(FT.el("span", { class: "legend", style: "border-color:" + colour }, seatLabel(seat)));
    }
    for (const d of review.decisions.filter((d) => d.flagged)) {
      const dot = FT.svg("circle", { class: "blunder", cx: x(d.index), cy: y(d.after_played.win), r: 4,
        "data-index": d.index, onclick: () => show(d.index) },
        [FT.svg("title", { text: "action " + (d.index + 1) + ": " + (d.played_label || d.played) + " (review preferred " + (d.best_label || d.best) + ")" })]);
      parts.push(dot);
    }
    const chart = FT.svg("svg", { viewBox: "0 0 " + W + " " + H, class: "winchart", role: "img",
      "aria-label": "Each seat's estimated win chance over the game" }, parts);
    chart.addEventListener("click", (e) => {
      if (e.target.tagName === "circle") return;
      const r = chart.getBoundingClientRect();
      const i = Math.round(((e.clientX - r.left) / r.width * W - L) / (W - L - R) * n);
      show(Math.max(0, Math.min(n, i)));
    });
    $("winchart").replaceChildren(chart);
    $("legend").replaceChildren(...legend);
    const flagged = review.decisions.filter((d) => d.flagged);
    $("flagged").replaceChildren(...(flagged.length ? flagged.map((d) => FT.el("li", { class: d.index === step || d.index === step - 1 ? "acting" : null }, [
      FT.el("a", { href: "#", onclick: (e) => { e.preventDefault(); show(d.index); } }, "action " + (d.index + 1)),
      " · " + seatLabel(d.seat) + " played " + (d.played_label || d.played) + " (win " + pct(d.after_played.win) + "); the review preferred " +
      (d.best_label || d.best) + " (win " + pct(d.after_best.win) + ")"])) : [FT.el("li", {}, "No move lost more than " + pct(review.threshold) + " win chance.")]));
    const here = review.decisions.find((d) => d.flagged && (d.index === step || d.index === step - 1));
    const note = $("preferred");
    if (here) {
      const verb = here.index === step ? "is about to play" : "played";
      note.textContent = seatLabel(here.seat) + " " + verb + " " + (here.played_label || here.played) + " (estimated win chance " +
        pct(here.after_played.win) + ", expected score " + here.after_played.score.toFixed(1) + "). The review preferred " +
        (here.best_label || here.best) + " (win chance " + pct(here.after_best.win) + ", expected score " + here.after_best.score.toFixed(1) + ").";
      note.hidden = false;
    } else { note.hidden = true; }
  }

  async function loadReview(tableId) {
    const box = $("review");
    box.hidden = false;
    $("review-status").textContent = "Reviewing every decision from its player's view… (once; it is kept with the table)";
    for (let tries = 0; tries < 400; tries++) {
      let r;
      try { r = await FT.api("GET", "/api/tables/" + encodeURIComponent(tableId) + "/review"); }
      catch (err) { $("review-status").textContent = "No review: " + err.message; return; }
      if (r.status === "done") {
        review = r.review;
        $("review-status").textContent = "Reviewed in " + review.budget.replace("iters=", "") + " possible worlds per decision; ? marks a move that lost more than " + pct(review.threshold) + " win chance, by more than the estimate's noise.";
        show(step);
        return;
      }
      if (r.status === "failed") { $("review-status").textContent = "The review failed: " + r.error; return; }
      await new Promise((res) => setTimeout(res, 1500));
    }
    $("review-status").textContent = "The review is taking long; reload the page later.";
  }

  function load(rec) {
    record = rec;
    const t = record && record.table;
    seats = t && Array.isArray(t.seats) ? { seats: t.seats.map((kind, i) => ({ seat: i, kind, name: t.names ? t.names[i] : null })) } : null;
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
  if (table) FT.api("GET", "/api/tables/" + encodeURIComponent(table) + "/record").then((rec) => { load(rec); loadReview(table); }).catch((err) => { $("error").textContent = err.message; });
})();
