// The renderer for any game without its own: the view's fields, as a readable list.
"use strict";
(function () {
  const COMMON = new Set(["game", "seat", "seats", "to_act", "prompt", "is_over", "actions_taken", "legal",
    "events", "scores", "winners"]);
  function show(value) {
    if (value === null || value === undefined) return "—";
    if (typeof value !== "object") return String(value);
    return JSON.stringify(value);
  }
  FT.register("generic", {
    draw(root, view) {
      root.replaceChildren();
      const dl = FT.el("dl", { class: "generic-view" });
      for (const [k, v] of Object.entries(view)) {
        if (COMMON.has(k)) continue;
        dl.append(FT.el("dt", { text: k.replace(/_/g, " ") }));
        const text = show(v);
        // long values fold away so the page stays readable
        const body = text.length > 160
          ? FT.el("details", {}, [FT.el("summary", { text: text.slice(0, 100) + "…" }), FT.el("pre", { text })])
          : text;
        dl.append(FT.el("dd", {}, body));
      }
      root.append(FT.el("p", { class: "muted", text: "No board drawing for " + view.game + " yet: its view, field by field." }), dl);
    },
  });
})();
