// High Card in the browser: each seat's chips, decision and card, the pot, and the deck.
//
// A game's web.js registers a renderer, FT.register(<game name>, { init, draw, label }): init(components)
// gets what GET /api/games/<game>/components answers (web.py beside this file, from the data files) once,
// before the first draw; draw(root, view, ctx) fills `root` from one seat's view; ctx.act(notation) plays a
// move, ctx.legal holds the legal ones and ctx.notes describes each (web.py's `moves`: verb, label, targets,
// cost). Copy no game data here, and read no notation: what a move is and does comes from ctx.notes.
"use strict";
(function () {
  const S = FT.svg;
  let VALUES = [];  // the card values of the deck

  FT.register("high-card", {
    init(c) { VALUES = (c && c.cards) ? Object.values(c.cards).map((card) => card.value) : []; },
    label(notation, view, notes) { return FT.move(notes, notation).label || notation; },
    draw(root, view, ctx) {
      const n = view.seats, w = 140;
      const svg = S("svg", { viewBox: `0 0 ${n * w + 20} 170`, class: "board-svg high-card", role: "img", "aria-label": "High Card table" });
      for (let seat = 0; seat < n; seat++) {
        const x = 10 + seat * w, card = view.cards[seat];
        const g = S("g", { class: "seat" + (view.to_act === seat ? " acting" : ""), transform: `translate(${x},10)` });
        g.append(S("rect", { width: w - 16, height: 96, rx: 10, fill: card === null ? "#7a2e2e" : "#fffaf0", stroke: "#5b4a2f" }));
        g.append(S("text", { x: (w - 16) / 2, y: 58, "text-anchor": "middle", class: "card-name", text: card === null ? "?" : String(card) }));
        g.append(S("text", { x: 0, y: 118, class: "label", text: ctx.seatLabel ? ctx.seatLabel(seat) : "Seat " + seat }));
        g.append(S("text", { x: 0, y: 136, class: "small", text: `${view.chips[seat]} chips · ${view.decisions[seat] || "to decide"}` }));
        const stake = seat === ctx.seat && ctx.legal ? [...ctx.legal].find((n) => FT.move(ctx.notes, n).verb === "stake") : undefined;
        if (stake) FT.clickable(g, FT.move(ctx.notes, stake).label || "Stake", () => ctx.act(stake));
        svg.append(g);
      }
      svg.append(S("text", { x: 10, y: 164, class: "small", text: `Pot ${view.pot} · stake ${view.stake} · deck ${view.deck} cards (values ${VALUES.join(", ")})` }));
      root.replaceChildren(svg);
    },
  });
})();
