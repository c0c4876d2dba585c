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
  let viewBase = null;     // {seq, view}: the view last received, which the next message may change
  let eventsFrom = 0;      // the first event the last message changed
  let logLines = [];       // the readable log so far: state messages send only the new lines
  let clockOffset = 0;     // the server's clock minus this browser's (seconds), from each message's "now"

  function setConn(text, ok) {
    const c = $("conn");
    c.textContent = text;
    c.className = "conn " + (ok ? "ok" : "bad");
  }

  function showError(text, rule) {
    // a refused move links to the rules section of the decision it was refused in
    const box = $("error");
    box.replaceChildren(text || "");
    if (text && rule && $("rules-link").href) {
      box.append(" ", FT.el("a", { href: $("rules-link").getAttribute("href"), target: "_blank", rel: "noopener", id: "error-rule" }, "Read the rule"));
    }
  }

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

  // the view of view_base with its changes; with view_keys (a field came or went) the keys in order,
  // each the new value or the held one; null when a key is in neither (ask for the whole view)
  function rebuiltView(held, changes, keys) {
    if (!Array.isArray(keys)) return Object.assign({}, held, changes);
    const view = {};
    for (const k of keys) {
      if (Object.prototype.hasOwnProperty.call(changes, k)) view[k] = changes[k];
      else if (Object.prototype.hasOwnProperty.call(held, k)) view[k] = held[k];
      else return null;
    }
    return view;
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const url = proto + "//" + location.host + "/ws/tables/" + encodeURIComponent(tableId) + (token ? "?token=" + encodeURIComponent(token) : "");
    ws = new WebSocket(url);
    ws.onopen = () => { retry = 0; setConn("connected", true); };
    ws.onmessage = (e) => {
      let m;
      try { m = JSON.parse(e.data); } catch (err) { return; }
      if (typeof m.now === "number") clockOffset = m.now - Date.now() / 1000;
      if (m.type === "state") {
        if (m.view_changes) {
          // only the view's changed fields, over the view of message view_base: a socket that does
          // not hold that one (it skipped a message) asks for the whole view
          if (!viewBase || viewBase.seq !== m.view_base) { send({ type: "view" }); return; }
          m.view = rebuiltView(viewBase.view, m.view_changes, m.view_keys);
          if (!m.view) { send({ type: "view" }); return; }
        }
        viewBase = { seq: m.seq, view: Object.assign({}, m.view) };
        if (Array.isArray(m.events)) {
          // events after the first events_from; a gap (a missed message) asks for the whole log again
          if (m.events_from > events.length) { send({ type: "view" }); return; }
          events = events.slice(0, m.events_from).concat(m.events);
          eventsFrom = m.events_from;
          m.view.events = events;
        }
        if (Array.isArray(m.log) && typeof m.log_from === "number") {
          if (m.log_from > logLines.length) { send({ type: "view" }); return; }
          logLines = logLines.slice(0, m.log_from).concat(m.log);
          m.log = logLines;
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
        showError(m.error, m.status === 400);
        if (m.fatal) { fatal = true; setConn("refused", false); forgetBadToken(m.status); }
        renderActions();
      } else if (m.type === "left") { showError(m.message); forgetBadToken(403); }
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

  // a move's words: the game's renderer's, else the server's (core/moves.py), else its notation
  function label(notation) {
    const r = renderer();
    return r.label ? r.label(notation, msg.view, msg.notes || {}) : FT.move(msg && msg.notes, notation).label || notation;
  }

  function renderActions() {
    const box = $("actions");
    box.replaceChildren();
    box.hidden = false;
    const connected = ws && ws.readyState === WebSocket.OPEN;
    const legal = msg && msg.view.legal ? msg.view.legal : [];
    const canPlay = connected && !pending && !(msg && msg.table.takeback);
    $("notation").hidden = !(msg && msg.you.seat !== null && !msg.view.is_over);
    $("notation-input").disabled = !canPlay;
    $("notation-input").placeholder = legal.length ? "e.g. " + legal[0] : "type a move in notation";
    $("notation").querySelector("button").disabled = !canPlay;
    // a game's renderer may lay out its own side panel (actions(box, legal, ctx)): grouped, a screenful at most
    const r = renderer();
    if (r.actions && msg) {
      r.actions(box, legal, { act, disabled: !canPlay, view: msg.view, table: msg.table, seat: msg.you.seat, notes: msg.notes || {} });
      if (msg.you.can_take_back === true) addTakeback();
      return;
    }
    // group buttons by verb (the server's move): "claim brandy" and "claim watch" together
    const groups = new Map();
    for (const a of legal) {
      const verb = FT.move(msg && msg.notes, a).verb || a;
      if (!groups.has(verb)) groups.set(verb, []);
      groups.get(verb).push(a);
    }
    const moveButton = (a) => {
      // the server's note says what the choice costs and pays, where the game knows
      const note = FT.moveNote(FT.move(msg && msg.notes, a));
      return FT.el("button", { type: "button", class: "move", "data-action": a, disabled: !canPlay,
        title: a, onclick: () => act(a) }, note ? [label(a), " ", FT.el("span", { class: "note", text: note })] : label(a));
    };
    // on a phone, a long list folds: each group of moves one button that opens it in the dock's chooser, so
    // every choice stays in view without scrolling
    // (only while some move stays a button of its own: a list of nothing but groups would hide every move)
    const fold = legal.length > FOLD && groups.size > 1 && Array.from(groups.values()).some((l) => l.length === 1)
      && window.matchMedia && window.matchMedia("(max-width: 820px)").matches;
    const names = new Map(Array.from(groups, ([verb, list]) => [verb, groupName(list.map(label), verb)]));
    const taken = Array.from(names.values());
    for (const [verb, list] of groups) {
      const g = FT.el("div", { class: "group", role: "group", "aria-label": verb });
      if (fold && list.length > 1) {
        // two groups that begin alike ("Ship ...") are told apart by their verb
        const what = names.get(verb) + (taken.filter((n) => n === names.get(verb)).length > 1 ? " (" + verb + ")" : "");
        g.append(FT.el("button", { type: "button", class: "secondary open-group", "data-actions": list.join("|"), disabled: !canPlay,
          onclick: () => openGroup(what, list, moveButton) }, what + " ▸ " + list.length + " choices"));
      } else for (const a of list) g.append(moveButton(a));
      box.append(g);
    }
    if (msg && msg.you.can_take_back === true) addTakeback();
    addHint();
  }

  // "Decline when none of my cards can answer": offered at a decision the seat may decline (a reaction
  // window), and kept shown while it is on. The server sends such a decline after the same pause as one
  // chosen with a card in hand, so the other seats cannot tell which it was.
  function renderAutoDecline() {
    if (!msg || msg.you.seat === null || msg.view.is_over) return;
    const on = !!msg.you.auto_decline;
    const mine = msg.view.to_act === msg.you.seat && (msg.view.legal || []).includes("decline");
    if (!on && !mine) return;
    const box = FT.el("input", { type: "checkbox", id: "auto-decline" });
    box.checked = on;
    box.addEventListener("change", () => { if (!send({ type: "setting", auto_decline: box.checked })) box.checked = on; });
    $("actions").append(FT.el("label", { class: "auto-decline", for: "auto-decline" },
      [box, " Decline by myself when none of my cards can answer"]));
  }

  // A table that waits for its human seats (an invitation): nothing moves until they are taken, or the host
  // starts it with bots. The dock says so, offers the page's link to invite, a free seat to a visitor (who
  // gives a name), and "Start with bots" to the host.
  function freeSeats() { return msg.table.seats.filter((s) => s.kind === "human" && !s.taken).map((s) => s.seat); }
  function waitingText() {
    const free = freeSeats();
    return "Waiting for players: " + (free.length === 1 ? "seat " + free[0] + " is" : "seats " + free.join(", ") + " are")
      + " free. The game starts when every seat is taken.";
  }
  function renderWaiting() {
    if (!msg || !msg.table.waiting || msg.view.is_over) return;
    const box = $("actions");
    const invite = location.origin + "/t/" + encodeURIComponent(tableId);
    const note = FT.el("span", { class: "muted", id: "invite-note" }, " " + invite);
    const out = [FT.el("p", {}, [FT.el("button", { type: "button", class: "secondary", id: "copy-invite", onclick: () => {
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(invite).then(() => { note.textContent = " Copied: send it to the friends you invite."; }, () => {});
    } }, "Copy the invitation link"), note])];
    if (msg.you.seat === null) {
      const name = FT.el("input", { id: "seat-name", maxlength: "40", autocomplete: "nickname" });
      name.value = FT.playerName.get();
      const error = FT.el("div", { class: "error", id: "seat-error", role: "alert" });
      const take = async (seat) => {
        const who = name.value.trim();
        if (!who) { error.textContent = "Give your name, so the others at the table know who sits here."; return; }
        try {
          const joined = await FT.api("POST", "/api/tables/" + encodeURIComponent(tableId) + "/join", { seat, name: who });
          FT.playerName.set(who);
          FT.mySeats.remember(tableId, { token: joined.token, seat: joined.seat, title: msg.table.title, name: who });
          location.replace(joined.link);
          location.reload();
        } catch (err) { error.textContent = err.message; }
      };
      out.push(FT.el("div", { class: "form-row" }, [FT.el("label", { for: "seat-name" }, "Your name"), name]),
        FT.el("div", { class: "group" }, freeSeats().map((seat) => FT.el("button", { type: "button", class: "take-seat", "data-seat": String(seat),
          onclick: () => take(seat) }, "Take seat " + seat))), error);
    } else {
      const host = msg.table.host;
      const hostGone = host === null || host === undefined || !(msg.table.seats[host] || {}).taken;
      if (msg.you.seat === host || hostGone) {
        const error = FT.el("div", { class: "error", id: "start-error", role: "alert" });
        out.push(FT.el("button", { type: "button", id: "start-with-bots", onclick: async () => {
          try { await FT.api("POST", "/api/tables/" + encodeURIComponent(tableId) + "/start", { token }); }
          catch (err) { error.textContent = err.message; }
        } }, "Start with bots in the free seats"), error);
      } else out.push(FT.el("p", { class: "muted" }, "The host (" + FT.seatLabel(msg.table, host) + ") may start the game with bots."));
    }
    box.replaceChildren(...out);
  }

  const FOLD = 10;
  // a group's name: the words its labels begin with ("Lure the"), else its verb
  function groupName(labels, verb) {
    const split = labels.map((t) => String(t).split(" "));
    const common = [];
    for (let i = 0; split.every((w) => w.length > i + 1 && w[i] === split[0][i]); i++) common.push(split[0][i]);
    const text = common.join(" ").replace(/\s*[:,→—-]$/, "");
    return text || verb.charAt(0).toUpperCase() + verb.slice(1);
  }
  function openGroup(what, list, moveButton) {
    const picks = $("picks");
    picks.hidden = false;
    picks.replaceChildren(FT.el("strong", { text: what + ": " }), ...list.map(moveButton),
      FT.el("button", { type: "button", class: "secondary", onclick: () => { picks.hidden = true; picks.replaceChildren(); $("actions").hidden = false; } }, "Back"));
    $("actions").hidden = true;  // the group's moves in place of the list, the dock's box unchanged
    const first = picks.querySelector("button.move");
    if (first) first.focus();
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

  // The table's own error (a bot retrying) is shown while it lasts and cleared with it.
  let tableError = null;
  function showTableError() {
    if (msg.table.error) showError(msg.table.error);
    else if (tableError && $("error").textContent === tableError) showError("");
    tableError = msg.table.error || null;
  }

  // The decision's deadline is the server's (table.deadline, its clock); counted down against the server's
  // clock (clockOffset), rounded up so that "0 s" never shows while time remains.
  function renderTimer() {
    const box = $("timer");
    clearInterval(timerHandle);
    const dl = msg.table.deadline;
    if (!dl || msg.view.is_over) { box.hidden = true; return; }
    box.hidden = false;
    const bot = msg.table.timeout_bot || "random";
    const whose = msg.you.seat !== null && msg.view.to_act === msg.you.seat ? "Your time" : "Time for " + FT.seatLabel(msg.table, msg.view.to_act);
    const tick = () => {
      const left = Math.ceil(dl - (Date.now() / 1000 + clockOffset));
      box.dataset.left = String(Math.max(0, left));
      box.textContent = left > 0 ? whose + ": " + left + " s left (then a " + bot + " bot moves)" : "Time is up: a " + bot + " bot moves";
    };
    tick();
    timerHandle = setInterval(tick, 250);
  }

  // "Copy your seat link" for a seat; for a page opened without its token, a warning when this browser holds
  // a seat here (the lobby's Watch link, or a link shared without its #token part).
  function renderSeatLink() {
    const box = $("seat-link");
    box.replaceChildren();
    if (token && msg.you.seat !== null) {
      FT.mySeats.remember(tableId, { token, seat: msg.you.seat, title: msg.table.title });
      const note = FT.el("span", { class: "muted", id: "seat-link-note" }, " Keep it to come back to your seat.");
      box.append(FT.el("button", { type: "button", class: "secondary", id: "copy-seat-link", onclick: () => copySeatLink(note) },
        "Copy your seat link"), note);
      return;
    }
    const stored = FT.mySeats.get(tableId);
    if (!token && stored && stored.token) {
      box.append(FT.el("p", { class: "warning", id: "stored-seat-warning", role: "alert" }, [
        "This browser holds seat " + stored.seat + " at this table, but this page was opened without its seat link, so you are watching. ",
        FT.el("a", { href: "/t/" + encodeURIComponent(tableId) + "#token=" + encodeURIComponent(stored.token), id: "open-my-seat",
          onclick: () => setTimeout(() => location.reload(), 0) }, "Open your seat")]));
    }
  }

  function copySeatLink(note) {
    const link = FT.seatLink(tableId, token);
    const done = () => { note.textContent = " Copied. Anyone with this link plays your seat: keep it to yourself."; };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(link).then(done, () => { note.textContent = " " + link; });
    } else { note.textContent = " " + link; }
  }

  function forgetBadToken(status) {
    const stored = FT.mySeats.get(tableId);
    if (token && stored && stored.token === token && (status === 403 || status === 404)) FT.mySeats.forget(tableId);
  }

  // A bot that failed: who and why (the kind of fault only), and for a seated player the two ways on:
  // replace the bot, or let the fallback bot make this move.
  const replaceChoice = {}; // seat -> the bot a player picked to replace a failed one (kept across redraws)
  function renderBotFailures() {
    const box = $("bot-failures");
    const list = msg.table.bot_failures || [];
    box.replaceChildren();
    box.hidden = !list.length;
    for (const f of list) {
      const row = FT.el("div", { class: "bot-failure", "data-seat": f.seat }, [FT.el("p", {},
        "The " + f.bot + " bot at seat " + f.seat + " failed: " + f.reason + ".")]);
      if (msg.you.seat !== null && !msg.view.is_over) {
        const sel = FT.el("select", { "aria-label": "Replace the bot at seat " + f.seat + " with", class: "replace-bot" });
        for (const b of msg.table.bot_choices || []) if (b !== f.bot) sel.append(FT.el("option", { value: b }, b + " bot"));
        sel.value = (msg.table.bot_choices || []).includes("heuristic") && f.bot !== "heuristic" ? "heuristic" : (msg.table.fallback_bot || "random");
        // every state message redraws this box: a choice made before a redraw must survive it
        if (replaceChoice[f.seat] && Array.from(sel.options).some((o) => o.value === replaceChoice[f.seat])) sel.value = replaceChoice[f.seat];
        sel.addEventListener("change", () => { replaceChoice[f.seat] = sel.value; });
        row.append(FT.el("div", { class: "row" }, [sel, FT.el("button", { type: "button", class: "replace-bot-button",
          onclick: () => send({ type: "bot", seat: f.seat, choice: "replace", bot: sel.value }) }, "Replace")]));
        if (msg.view.to_act === f.seat) {
          row.append(FT.el("button", { type: "button", class: "secondary fallback-button",
            onclick: () => send({ type: "bot", seat: f.seat, choice: "fallback" }) }, "Let the " + (msg.table.fallback_bot || "random") + " bot make this move"));
        }
      } else {
        row.append(FT.el("p", { class: "muted" }, "The players at this table can replace it, or let the " + (msg.table.fallback_bot || "random") + " bot move for it."));
      }
      box.append(row);
    }
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
    // the server's readable log (names, display names, private lines, marks); the raw events if it sent none
    const ol = $("log");
    const lines = Array.isArray(msg.log) && msg.log.length ? msg.log
      : (msg.view.events || []).map((t, i) => ({ n: i + 1, text: t, kind: "event" }));
    const same = lines.length >= renderedEvents && ol.children.length === renderedEvents
      && lines.slice(0, renderedEvents).every((l, i) => ol.children[i].dataset.text === l.text);
    if (!same) { ol.replaceChildren(); renderedEvents = 0; }
    for (let i = renderedEvents; i < lines.length; i++) {
      ol.append(FT.logLine(lines[i]));
    }
    renderedEvents = lines.length;
    ol.scrollTop = ol.scrollHeight;
  }

  function renderOver() {
    const box = $("over");
    if (!msg.view.is_over) { box.hidden = true; return; }
    box.hidden = false;
    const out = [FT.el("h2", { text: "Game over" }),
      ...FT.resultsPanel(msg.results, msg.view.winners, (s) => FT.seatLabel(msg.table, s), msg.index)];
    out.push(FT.el("p", {}, [FT.el("a", { href: "/api/tables/" + encodeURIComponent(tableId) + "/record", download: tableId + ".json", id: "download-record" }, "Download the record"),
      " · ", FT.el("a", { href: "/replay?table=" + encodeURIComponent(tableId), id: "replay-link" }, "Replay it step by step")]));
    box.replaceChildren(...out);
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
    const r = current = await FT.loadRenderer(FT.gameName(v.game));
    // a renderer may word the engine's prompt for players (an event's id as the words the table uses)
    const prompt = r.prompt ? r.prompt(v) : v.prompt;
    const waiting = !!msg.table.waiting && !v.is_over;
    $("prompt").textContent = waiting ? waitingText() : v.is_over ? "The game is over." : (yours ? "Your move: " + prompt : FT.seatLabel(msg.table, v.to_act) + " to act: " + prompt);
    $("prompt").className = "prompt" + (yours && !waiting ? " yours" : "");
    document.body.dataset.waiting = waiting ? "1" : "0";
    // the rules page's section for this decision (each section carries id="phase-<phase>")
    const phase = typeof v.phase === "string" ? v.phase : "";
    $("rules-link").hidden = false;
    $("rules-link").href = "/rules/" + encodeURIComponent(FT.gameName(v.game)) + (phase ? "#phase-" + encodeURIComponent(phase) : "");
    $("rules-link").textContent = phase && !v.is_over ? "Rules: what governs this decision" : "The rules of this game";
    showTableError();
    const legal = legalSet();
    // the dock's chooser and details boxes: a renderer puts a piece's choices and a decision's details
    // there, beside the choices, never over (or pushing away) the board; each draw starts them empty
    const picks = $("picks"), details = $("details");
    picks.hidden = true; picks.className = "picks"; picks.replaceChildren(); details.replaceChildren();
    const panned = panPlaces();
    r.draw($("board"), v, { seat: msg.you.seat, legal, act, table: msg.table, seatLabel: (s) => FT.seatLabel(msg.table, s), disabled: pending,
      notes: msg.notes || {}, picks, details });
    legible();
    restorePan(panned);
    renderActions();
    renderAutoDecline();
    renderWaiting();
    renderTakeback();
    renderTimer();
    renderSeatLink();
    renderBotFailures();
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

  // Legible at the default zoom: each drawing is shown at least as wide as makes its smallest label
  // LABEL_PX on screen (a phone pans a map wider than the screen, as at a real table); + and − scale
  // that width, Fit goes back to it. Icons without a letter or digit (a coin's ¤) are not labels.
  const LABEL_PX = 11;
  let zoom = 1;
  function smallestFont(svg) {
    const base = svg.getScreenCTM();
    if (!base || !base.a) return null;
    let min = Infinity;
    for (const t of svg.querySelectorAll("text")) {
      if (!/[\p{L}\p{N}]/u.test(t.textContent || "")) continue;
      const m = t.getScreenCTM();
      const f = parseFloat(getComputedStyle(t).fontSize) * (m ? Math.hypot(m.a, m.b) / Math.hypot(base.a, base.b) : 1);
      if (f > 0 && f < min) min = f;
    }
    return isFinite(min) ? min : null;
  }
  function legible() {
    const board = $("board");
    board.classList.toggle("zoomed", zoom !== 1);
    for (const svg of board.querySelectorAll("svg")) {
      if (svg.parentElement.closest("svg")) continue;
      for (const k of ["width", "maxWidth", "minWidth", "flex"]) svg.style[k] = "";
      svg.classList.remove("pannable");
      const vb = svg.viewBox && svg.viewBox.baseVal;
      const fit = svg.getBoundingClientRect().width;
      if (!vb || !vb.width || !fit) continue;
      const min = smallestFont(svg);
      const need = min ? vb.width * LABEL_PX / min : 0;
      const width = Math.max(fit, need) * zoom;
      if (Math.abs(width - fit) < 0.5) continue;
      // inline, so no game's own sizing (a flex basis, a max-width) undoes it
      Object.assign(svg.style, { width: Math.ceil(width) + "px", minWidth: Math.ceil(width) + "px", maxWidth: "none", flex: "0 0 auto" });
      svg.classList.add("pannable");
    }
  }
  // A map panned by the player stays where it was across redraws (a renderer draws its boxes anew each
  // move); a drawing panned for the first time opens on its middle, not its west edge.
  function panBoxes() {
    return [$("board")].concat(Array.from($("board").querySelectorAll("div"))).filter((e) => {
      const o = getComputedStyle(e).overflowX;
      return (o === "auto" || o === "scroll") && e.scrollWidth > e.clientWidth + 1;
    });
  }
  const panKey = (e, i) => (e.id || e.className || "box") + ":" + i;
  const panSeen = new Set();
  function panPlaces() {
    const out = {};
    panBoxes().forEach((e, i) => { out[panKey(e, i)] = e.scrollLeft; });
    return out;
  }
  function restorePan(before) {
    panBoxes().forEach((e, i) => {
      const k = panKey(e, i);
      if (k in before) e.scrollLeft = before[k];
      else if (!panSeen.has(k) && e !== $("board")) e.scrollLeft = (e.scrollWidth - e.clientWidth) / 2;  // a map's own box
      panSeen.add(k);
    });
  }
  $("zoom-in").onclick = () => { zoom = Math.min(4, zoom * 1.25); legible(); };
  $("zoom-out").onclick = () => { zoom = Math.max(0.5, zoom / 1.25); legible(); };
  $("zoom-fit").onclick = () => { zoom = 1; legible(); };
  let resizing = null;
  window.addEventListener("resize", () => { clearTimeout(resizing); resizing = setTimeout(legible, 150); });

  if (!tableId) { showError("no table in this address; go back to the lobby"); return; }
  connect();
})();
