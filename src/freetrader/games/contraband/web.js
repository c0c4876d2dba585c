// Contraband: the players around the table with their money, the Customs Officer, the luggage and the declaration.
"use strict";
(function () {
  const S = FT.svg;
  const W = 1000, H = 650, CX = 500, CY = 318, RX = 395, RY = 245;

  // the articles and the card colours: GET /api/games/contraband/components (web.py, from the data files)
  let ARTICLES = {}, CARD = {};
  function init(c) {
    ARTICLES = (c && c.articles) || {};
    CARD = (c && c.drawing && c.drawing.card) || {};
  }

  function article(view, id) {
    const a = ARTICLES[id] || (view.articles || []).find((x) => x.id === id);
    return a ? Object.assign({ id }, a) : { id, name: id, duty: 0, fine: 0 };
  }

  function bagName() {
    const bag = Object.values(ARTICLES).find((a) => a.bag);
    return bag ? bag.name : "bag";
  }

  function cardColour(a) {
    const own = CARD.by_id && CARD.by_id[a.id];
    if (own) return own;
    if (a.duty === 0) return CARD.free || "#f4efe4";
    return a.duty >= (CARD.high_duty || 50) ? CARD.high || "#f7d9c4" : CARD.low || "#fbe7b5";
  }

  function words(name, width) {
    const out = [];
    let line = "";
    for (const w of name.split(" ")) {
      if (line && (line + " " + w).length > width) { out.push(line); line = w; } else line = line ? line + " " + w : w;
    }
    if (line) out.push(line);
    return out.slice(0, 3);
  }

  function cardFace(a, x, y, opts) {
    const g = S("g", { class: "card face" + (opts && opts.hot ? " hot" : ""), transform: `translate(${x},${y})` });
    g.append(S("rect", { width: 74, height: 104, rx: 8, fill: cardColour(a), stroke: "#5b4a2f", "stroke-width": 1.5 }));
    words(a.name, 10).forEach((line, i) => g.append(S("text", { x: 37, y: 26 + i * 15, "text-anchor": "middle", class: "card-name", text: line })));
    if (a.duty || a.fine) g.append(S("text", { x: 37, y: 94, "text-anchor": "middle", class: "card-small", text: `A $${a.duty} · B $${a.fine}` }));
    return g;
  }

  function cardBack(x, y) {
    const g = S("g", { class: "card back", transform: `translate(${x},${y})` });
    g.append(S("rect", { width: 74, height: 104, rx: 8, fill: "#7a2e2e", stroke: "#3d1717", "stroke-width": 1.5 }));
    g.append(S("rect", { x: 7, y: 7, width: 60, height: 90, rx: 5, fill: "none", stroke: "#e8c98a", "stroke-width": 1.2, "stroke-dasharray": "4 3" }));
    return g;
  }

  function seatPos(seat, n, me) {
    const base = me === null || me === undefined ? 0 : me;
    const k = (seat - base + n) % n;
    const angle = Math.PI / 2 + (2 * Math.PI * k) / n; // your seat at the bottom
    return [CX + RX * Math.cos(angle), CY + RY * Math.sin(angle)];
  }

  function money(v) { return (v < 0 ? "-$" : "$") + Math.abs(v).toLocaleString("en-US"); }

  function drawSeat(svg, view, ctx, seat) {
    const [x, y] = seatPos(seat, view.seats, ctx.seat);
    const acting = view.to_act === seat;
    const retired = view.retired[seat];
    const g = S("g", { class: "seat" + (acting ? " acting" : "") + (retired ? " retired" : ""), transform: `translate(${Math.max(4, Math.min(W - 214, x - 105))},${Math.max(4, Math.min(H - 80, y - 38))})`, "data-seat": seat });
    g.append(S("rect", { width: 210, height: 76, rx: 12, class: "seat-box" }));
    g.append(S("text", { x: 12, y: 24, class: "seat-name", text: shortLabel(ctx, seat) }));
    g.append(S("text", { x: 12, y: 52, class: "seat-cash", text: money(view.cash[seat]) }));
    const tags = [];
    if (view.officer === seat) tags.push("Customs Officer");
    if (retired) tags.push("retired");
    if (view.luggage && view.luggage.holder === seat) tags.push("holds luggage");
    g.append(S("text", { x: 12, y: 69, class: "seat-tags", text: tags.join(" · ") }));
    if (view.officer === seat) {
      const cap = S("g", { transform: "translate(186,56)", class: "officer" });
      cap.append(S("path", { d: "M-16 6 Q0 -14 16 6 Z", fill: "#1f3b63" }), S("rect", { x: -18, y: 5, width: 36, height: 5, rx: 2, fill: "#10223d" }),
        S("circle", { cx: 0, cy: -1, r: 3, fill: "#e8c98a" }));
      cap.append(S("title", { text: "Customs Officer" }));
      g.append(cap);
    }
    svg.append(g);
  }

  function shortLabel(ctx, seat) {
    const s = ctx.table && ctx.table.seats ? ctx.table.seats[seat] : null;
    if (seat === ctx.seat) return (s && s.name ? s.name : "Seat " + seat) + " (you)";
    if (s && s.kind !== "human") return "Seat " + seat + " (" + s.kind + ")";
    if (s && s.name) return s.name;
    return ctx.seatLabel ? ctx.seatLabel(seat) : "Seat " + seat;
  }

  // the legal move (notation) of this verb about this article, from the server's moves (ctx.notes), or null
  function actionFor(ctx, verb, articleId) {
    for (const n of ctx.legal) {
      const m = FT.move(ctx.notes, n);
      if (m.verb === verb && (articleId === undefined || (m.targets || {}).article === articleId)) return n;
    }
    return null;
  }

  FT.register("contraband", {
    init,
    // the move's words as web.py names it ("Claim Brandy ($3)")
    label(notation, view, notes) { return FT.move(notes, notation).label || notation; },

    draw(root, view, ctx) {
      const svg = S("svg", { viewBox: `0 0 ${W} ${H}`, class: "board-svg contraband", role: "img", "aria-label": "Contraband table" });
      svg.append(S("ellipse", { cx: CX, cy: CY, rx: RX + 40, ry: RY + 35, class: "felt-rim" }));
      svg.append(S("ellipse", { cx: CX, cy: CY, rx: RX, ry: RY, class: "felt" }));
      svg.append(S("text", { x: CX, y: 150, "text-anchor": "middle", class: "round",
        text: `Round ${view.round} · ${view.declarations} declarations · ${view.reshuffles} reshuffles` }));

      // the pack and the discards
      const pack = S("g", { transform: "translate(282,185)", class: "pack" });
      pack.append(cardBack(6, 6), cardBack(3, 3), cardBack(0, 0));
      pack.append(S("text", { x: 40, y: 128, "text-anchor": "middle", class: "label", text: `pack: ${view.pack}` }));
      svg.append(pack);
      const disc = S("g", { transform: "translate(215,350)", class: "discards" });
      // both piles counted: "0 face down" beside four listed (face up) cards read as a contradiction
      const up = view.discard.revealed.length, down = view.discard.face_down;
      disc.append(S("text", { x: 0, y: 0, class: "label", text: `discards: ${up + down}` + (up + down ? ` (${up} face up, ${down} face down)` : "") }));
      const shown = view.discard.revealed.slice(-6);
      shown.forEach((id, i) => disc.append(S("text", { x: 0, y: 18 + i * 16, class: "small", text: "· " + article(view, id).name })));
      if (view.discard.revealed.length > shown.length) disc.append(S("text", { x: 0, y: 18 + shown.length * 16, class: "small", text: `… ${view.discard.revealed.length - shown.length} more impounded` }));
      svg.append(disc);

      // the luggage: face up only on the holder's own screen, once examined
      const lug = view.luggage;
      // left of the seat boxes at the right (3 and 6 seats) and right of the pack: nothing covers a card
      const lg = S("g", { transform: "translate(384,190)", class: "luggage" });
      if (lug) {
        lg.append(S("text", { x: 0, y: -10, class: "label", text: `Luggage of ${ctx.seatLabel(lug.holder)}${lug.examined ? "" : " (not yet looked at)"}` }));
        const mine = view.your_luggage;
        for (let i = 0; i < lug.cards; i++) {
          const x = i * 82;
          if (mine && mine[i]) {
            const a = article(view, mine[i]);
            const discard = actionFor(ctx, "discard", a.id);
            const card = cardFace(a, x, 0, { hot: !!discard });
            if (discard) FT.clickable(card, "Discard " + a.name, () => ctx.act(discard));
            lg.append(card);
          } else {
            lg.append(cardBack(x, 0));
          }
        }
        const search = actionFor(ctx, "search") || actionFor(ctx, "inform");
        if (search) {
          const hit = S("rect", { x: -6, y: -6, width: lug.cards * 82 + 4, height: 116, rx: 10, class: "hot-zone" });
          FT.clickable(hit, FT.move(ctx.notes, search).verb === "search" ? "Search this luggage" : "Inform on this luggage", () => ctx.act(search));
          lg.append(hit);
        }
      } else {
        lg.append(S("text", { x: 0, y: 40, class: "label", text: "No luggage on the table" }));
      }
      svg.append(lg);

      // the declaration
      const dec = S("g", { transform: "translate(410,335)", class: "declaration" });
      dec.append(S("rect", { x: 0, y: 0, width: 320, height: 92, rx: 8, class: "paper" }));
      dec.append(S("text", { x: 12, y: 22, class: "label dark", text: view.declarer >= 0 ? `Declaration of ${ctx.seatLabel(view.declarer)}` : "Declaration" }));
      const claimed = view.claim.diplomatic_bag ? [bagName()] : view.claim.articles.map((id) => article(view, id).name);
      const dutyTotal = view.claim.articles.reduce((t, id) => t + article(view, id).duty, 0);
      dec.append(S("text", { x: 12, y: 48, class: "claim", text: claimed.length ? claimed.join(", ") : "nothing declared yet" }));
      dec.append(S("text", { x: 12, y: 74, class: "small dark", text: view.claim.diplomatic_bag ? "passes free of duty" : `duty (List A): $${dutyTotal}` }));
      svg.append(dec);

      // money owed and loans
      const owed = view.owed.map((o) => `seat ${o.payer} owes seat ${o.payee} $${o.amount}`)
        .concat(view.loans.map((l) => `loan: seat ${l.borrower} owes seat ${l.lender} $${l.amount}`));
      owed.slice(0, 3).forEach((t, i) => svg.append(S("text", { x: CX, y: 452 + i * 16, "text-anchor": "middle", class: "small", text: t })));

      for (let seat = 0; seat < view.seats; seat++) drawSeat(svg, view, ctx, seat);
      if (view.is_over && view.scores) {
        svg.append(S("text", { x: CX, y: 505, "text-anchor": "middle", class: "round", text: "Final: " + view.scores.map((s, i) => `seat ${i} ${money(s)}`).join(" · ") }));
      }
      root.replaceChildren(svg);
    },
  });
})();
