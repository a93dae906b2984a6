// holdem play: the table page. It draws what the server sends and sends the person's moves.
// Every rule is decided by the server (the engine); the page only keeps the raise pile and
// never offers an amount outside the legal interval the server sent.
"use strict";

(function () {
  const params = new URLSearchParams(location.search);
  const record = params.get("record") === "1";
  const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
  const $ = (id) => document.getElementById(id);

  const app = {
    state: null,        // the last "state" message
    hands: [],          // every hand's log lines (index = hand number - 1)
    pile: [],           // chips on the raise: numbers, or {preset, amount}
    received: [],       // every message received (only with ?record=1, for tests)
    ws: null,
    deadline: null,     // performance.now() time the clock runs out
    sent: null,         // the decision number already answered
  };
  window.holdem = app;

  // ------------------------------------------------------------------ connection
  function connect() {
    const base = location.pathname.endsWith("/") ? location.pathname : location.pathname + "/";
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(proto + "//" + location.host + base + "ws");
    app.ws = ws;
    ws.onopen = () => { $("conn").textContent = "connected"; $("conn").classList.remove("bad"); };
    ws.onclose = () => {
      $("conn").textContent = "disconnected — reconnecting…";
      $("conn").classList.add("bad");
      setTimeout(connect, 1000);
    };
    ws.onmessage = (ev) => {
      if (record) app.received.push(ev.data);
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") onState(msg);
      else if (msg.type === "history") { app.hands = msg.hands.slice(); renderLog(); }
      else if (msg.type === "error") { app.sent = null; say(msg.message, true); }
    };
  }

  function send(obj) {
    if (app.ws && app.ws.readyState === WebSocket.OPEN) {
      app.ws.send(JSON.stringify(obj));
      if (obj.decision != null) app.sent = obj.decision;
    }
  }

  // ------------------------------------------------------------------ drawing
  function cardEl(code) {
    const el = document.createElement("div");
    if (!code) { el.className = "card back"; return el; }
    const rank = code[0] === "T" ? "10" : code[0];
    const suit = code[1];
    el.className = "card" + (suit === "h" || suit === "d" ? " red" : "");
    el.dataset.card = code;
    el.innerHTML = "<span>" + rank + "</span><span class=\"suit\">" + SUITS[suit] + "</span>";
    return el;
  }

  function seatPosition(i, n) {
    // Seat 0 (you) at the bottom; the others clockwise around the oval.
    const angle = Math.PI / 2 + (2 * Math.PI * i) / n;
    const phone = window.innerWidth <= 640;  // a narrower oval: the seats stay on screen
    return { x: 50 + 41 * Math.cos(angle), y: (phone ? 51.5 : 50) + (phone ? 35 : 37) * Math.sin(angle) };
  }

  function fmt(n) { return Number(n).toLocaleString("en-US"); }

  // ["You"] -> "You"; ["You", "Ada", "Bea"] -> "You, Ada and Bea" (as the server's log says it).
  function joinNames(names) {
    return names.length === 1 ? names[0] : names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
  }

  function actionClass(text) {
    const word = (text || "").split(" ")[0].toLowerCase();
    return word ? " act-" + word : "";
  }

  function onState(s) {
    const prevHand = app.state ? app.state.hand : null;
    const prevLegal = app.state && app.state.legal;
    app.state = s;
    const newDecision = Boolean(s.legal) && (!prevLegal || s.hand !== prevHand);
    if (!s.legal || newDecision) app.pile = [];
    if (s.hand > 0) app.hands[s.hand - 1] = s.log;
    app.deadline = s.clock_left == null ? null : performance.now() + s.clock_left * 1000;
    if (s.legal) say(s.legal.check ? "Your turn: check or bet." : "Your turn: " + fmt(s.legal.call) + " to call.");
    else if (s.hand_over && s.hand > 0) say("Hand over. Press Enter or Space for the next hand.");
    else say("");
    render();
  }

  function render() {
    const s = app.state;
    if (!s) return;
    $("blinds").textContent = s.blinds.join("/");
    $("stat-hands").textContent = s.session.hands;
    $("stat-net").textContent = (s.session.net > 0 ? "+" : "") + fmt(s.session.net);
    $("stat-bb").textContent = s.session.bb_per_100 == null ? "–" : (s.session.bb_per_100 > 0 ? "+" : "") + s.session.bb_per_100.toFixed(1);

    const board = $("board");
    board.innerHTML = "";
    for (let i = 0; i < 5; i++) {
      const code = s.board[i];
      const el = code ? cardEl(code) : document.createElement("div");
      if (!code) el.className = "card slot";
      board.appendChild(el);
    }
    const pots = $("pots");
    pots.innerHTML = "";
    // Before the first street is complete the middle holds only this round's bets: one pot.
    const layers = s.pots.length ? s.pots : (s.pot_total > 0 ? [{ label: "pot", amount: s.pot_total }] : []);
    for (const p of layers) {
      const el = document.createElement("span");
      el.className = "pot";
      el.textContent = p.label[0].toUpperCase() + p.label.slice(1) + " " + fmt(p.amount);
      pots.appendChild(el);
    }
    const inPots = layers.reduce((sum, p) => sum + p.amount, 0);
    if (!s.hand_over && s.pot_total > inPots) {
      const el = document.createElement("div");
      el.className = "total";
      el.textContent = "Total with this round's bets: " + fmt(s.pot_total);
      pots.appendChild(el);
    }
    const results = $("results");
    results.innerHTML = "";
    const winners = new Set();
    const best = new Set();  // the winning five cards of every pot's first winner
    if (s.results) {
      for (const p of s.pots) {
        const names = joinNames(p.winners.map((w) => s.seats[w].name));
        p.winners.forEach((w) => winners.add(w));
        const shown = s.results.shown[String(p.winners[0])];
        p.winners.forEach((w) => { const sh = s.results.shown[String(w)]; if (sh) sh.best.forEach((c) => best.add(c)); });
        const el = document.createElement("div");
        const what = shown ? " with " + shown.hand : "";
        if (p.winners.length === 1) {
          const verb = p.winners[0] === s.you ? " win " : " wins ";
          el.textContent = names + verb + "the " + p.label + " (" + fmt(p.amount) + ")" + what;
        } else {
          el.textContent = names + " split the " + p.label + " (" + fmt(p.amount) + ": " + joinNames(p.shares.map(fmt)) + ")" + what;
        }
        results.appendChild(el);
      }
    }
    if (best.size) {
      board.querySelectorAll(".card[data-card]").forEach((c) => c.classList.add(best.has(c.dataset.card) ? "best" : "dim"));
    }

    const seats = $("seats");
    seats.innerHTML = "";
    const n = s.seats.length;
    s.seats.forEach((seat, i) => {
      const pos = seatPosition(i, n);
      const el = document.createElement("div");
      el.className = "seat" + (s.actor === i ? " actor" : "") + (seat.folded ? " folded" : "") + (winners.has(i) ? " winner" : "");
      el.id = "seat-" + i;
      el.style.left = pos.x + "%";
      el.style.top = pos.y + "%";
      const cards = document.createElement("div");
      cards.className = "cards";
      if (seat.cards) {
        seat.cards.forEach((c) => {
          const el = cardEl(c);
          if (best.size && winners.has(i)) el.classList.add(best.has(c) ? "best" : "dim");
          cards.appendChild(el);
        });
      }
      else if (seat.has_cards) { cards.appendChild(cardEl(null)); cards.appendChild(cardEl(null)); }
      el.appendChild(cards);
      const box = document.createElement("div");
      box.className = "box";
      const tags = document.createElement("div");
      tags.className = "tags";
      seat.tags.forEach((t) => { const b = document.createElement("span"); b.className = "tag " + t; b.textContent = t; tags.appendChild(b); });
      if (seat.all_in && !seat.folded) { const b = document.createElement("span"); b.className = "tag ALLIN"; b.textContent = "ALL IN"; tags.appendChild(b); }
      box.appendChild(tags);
      box.insertAdjacentHTML("beforeend", "<div class=\"name\"></div><div class=\"stack\"></div><div class=\"status\"></div><div class=\"handname\"></div>");
      box.querySelector(".name").textContent = seat.name;
      box.querySelector(".stack").textContent = fmt(seat.stack) + " chips";
      // the seat's last action this street (a fold stays), or who is on turn
      const status = s.actor === i ? (i === s.you ? "your turn" : "thinking…") : (seat.last_action || (seat.folded ? "Fold" : ""));
      const st = box.querySelector(".status");
      st.textContent = status;
      st.className = "status" + (s.actor === i ? "" : actionClass(status));
      const shown = s.results && s.results.shown[String(i)];
      if (shown) box.querySelector(".handname").textContent = shown.hand;
      el.appendChild(box);
      seats.appendChild(el);
      if (seat.bet > 0) {
        const bet = document.createElement("div");
        bet.className = "bet";
        bet.id = "bet-" + i;
        const bp = { x: 50 + (pos.x - 50) * 0.58, y: 50 + (pos.y - 50) * 0.5 };
        bet.style.left = bp.x + "%";
        bet.style.top = bp.y + "%";
        bet.textContent = fmt(seat.bet);
        seats.appendChild(bet);
      }
    });
    renderControls();
    renderLog();
    renderChart(s.session);
  }

  // ------------------------------------------------------------------ the session chart
  function renderChart(session) {
    const svg = $("chart");
    const pts = session.chart || [0];
    const W = 300, H = 90, pad = 6;
    let lo = Math.min(0, ...pts), hi = Math.max(0, ...pts);
    if (hi === lo) { hi += 1; lo -= 1; }  // a flat line in the middle
    const span = hi - lo;
    const x = (i) => (pts.length === 1 ? W / 2 : (i * W) / (pts.length - 1));
    const y = (v) => pad + ((hi - v) * (H - 2 * pad)) / span;
    const line = pts.map((v, i) => x(i).toFixed(1) + "," + y(v).toFixed(1)).join(" ");
    svg.innerHTML = "<line class=\"zero\" x1=\"0\" x2=\"" + W + "\" y1=\"" + y(0) + "\" y2=\"" + y(0) + "\"></line>" +
      "<polyline class=\"line\" points=\"" + line + "\"></polyline>";
    const last = pts[pts.length - 1];
    $("chart-now").textContent = (last > 0 ? "+" : "") + fmt(last);
    svg.dataset.points = pts.length;
  }

  function renderLog() {
    const log = $("log");
    log.innerHTML = "";
    app.hands.forEach((lines) => {
      const h = document.createElement("div");
      h.className = "hand";
      (lines || []).forEach((line) => {
        const l = document.createElement("div");
        l.className = "line";
        l.textContent = line;
        h.appendChild(l);
      });
      log.appendChild(h);
    });
    log.scrollTop = log.scrollHeight;
  }

  // ------------------------------------------------------------------ the raise pile
  function pileTotal() {
    return app.pile.reduce((sum, c) => sum + (typeof c === "number" ? c : c.amount), 0);
  }

  // The raise-to total the Raise button would send (null: no raise possible).
  function raiseTo() {
    const s = app.state;
    if (!s || !s.legal || s.legal.min_raise_to == null) return null;
    if (app.pile.length === 0) return s.legal.min_raise_to;
    return s.current_bet + pileTotal();
  }

  function raiseProblem(to) {
    const L = app.state.legal;
    if (to < L.min_raise_to) {
      return "The minimum " + (app.state.current_bet ? "raise" : "bet") + " is to " + fmt(L.min_raise_to) +
        " (at least the last raise). A short stack may still go all in (A).";
    }
    if (to > L.max_raise_to) return "The most you can put in is " + fmt(L.max_raise_to) + " (all in).";
    return null;
  }

  function addChip(value) {
    const s = app.state;
    if (!s || !s.legal) return;
    if (s.legal.min_raise_to == null) { say("You cannot raise now: you can only call or fold.", true); return; }
    const to = s.current_bet + pileTotal() + value;
    if (to > s.legal.max_raise_to) { say("The most you can put in is " + fmt(s.legal.max_raise_to) + " (all in): press A.", true); return; }
    app.pile.push(value);
    const problem = raiseProblem(s.current_bet + pileTotal());
    say(problem || "Raise to " + fmt(s.current_bet + pileTotal()) + ": press R.", Boolean(problem));
    renderControls();
  }

  function undoChip() {
    if (!app.pile.length) return;
    app.pile.pop();
    const to = raiseTo();
    const problem = app.pile.length && to != null ? raiseProblem(to) : null;
    say(problem || "", Boolean(problem));
    renderControls();
  }

  function preset(name) {
    const s = app.state;
    if (!s || !s.legal) return;
    if (!s.legal.presets) { say("You cannot raise now: you can only call or fold.", true); return; }
    const amount = s.legal.presets[name];
    app.pile = [{ preset: name, amount: amount - s.current_bet }];
    say("Raise to " + fmt(amount) + ": press R.");
    renderControls();
  }

  function renderControls() {
    const s = app.state;
    const L = s && s.legal;
    $("btn-fold").disabled = !(L && L.fold);
    $("btn-call").disabled = !L;
    $("btn-call").firstChild.textContent = L && !L.check ? "Call " + fmt(L.call) + " " : "Check ";
    const to = raiseTo();
    const canRaise = Boolean(L && to != null && !raiseProblem(to));
    $("btn-raise").disabled = !canRaise;
    $("btn-raise").firstChild.textContent = (s && s.current_bet === 0 ? "Bet" : "Raise") + " ";
    $("raise-to").textContent = to == null ? "to –" : "to " + fmt(to);
    document.querySelectorAll(".chip, #presets button, #btn-undo").forEach((b) => { b.disabled = !(L && L.presets); });
    const pile = $("pile");
    pile.innerHTML = "";
    const counts = new Map();  // value -> how many chips of it, in the order first added
    app.pile.forEach((c) => {
      const key = typeof c === "number" ? c : "preset";
      counts.set(key, (counts.get(key) || 0) + 1);
    });
    counts.forEach((count, key) => {
      const el = document.createElement("div");
      if (key === "preset") {
        const c = app.pile.find((x) => typeof x !== "number");
        el.className = "pchip preset";
        el.textContent = "+" + fmt(c.amount);
      } else {
        el.className = "pchip c" + key;
        el.textContent = String(key);
        if (count > 1) { const b = document.createElement("span"); b.className = "count"; b.textContent = "×" + count; el.appendChild(b); }
      }
      pile.appendChild(el);
    });
    if (!app.pile.length) { const e = document.createElement("span"); e.className = "empty"; e.textContent = "no chips"; pile.appendChild(e); }
    pile.title = app.pile.length ? "chips on the raise: " + fmt(pileTotal()) : "chips on the raise";
    $("btn-next").disabled = !(s && s.hand_over);
  }

  function say(text, error) {
    const m = $("message");
    m.textContent = text;
    m.classList.toggle("error", Boolean(error));
  }

  // ------------------------------------------------------------------ moves
  function act(kind) {
    const s = app.state;
    if (!s || !s.legal) { if (s && !s.hand_over) say("It is not your turn.", true); return; }
    const L = s.legal;
    if (app.sent === s.decision) return;  // already answered: a second press sends nothing
    if (kind === "fold") {
      if (!L.fold) { say("Folding is not offered when you can check for free: press C.", true); return; }
      send({ type: "action", action: "fold", hand: s.hand, decision: s.decision });
    } else if (kind === "call") {
      send({ type: "action", action: L.check ? "check" : "call", hand: s.hand, decision: s.decision });
    } else if (kind === "raise") {
      const to = raiseTo();
      if (to == null) { say("You cannot raise now: you can only call or fold.", true); return; }
      const problem = raiseProblem(to);
      if (problem) { say(problem, true); return; }
      send({ type: "action", action: "raise", amount: to, hand: s.hand, decision: s.decision });
    }
  }

  function nextHand() {
    if (app.state && app.state.hand_over) send({ type: "next" });
  }

  $("btn-fold").onclick = () => act("fold");
  $("btn-call").onclick = () => act("call");
  $("btn-raise").onclick = () => act("raise");
  $("btn-next").onclick = nextHand;
  $("btn-undo").onclick = undoChip;
  document.querySelectorAll(".chip").forEach((b) => { b.onclick = () => addChip(Number(b.dataset.chip)); });
  document.querySelectorAll("#presets button").forEach((b) => { b.onclick = () => preset(b.dataset.preset); });

  const KEYS = {
    f: () => act("fold"), c: () => act("call"), r: () => act("raise"),
    "1": () => addChip(5), "2": () => addChip(10), "3": () => addChip(25), "4": () => addChip(50),
    backspace: undoChip, m: () => preset("min"), h: () => preset("half"), p: () => preset("pot"), a: () => preset("allin"),
    enter: nextHand, " ": nextHand,
  };
  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const fn = KEYS[ev.key.toLowerCase()];
    if (!fn) return;
    ev.preventDefault();
    if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
    fn();
  });

  // ------------------------------------------------------------------ the clock
  setInterval(() => {
    const clock = $("clock");
    if (app.deadline == null || !app.state || !app.state.legal) { clock.classList.remove("on"); return; }
    const left = Math.max(0, (app.deadline - performance.now()) / 1000);
    clock.classList.add("on");
    clock.classList.toggle("low", left < 5);
    $("clock-bar").style.width = Math.min(100, (100 * left) / app.state.clock) + "%";
    $("clock-text").textContent = Math.ceil(left) + " s";
  }, 100);

  connect();
})();
