// The table page: one websocket to the server; every state message redraws the board from this seat's view.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const token = params.get("token") || "";
  let msg = null;          // the last state message
  let ws = null;
  let retry = 0;
  let pending = false;     // an action is on its way: wait for its answer
  let nextId = 1;
  let fatal = false;
  let timerHandle = null;
  let renderedEvents = 0;
  let events = [];         // the table's events so far: state messages send only the new ones
  let eventsFrom = 0;      // the first event the last message changed

  function setConn(text, ok) {
    const c = $("conn");
    c.textContent = text;
    c.className = "conn " + (ok ? "ok" : "bad");
  }

  function showError(text) { $("error").textContent = text || ""; }

  function send(obj) {
    if (!ws || ws.readyState !== WebSocket.OPEN) { showError("not connected; reconnecting…"); return false; }
    obj.id = nextId++;
    ws.send(JSON.stringify(obj));
    return true;
  }

  function act(notation) {
    if (!msg || pending) return;
    const text = String(notation || "").trim();
    if (!text) { showError("type an action, e.g. one of the buttons' names"); return; }
    showError("");
    if (send({ type: "action", action: text, seq: msg.seq })) {
      pending = true;
      renderActions();
    }
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const url = proto + "//" + location.host + "/ws/tables/" + encodeURIComponent(tableId) + (token ? "?token=" + encodeURIComponent(token) : "");
    ws = new WebSocket(url);
    ws.onopen = () => { retry = 0; setConn("connected", true); };
    ws.onmessage = (e) => {
      let m;
      try { m = JSON.parse(e.data); } catch (err) { return; }
      if (m.type === "state") {
        if (Array.isArray(m.events)) {
          // events after the first events_from; a gap (a missed message) asks for the whole log again
          if (m.events_from > events.length) { send({ type: "view" }); return; }
          events = events.slice(0, m.events_from).concat(m.events);
          eventsFrom = m.events_from;
          m.view.events = events;
        }
        pending = false; msg = m; render();
        // the take-back hint costs the server a search: asked only when a take-back may be possible
        if (m.you.can_take_back === null) send({ type: "hint" });
      } else if (m.type === "hint") {
        // only a "yes" changes the page: add the button, leaving the move buttons as they are
        if (msg && m.seq === msg.seq) { msg.you.can_take_back = m.can_take_back; if (m.can_take_back) addTakeback(); }
      }
      else if (m.type === "ack") { pending = false; renderActions(); }
      else if (m.type === "error") {
        pending = false;
        showError(m.error);
        if (m.fatal) { fatal = true; setConn("refused", false); }
        renderActions();
      } else if (m.type === "left") { showError(m.message); }
    };
    ws.onclose = () => {
      pending = false;
      if (fatal) return;
      setConn("reconnecting…", false);
      renderActions();
      const delay = Math.min(2000, 250 * Math.pow(2, retry++));
      setTimeout(connect, delay);
    };
  }

  function legalSet() {
    const v = msg && msg.view;
    return new Set(v && v.legal ? v.legal : []);
  }

  let current = null;       // the game's renderer once loaded with its components (FT.loadRenderer)
  function renderer() {
    return current || FT.renderers.generic;
  }

  function label(notation) {
    const r = renderer();
    return r.label ? r.label(notation, msg.view) : notation;
  }

  function renderActions() {
    const box = $("actions");
    box.replaceChildren();
    const connected = ws && ws.readyState === WebSocket.OPEN;
    const legal = msg && msg.view.legal ? msg.view.legal : [];
    const canPlay = connected && !pending && !(msg && msg.table.takeback);
    $("notation").hidden = !(msg && msg.you.seat !== null && !msg.view.is_over);
    $("notation-input").disabled = !canPlay;
    $("notation-input").placeholder = legal.length ? "e.g. " + legal[0] : "type a move in notation";
    $("notation").querySelector("button").disabled = !canPlay;
    // group buttons by verb: "claim brandy" and "claim watch" together
    const groups = new Map();
    for (const a of legal) {
      const verb = a.split(" ")[0];
      if (!groups.has(verb)) groups.set(verb, []);
      groups.get(verb).push(a);
    }
    for (const [verb, list] of groups) {
      const g = FT.el("div", { class: "group", role: "group", "aria-label": verb });
      for (const a of list) {
        g.append(FT.el("button", { type: "button", class: "move", "data-action": a, disabled: !canPlay,
          title: a, onclick: () => act(a) }, label(a)));
      }
      box.append(g);
    }
    if (msg && msg.you.can_take_back === true) addTakeback();
    addHint();
  }

  // At a table with hints on (server/hints.py): the search's preferred move for your decision, from your view only.
  function addHint() {
    if (!msg || !msg.table.hints || msg.view.is_over) return;
    if (msg.you.seat === null || msg.view.to_act !== msg.you.seat) {  // everyone sees that hints are on
      $("actions").append(FT.el("p", { id: "hints-on", class: "muted" }, "Hints are on at this table: a human seat may ask for one at its turn."));
      return;
    }
    const last = addHint.last && addHint.last.seq === msg.seq ? addHint.last : null;
    const out = FT.el("p", { id: "hint-text", class: "muted", "aria-live": "polite" }, last ? last.text : "");
    const button = FT.el("button", { type: "button", class: "secondary", id: "ask-hint", disabled: !!last, onclick: async () => {
      button.disabled = true;
      out.textContent = "Thinking from your view…";
      const seq = msg.seq;
      try {
        const r = await FT.api("POST", "/api/tables/" + encodeURIComponent(tableId) + "/hint", { token });
        addHint.last = { seq, text: "Hint: " + r.hint.sentence };
      } catch (err) { addHint.last = { seq, text: "No hint: " + err.message }; }
      if (msg.seq === seq) out.textContent = addHint.last.text;
    } }, "Hint");
    $("actions").append(button, out);
  }

  function addTakeback() {
    if (!msg || msg.table.takeback || $("ask-takeback")) return;
    const connected = ws && ws.readyState === WebSocket.OPEN;
    $("actions").append(FT.el("button", { type: "button", class: "secondary", id: "ask-takeback", disabled: !connected,
      onclick: () => send({ type: "takeback" }) }, "Take back my last move"));
  }

  function renderTakeback() {
    const box = $("takeback");
    box.replaceChildren();
    const tb = msg.table.takeback;
    if (!tb) return;
    const who = FT.seatLabel(msg.table, tb.seat);
    const mine = msg.you.seat !== null && tb.waiting.includes(msg.you.seat);
    box.append(FT.el("p", {}, who + " asks to take back “" + tb.action + "”."));
    if (mine) {
      box.append(FT.el("button", { type: "button", id: "approve-takeback", onclick: () => send({ type: "answer", approve: true }) }, "Approve"),
        " ", FT.el("button", { type: "button", class: "secondary", id: "refuse-takeback", onclick: () => send({ type: "answer", approve: false }) }, "Refuse"));
    } else {
      box.append(FT.el("p", { class: "muted" }, "Waiting for " + tb.waiting.map((s) => FT.seatLabel(msg.table, s)).join(", ") + "."));
    }
  }

  function renderTimer() {
    const box = $("timer");
    clearInterval(timerHandle);
    const dl = msg.table.deadline;
    if (!dl || msg.view.is_over) { box.hidden = true; return; }
    box.hidden = false;
    const tick = () => {
      const left = Math.max(0, Math.round(dl - Date.now() / 1000));
      box.textContent = "Turn timer: " + left + " s (then a " + msg.table.timeout_bot + " bot moves)";
    };
    tick();
    timerHandle = setInterval(tick, 1000);
  }

  function renderSeats() {
    const ul = $("seats");
    ul.replaceChildren();
    for (const s of msg.table.seats) {
      const bits = [FT.seatLabel(msg.table, s.seat)];
      if (s.kind === "human" && !s.taken) bits.push("(free)");
      if (s.seat === msg.you.seat) bits.push("← you");
      if (s.seat === msg.view.to_act) bits.push("· to act");
      ul.append(FT.el("li", { class: s.seat === msg.view.to_act ? "acting" : "" }, bits.join(" ")));
    }
  }

  function renderLog() {
    const ol = $("log");
    const events = msg.view.events || [];
    if (events.length < renderedEvents || eventsFrom < renderedEvents) { ol.replaceChildren(); renderedEvents = 0; }
    for (let i = renderedEvents; i < events.length; i++) ol.append(FT.el("li", { text: events[i] }));
    renderedEvents = events.length;
    ol.scrollTop = ol.scrollHeight;
  }

  function renderOver() {
    const box = $("over");
    if (!msg.view.is_over) { box.hidden = true; return; }
    box.hidden = false;
    box.replaceChildren(
      FT.el("h2", { text: "Game over" }),
      FT.el("p", { text: "Winner" + (msg.view.winners.length > 1 ? "s" : "") + ": " + msg.view.winners.map((s) => FT.seatLabel(msg.table, s)).join(", ") }),
      FT.el("p", {}, [FT.el("a", { href: "/api/tables/" + encodeURIComponent(tableId) + "/record", download: tableId + ".json", id: "download-record" }, "Download the record"),
        " · ", FT.el("a", { href: "/replay?table=" + encodeURIComponent(tableId), id: "replay-link" }, "Replay it step by step")]));
  }

  async function render() {
    const v = msg.view;
    document.body.dataset.index = String(msg.index);
    document.body.dataset.over = v.is_over ? "1" : "0";
    document.title = msg.table.title + " · Freetrader";
    $("title").textContent = msg.table.title + (msg.table.label ? " · " + msg.table.label : "") + " · table " + msg.table.id
      + (msg.table.seed_chosen ? " · seed chosen by the creator (practice)" : "");
    $("whoami").textContent = msg.you.seat === null ? "You are watching (spectator)." : "You are " + FT.seatLabel(msg.table, msg.you.seat) + ".";
    const yours = msg.you.seat !== null && v.to_act === msg.you.seat;
    $("prompt").textContent = v.is_over ? "The game is over." : (yours ? "Your move: " + v.prompt : FT.seatLabel(msg.table, v.to_act) + " to act: " + v.prompt);
    $("prompt").className = "prompt" + (yours ? " yours" : "");
    if (msg.table.error) showError(msg.table.error);
    const r = current = await FT.loadRenderer(FT.gameName(v.game));
    const legal = legalSet();
    r.draw($("board"), v, { seat: msg.you.seat, legal, act, table: msg.table, seatLabel: (s) => FT.seatLabel(msg.table, s), disabled: pending });
    renderActions();
    renderTakeback();
    renderTimer();
    renderSeats();
    renderLog();
    renderOver();
  }

  $("notation").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("notation-input");
    act(input.value);
    input.value = "";
  });

  if (!tableId) { showError("no table in this address; go back to the lobby"); return; }
  connect();
})();
