/* Zap — the live table (templates/play/table.html), plain JS, no build step.
 *
 * Talks to the server over a WebSocket at cfg.ws as INTERCHANGE.md "Live connection" says: the server sends
 * {"type":"state","seq":N,"state":{…}}, then {"type":"event","seq":N+1,"event":{…},"state":{…}} as things
 * happen, {"type":"refused","id":…,"reason":…} for an action it did not take; also (additive) "seats", "chat",
 * "reaction" and "error". Every action goes out with an id made here and the seq of the state it acted on;
 * the same id sent twice acts once, so an action whose answer was lost is sent again after a reconnect.
 * A dropped connection comes back with a growing wait (0.5 s … 15 s) and {"type":"hello","seq":N}: the server
 * answers the events after N, or a new state.
 *
 * The server owns every rule and every clock: the buttons shown are the actions in state.may, the rings count
 * down to state.deadline. Cards are <button>s (1, 2, 3 play them; T truco; A accept; C run; F closed); each
 * event is said in Portuguese in the log (role=log, aria-live). Every text shown comes from cfg.t (Django's
 * translations) and goes in with textContent: nothing a player typed is ever markup.
 *
 * No inline script (CSP): the page's data comes in <script type="application/json" id="mesa-config">.
 */
(function () {
  "use strict";

  var cfgNode = document.getElementById("mesa-config");
  var root = document.getElementById("mesa");
  if (!cfgNode || !root) return;
  var cfg = JSON.parse(cfgNode.textContent);
  var T = cfg.t;
  var RING = 157.08;  // the ring's circumference (r = 25)
  var TURN_MS = 35000;
  var HOLD_MS = 1500;  // a finished rodada stays on the felt this long
  var LOG_MAX = 40;
  var SOUND_KEY = "zap-mesa-som";
  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  var $ = function (id) { return document.getElementById(id); };
  var el = {
    status: $("mesa-status"), conn: $("mesa-conexao"), sound: $("mesa-som"), felt: $("feltro"),
    vira: $("mesa-vira"), vaza: $("mesa-vaza"), notice: $("mesa-aviso"), rodadas: $("mesa-rodadas"),
    hand: $("mao-cartas"), actions: $("mesa-acoes"), panel: $("mesa-painel"), clock: $("mesa-relogio"),
    alert: $("mesa-alerta"), log: $("mesa-log"), end: $("mesa-fim"), value: $("mesa-valor"), mao: $("mesa-mao"),
    score: [$("placar-0"), $("placar-1")], scoreLabel: [$("placar-rotulo-0"), $("placar-rotulo-1")],
    seatsPanel: $("assentos"), chatList: $("mesa-chat-lista"), chatForm: $("mesa-chat-form"),
    chatText: $("mesa-chat-texto"), reactions: $("mesa-reacoes")
  };

  var state = null;          // the last state the server sent
  var seq = null;            // its seq
  var seats = cfg.seats || [];
  var status = cfg.status;
  var mySeat = cfg.seat;
  var ws = null, attempts = 0, retryTimer = null, stopped = false;
  var pending = {};          // id -> the action sent and not yet answered
  var busyUntil = 0;         // the buttons wait for the server's answer until then
  var closedMode = false;    // "jogar fechada" pressed
  var shown = [null, null, null, null];  // the cards drawn in the center, by seat
  var holdTimer = null;
  var clockTimer = null;
  var skew = 0;              // server time - this clock, estimated from the events' "at"
  var lastTick = -1;

  // --- words ----------------------------------------------------------------------------------------------
  function fmt(text, values) {
    return String(text).replace(/%\((\w+)\)s/g, function (m, k) {
      return values && values[k] !== undefined && values[k] !== null ? String(values[k]) : "";
    });
  }
  var SUIT_SIGN = {p: "♣", c: "♥", e: "♠", o: "♦"};
  function cardName(card) {
    if (!card) return T.card_closed;
    return fmt(T.card, {rank: T.ranks[card.slice(0, -1)] || card.slice(0, -1), suit: T.suits[card.slice(-1)] || ""});
  }
  function cardShort(card) { return card ? card.slice(0, -1) + SUIT_SIGN[card.slice(-1)] : "?"; }
  function seatInfo(s) { return s === null || s === undefined ? null : seats[s] || null; }
  function nameOf(s) {
    if (s === mySeat && mySeat !== null) return T.you;
    var info = seatInfo(s);
    return info && info.name ? info.name : fmt(T.free, {});
  }
  function duplaOf(s) { return s % 2; }
  function whoDupla(d) {
    if (mySeat !== null && mySeat !== undefined) return duplaOf(mySeat) === d ? T.us : T.them;
    var a = seatInfo(d), b = seatInfo(d + 2);
    return fmt(T.pair, {a: a ? a.name : d + 1, b: b ? b.name : d + 3});
  }
  function levelName(level) { return T.levels[String(level)] || String(level); }
  function previousLevel(level) { return {3: 1, 6: 3, 9: 6, 12: 9}[level] || 1; }

  // --- positions: me at the bottom, the next to play on my right (counterclockwise) -----------------------
  function base() { return mySeat === null || mySeat === undefined ? 0 : mySeat; }
  function posOf(s) { return (s - base() + 4) % 4; }
  function seatAt(pos) { return (base() + pos) % 4; }

  // --- images -------------------------------------------------------------------------------------------------
  function cardImg(card, cls) {
    var img = document.createElement("img");
    img.className = "carta" + (cls ? " " + cls : "");
    img.src = card ? cfg.static.cards + cfg.face + "/" + card + ".svg" : cfg.static.backs + cfg.back + ".svg";
    img.alt = card ? cardName(card) : T.card_closed;
    img.width = 100; img.height = 140;
    img.draggable = false;
    return img;
  }
  function avatarUrl(info) {
    if (!info || info.robot || !info.avatar) return "";
    if (info.avatar.indexOf("/") >= 0) return info.avatar;  // the page's own seats carry the whole path
    return cfg.static.avatars + info.avatar + ".svg";
  }

  // --- sounds (ART's, static/sounds/online/<name>.wav), on or off per player -----------------------------------
  var soundOn = cfg.sounds !== false;
  try { var kept = window.localStorage.getItem(SOUND_KEY); if (kept !== null) soundOn = kept === "1"; } catch (e) { /* private mode */ }
  var audio = {};
  function play(name) {
    if (!soundOn) return;
    try {
      var a = audio[name];
      if (!a) { a = audio[name] = new Audio(cfg.static.sounds + name + ".wav"); a.preload = "auto"; }
      a.currentTime = 0;
      var p = a.play();
      if (p && p.catch) p.catch(function () { /* no sound before the first gesture: fine */ });
    } catch (e) { /* no audio */ }
  }
  function drawSound() {
    if (!el.sound) return;
    el.sound.setAttribute("aria-pressed", soundOn ? "true" : "false");
    el.sound.textContent = soundOn ? T.sound_on : T.sound_off;
  }
  if (el.sound) {
    el.sound.addEventListener("click", function () {
      soundOn = !soundOn;
      try { window.localStorage.setItem(SOUND_KEY, soundOn ? "1" : "0"); } catch (e) { /* kept for this page only */ }
      drawSound();
      if (soundOn) play("notify");
    });
  }
  drawSound();

  // --- the log (aria-live) and alerts ---------------------------------------------------------------------------
  function say(text, important) {
    if (!text || !el.log) return;
    var line = document.createElement("p");
    line.textContent = text;
    if (important) line.className = "importante";
    el.log.insertBefore(line, el.log.firstChild);
    while (el.log.children.length > LOG_MAX) el.log.removeChild(el.log.lastChild);
  }
  var alertTimer = null;
  function alertText(text) {
    if (!el.alert) return;
    el.alert.textContent = text || "";
    clearTimeout(alertTimer);
    if (text) alertTimer = setTimeout(function () { el.alert.textContent = ""; }, 8000);
  }
  function connText(text, ok) {
    if (!el.conn) return;
    el.conn.textContent = text;
    el.conn.className = "conexao" + (ok ? " ok" : ok === false ? " caiu" : "");
  }

  // --- the connection -----------------------------------------------------------------------------------------
  function newId() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    var bytes = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function send(msg) {
    if (!ws || ws.readyState !== 1) return false;
    ws.send(JSON.stringify(msg));
    return true;
  }
  function connect() {
    if (stopped) return;
    clearTimeout(retryTimer);
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + cfg.ws;
    connText(T.connecting, null);
    try { ws = new WebSocket(url); } catch (e) { retry(); return; }
    ws.onopen = function () {
      connText(T.connected, true);
      if (seq !== null) send({type: "hello", seq: seq});
    };
    ws.onmessage = function (e) {
      var msg;
      try { msg = JSON.parse(e.data); } catch (err) { return; }
      if (msg && typeof msg === "object") receive(msg);
    };
    ws.onclose = function (e) {
      ws = null;
      if (e.code === 4003 || e.code === 4004 || e.code === 4403 || e.code === 4404) {
        stopped = true;
        connText(T.closed_forbidden, false);
        return;
      }
      if (e.code === 4008) { alertText(T.closed_abuse); attempts = Math.max(attempts, 5); }
      retry();
    };
    ws.onerror = function () { /* onclose follows */ };
  }
  function retry() {
    if (stopped) return;
    var wait = Math.min(15000, 500 * Math.pow(2, attempts)) * (0.8 + Math.random() * 0.4);
    attempts += 1;
    connText(fmt(T.reconnecting, {n: Math.max(1, Math.round(wait / 1000))}), false);
    retryTimer = setTimeout(connect, wait);
  }
  window.addEventListener("online", function () { if (!ws) { attempts = 0; connect(); } });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && !ws && !stopped) { attempts = 0; connect(); }
  });

  function act(msg) {
    if (!state || !ws || ws.readyState !== 1) { alertText(T.offline); return; }
    msg.id = newId();
    msg.seq = seq;
    pending[msg.id] = msg;
    send(msg);
    busyUntil = Date.now() + 5000;
    drawActions();
    drawHand();
  }
  function resendPending() {
    Object.keys(pending).forEach(function (id) {
      var msg = pending[id];
      if (msg.seq === seq) send(msg); else delete pending[id];
    });
  }

  // --- what the server says -----------------------------------------------------------------------------------
  function receive(msg) {
    switch (msg.type) {
      case "state":
        if (typeof msg.seq === "number" && seq !== null && msg.seq < seq) return;
        attempts = 0;
        var first = state === null;
        setState(msg.state, msg.seq, null);
        if (first) greet();
        resendPending();
        break;
      case "event":
        if (typeof msg.seq !== "number" || (seq !== null && msg.seq <= seq)) return;  // seen already
        pending = {};
        busyUntil = 0;
        if (msg.event && msg.event.at) {
          var at = Date.parse(msg.event.at);
          if (!isNaN(at)) { var d = at - Date.now(); if (Math.abs(d) > 1500) skew = d; else skew = 0; }
        }
        var before = state;
        setState(msg.state, msg.seq, msg.event);
        tell(msg.event, before, state);
        break;
      case "refused":
        if (msg.id && pending[msg.id]) delete pending[msg.id];
        busyUntil = 0;
        alertText(fmt(T.refused, {reason: msg.reason || ""}));
        draw();
        break;
      case "error":
        alertText(msg.reason || "");
        busyUntil = 0;
        draw();
        break;
      case "seats":
        seatsChanged(msg);
        break;
      case "chat":
        chatLine(msg.message || msg);
        break;
      case "reaction":
        reaction(msg.reaction || msg);
        break;
      default:
        break;
    }
  }

  function setState(next, nextSeq, event) {
    if (!next) return;
    var prev = state;
    state = next;
    if (typeof nextSeq === "number") { seq = nextSeq; root.setAttribute("data-seq", String(seq)); }
    if (next.seat !== undefined && next.seat !== mySeat) { mySeat = next.seat; drawSeats(); }
    if (next.status && next.status !== status) statusChanged(next.status);
    placeCards(prev, next, event);
    draw(prev);
  }

  function greet() {
    if (!state) return;
    if (state.phase === "waiting") return;
    if (state.mao && state.mao.kind === "mao_de_ferro") say(T.mao_ferro);
    var turn = mineNow();
    if (turn) say(turn, true);
  }

  function statusChanged(next) {
    status = next;
    if (el.status) {
      if (T.status && T.status[next]) el.status.textContent = T.status[next];
    }
    root.setAttribute("data-status", next);
    refreshSeatsPanel();
    if (next === "closed") {
      stopped = true;
      alertText(T.table_closed);
      if (ws) ws.close();
    }
  }

  function seatsSignature() {
    return JSON.stringify(seats.map(function (x) { return x ? [x.name, !!x.robot, !!x.host, !!x.present] : null; })) + status;
  }
  var shownSeats = seatsSignature();

  function seatsChanged(msg) {
    var list = msg.seats || [];
    var bySeat = [null, null, null, null];
    list.forEach(function (info, i) {
      if (!info) return;
      var s = typeof info.seat === "number" ? info.seat : i;
      if (s >= 0 && s < 4) bySeat[s] = info;
    });
    seats = bySeat;
    if (typeof msg.seat !== "undefined" && msg.seat !== mySeat) { mySeat = msg.seat; }
    if (msg.status && msg.status !== status) statusChanged(msg.status);
    else if (seatsSignature() !== shownSeats) refreshSeatsPanel();
    drawSeats();
    drawNotice();
  }

  var panelFetch = null;
  function refreshSeatsPanel() {
    if (!el.seatsPanel || !cfg.part || !window.fetch) return;
    shownSeats = seatsSignature();
    var mine = panelFetch = fetch(cfg.part, {credentials: "same-origin", headers: {"X-Requested-With": "fetch"}})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html === null || mine !== panelFetch) return;
        var box = document.createElement("div");
        box.innerHTML = html;  // the server's own template (everything in it escaped by Django)
        var fresh = box.querySelector("#assentos");
        if (!fresh || !el.seatsPanel.parentNode) return;
        // what the visitor was typing or choosing stays as it was
        var focused = document.activeElement && el.seatsPanel.contains(document.activeElement) ? document.activeElement.id : "";
        Array.prototype.forEach.call(el.seatsPanel.querySelectorAll("input[id], select[id]"), function (old) {
          var now = fresh.querySelector("#" + old.id);
          if (now && old.type !== "hidden" && now.tagName === old.tagName) now.value = old.value;
        });
        el.seatsPanel.parentNode.replaceChild(fresh, el.seatsPanel);
        el.seatsPanel = fresh;
        if (focused) { var again = document.getElementById(focused); if (again) again.focus(); }
      })
      .catch(function () { /* the next change tries again */ });
  }

  // --- the cards on the felt: each play lands from its seat; a finished rodada stays a moment -------------------
  function placeCards(prev, next, event) {
    var played = next.played || [null, null, null, null];
    if (!event || event.type !== "play") {
      if (!holdTimer) shown = played.slice();
      return;
    }
    var s = event.seat;
    var card = {card: event.card || null, closed: !!event.closed};
    var count = played.filter(Boolean).length;
    if (holdTimer) { clearTimeout(holdTimer); holdTimer = null; clearCollect(); shown = [null, null, null, null]; }
    if (count > 0 || !prev) {
      shown = played.slice();
      arrive(s, card);
      return;
    }
    // the rodada closed with this card: keep the four on the felt, mark the winner, then gather them
    var kept = (prev.played || [null, null, null, null]).slice();
    kept[s] = card;
    shown = kept;
    arrive(s, card);
    var winner = null;
    var rodadas = next.rodadas || [];
    var mao = next.mao && prev.mao && next.mao.n === prev.mao.n;
    if (mao && rodadas.length > (prev.rodadas || []).length) {
      var last = rodadas[rodadas.length - 1];
      winner = last.winner;
      say(winner === null || winner === undefined ? T.rodada_tied : fmt(T.rodada_won, {who: whoDupla(winner)}));
      markWinner(last);
    }
    holdTimer = setTimeout(function () {
      gather(winner);
      holdTimer = setTimeout(function () {
        holdTimer = null;
        clearCollect();
        shown = (state && state.played ? state.played : [null, null, null, null]).slice();
        drawCenter();
      }, reduced ? 0 : 450);
    }, reduced ? 600 : HOLD_MS);
  }
  var arriving = -1;
  function arrive(s) { arriving = s; }
  function markWinner(rodada) {
    // the strongest open card of the winning dupla glows (the engine's cards, in the order played)
    var cards = rodada.cards || [];
    var best = -1;
    for (var s = 0; s < 4; s++) if (cards[s] && !cards[s].closed && duplaOf(s) === rodada.winner) best = s;
    winnerSeat = rodada.winner === null || rodada.winner === undefined ? -1 : best;
  }
  var winnerSeat = -1;
  function gather(winner) {
    if (!el.vaza) return;
    var towards = winner === null || winner === undefined || winnerSeat < 0 ? "x" : String(posOf(winnerSeat));
    el.vaza.classList.add("recolhe-" + towards);
  }
  function clearCollect() {
    if (!el.vaza) return;
    el.vaza.className = "vaza";
    winnerSeat = -1;
  }

  // --- drawing ------------------------------------------------------------------------------------------------
  function draw(prev) {
    drawScore(prev);
    drawSeats();
    drawCenter();
    drawHand(prev);
    drawActions();
    drawPanel();
    drawEnd();
    drawNotice();
    clockStart();
  }

  function drawScore(prev) {
    if (!state) return;
    var score = state.score || [0, 0];
    var mine = mySeat === null || mySeat === undefined ? 0 : duplaOf(mySeat);
    var order = [mine, 1 - mine];
    for (var i = 0; i < 2; i++) {
      var text = String(score[order[i]]);
      var node = el.score[i];
      if (node && node.textContent !== text) {
        node.textContent = text;
        if (prev) { node.classList.remove("mudou"); void node.offsetWidth; node.classList.add("mudou"); }
      }
      if (mySeat === null || mySeat === undefined) {
        var d = order[i], a = seatInfo(d), b = seatInfo(d + 2);
        if (el.scoreLabel[i] && a && b) el.scoreLabel[i].textContent = fmt(T.pair, {a: a.name, b: b.name});
      }
    }
    if (el.value) {
      var v = fmt(T.value, {n: state.value || 1});
      if (el.value.textContent !== v) {
        el.value.textContent = v;
        if (prev) { el.value.classList.add("sobe"); setTimeout(function () { el.value.classList.remove("sobe"); }, 300); }
      }
    }
    if (el.mao) el.mao.textContent = state.mao ? fmt(T.mao_n, {n: state.mao.n}) : "";
    if (el.rodadas) {
      el.rodadas.textContent = "";
      if (state.mao) {
        var rodadas = state.rodadas || [];
        for (var r = 0; r < 3; r++) {
          var dot = document.createElement("span");
          dot.className = "rodada-marca";
          if (r < rodadas.length) {
            var w = rodadas[r].winner;
            dot.className += w === null || w === undefined ? " empate" : w === (mySeat === null ? 0 : duplaOf(mySeat)) ? " nos" : " eles";
          }
          el.rodadas.appendChild(dot);
        }
      }
    }
  }

  function clockSeats() {
    if (!state || !state.deadline) return [];
    var ph = state.phase;
    if (ph === "play" || ph === "answer") return state.turn === null || state.turn === undefined ? [] : [state.turn];
    if (ph === "onze") {
      var score = state.score || [0, 0];
      var d = score[0] === 11 ? 0 : 1;
      return [d, d + 2];
    }
    if (ph === "vote" && state.vote) {
      var out = [];
      for (var s = 0; s < 4; s++) if (s !== state.vote.absent && !(state.vote.voted || [])[s]) out.push(s);
      return out;
    }
    return [];
  }

  function drawSeats() {
    if (!el.felt) return;
    var present = state && state.present ? state.present : null;
    var running = clockSeats();
    for (var pos = 0; pos < 4; pos++) {
      var box = el.felt.querySelector('.lugar[data-pos="' + pos + '"]');
      if (!box) continue;
      var s = seatAt(pos);
      var info = seatInfo(s);
      box.setAttribute("data-seat", String(s));
      box.classList.toggle("lugar-livre", !info);
      var img = box.querySelector("img.avatar");
      var letter = box.querySelector(".avatar-letra");
      var url = avatarUrl(info);
      if (img) {
        if (url) { if (img.getAttribute("src") !== url) img.src = url; img.hidden = false; } else { img.hidden = true; }
      }
      if (letter) letter.textContent = !info ? "·" : info.robot ? "R" : (info.name || "?").charAt(0);
      var name = box.querySelector(".lugar-nome");
      if (name) name.textContent = info ? (s === mySeat ? T.you : info.name) : T.free;
      var tags = box.querySelector(".lugar-tags");
      if (tags) {
        tags.textContent = "";
        var absent = info && !info.robot && (present && state.phase !== "waiting" ? present[s] === false : info.present === false);
        if (absent) tags.appendChild(badge(T.absent, "selo-ausente"));
        if (info && info.host && status !== "playing") tags.appendChild(badge(T.host, ""));
        if (state && state.mao && state.phase !== "waiting" && state.mao.first === s) tags.appendChild(badge(T.first, "selo-mao"));
      }
      var backs = box.querySelector(".lugar-cartas");
      if (backs) {
        var n = state && state.hands ? state.hands[s] || 0 : 0;
        if (backs.children.length !== n) {
          backs.textContent = "";
          for (var i = 0; i < n; i++) {
            var b = document.createElement("img");
            b.src = cfg.static.backs + cfg.back + ".svg"; b.alt = ""; b.width = 18; b.height = 25;
            backs.appendChild(b);
          }
        }
      }
      box.classList.toggle("na-vez", running.indexOf(s) >= 0);
      if (running.indexOf(s) < 0) {
        var ring = box.querySelector(".anel-tempo");
        if (ring) ring.style.strokeDashoffset = "0";
        box.classList.remove("pouco");
      }
    }
  }
  function badge(text, cls) {
    var span = document.createElement("span");
    span.className = "selo" + (cls ? " " + cls : "");
    span.textContent = text;
    return span;
  }

  function drawCenter() {
    if (!el.vaza) return;
    // the vira, with its manilha said for whoever reads it
    if (el.vira) {
      el.vira.textContent = "";
      if (state && state.vira) {
        var label = document.createElement("span");
        label.textContent = T.vira;
        el.vira.appendChild(label);
        el.vira.appendChild(cardImg(state.vira));
        el.vira.setAttribute("aria-label", T.vira + ": " + cardName(state.vira));
      } else {
        el.vira.setAttribute("aria-label", T.vira);
      }
    }
    for (var pos = 0; pos < 4; pos++) {
      var slot = el.vaza.querySelector('.vaza-slot[data-pos="' + pos + '"]');
      if (!slot) continue;
      var s = seatAt(pos);
      var c = shown[s];
      var key = c ? (c.card || "x") + (c.closed ? "f" : "") : "";
      if (slot.getAttribute("data-card") !== key) {
        slot.textContent = "";
        slot.setAttribute("data-card", key);
        if (c) {
          var img = cardImg(c.closed && !c.card ? null : c.card);
          if (c.closed) img.alt = c.card ? cardName(c.card) + " (" + T.card_closed + ")" : T.card_closed;
          if (c.closed && c.card) img.src = cfg.static.backs + cfg.back + ".svg";
          slot.appendChild(img);
          if (s === arriving && !reduced) {
            slot.classList.add("chega-" + pos);
            void slot.offsetWidth;  // the start position is drawn before the move
            requestAnimationFrame(function (sl, p) { return function () { sl.classList.remove("chega-" + p); }; }(slot, pos));
          }
        }
      }
      slot.classList.toggle("vence", s === winnerSeat);
    }
    arriving = -1;
  }

  function handCards() {
    if (!state || !state.hand) return [];
    return state.hand;
  }
  var dealtMao = null;
  function drawHand(prev) {
    if (!el.hand) return;
    if (mySeat === null || mySeat === undefined) { el.hand.hidden = true; return; }
    el.hand.hidden = false;
    var cards = handCards();
    var may = state && state.may ? state.may : [];
    var canPlay = may.indexOf("play") >= 0 && Date.now() >= busyUntil;
    var keyNow = cards.map(function (c, i) { return c || "?" + i; }).join(",") + "|" + (state && state.mao ? state.mao.n : "");
    var fresh = el.hand.getAttribute("data-key") !== keyNow;
    var newMao = state && state.mao && dealtMao !== state.mao.n;
    if (fresh) {
      var focused = document.activeElement && el.hand.contains(document.activeElement) ? document.activeElement.getAttribute("data-i") : null;
      el.hand.textContent = "";
      el.hand.setAttribute("data-key", keyNow);
      cards.forEach(function (card, i) {
        var b = document.createElement("button");
        b.type = "button";
        b.className = "carta-btn";
        b.setAttribute("data-i", String(i));
        if (card) b.setAttribute("data-card", card); else b.setAttribute("data-slot", String(i));
        var img = cardImg(card);
        img.alt = card ? cardName(card) : fmt(T.card_hidden, {n: i + 1});
        b.appendChild(img);
        var n = document.createElement("span");
        n.className = "carta-n";
        n.textContent = String(i + 1);
        b.appendChild(n);
        b.addEventListener("click", function () { playCard(i); });
        if (newMao && !reduced) {
          b.classList.add("dada");
          b.style.transitionDelay = (i * 0.12) + "s";
          (function (btn) {
            requestAnimationFrame(function () { requestAnimationFrame(function () { btn.classList.remove("dada"); }); });
            setTimeout(function () { btn.style.transitionDelay = ""; }, 900);
          })(b);
        }
        el.hand.appendChild(b);
      });
      if (newMao && cards.length) play("deal");
      if (focused !== null) {
        var again = el.hand.querySelector('[data-i="' + Math.min(Number(focused), cards.length - 1) + '"]');
        if (again) again.focus();
      }
    }
    if (state && state.mao) dealtMao = state.mao.n;
    Array.prototype.forEach.call(el.hand.children, function (b) {
      b.setAttribute("aria-disabled", canPlay ? "false" : "true");
    });
    el.hand.classList.toggle("minha-vez", canPlay);
    el.hand.classList.toggle("fechada", closedMode && canPlay);
    el.hand.setAttribute("aria-label", canPlay ? T.hand + ": " + T.hand_play : T.hand);
  }

  function playCard(i) {
    if (!state || (state.may || []).indexOf("play") < 0 || Date.now() < busyUntil) return;
    var cards = handCards();
    if (i < 0 || i >= cards.length) return;
    var card = cards[i];
    var closed = closedMode && !!(state.options && state.options.closed);
    var msg = card ? {type: "play", card: card, closed: closed} : {type: "play", slot: i, closed: false};
    var btn = el.hand.querySelector('[data-i="' + i + '"]');
    if (btn && !reduced) btn.classList.add("sai");
    closedMode = false;
    act(msg);
  }

  function button(text, cls, onClick, key) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = cls || "";
    b.textContent = text;
    if (key) b.setAttribute("aria-keyshortcuts", key);
    if (Date.now() < busyUntil) b.disabled = true;
    b.addEventListener("click", onClick);
    return b;
  }

  function drawActions() {
    if (!el.actions) return;
    el.actions.textContent = "";
    if (!state) return;
    var may = state.may || [];
    var opts = state.options || {};
    if (may.indexOf("bet") >= 0 && opts.bet) {
      el.actions.appendChild(button(T.bet_button[String(opts.bet)] || levelName(opts.bet), "acao-truco", function () { act({type: "bet"}); }, "T"));
    }
    if (may.indexOf("play") >= 0 && opts.closed) {
      var toggle = button(T.closed_toggle, "acao-fechada", function () {
        closedMode = !closedMode;
        drawActions(); drawHand();
      }, "F");
      toggle.setAttribute("aria-pressed", closedMode ? "true" : "false");
      el.actions.appendChild(toggle);
    }
    if (may.indexOf("answer") >= 0) {
      el.actions.appendChild(button(T.accept, "acao-aceitar", function () { act({type: "answer", accept: true}); }, "A"));
      el.actions.appendChild(button(T.run, "acao-correr", function () { act({type: "answer", accept: false}); }, "C"));
      if (opts.raise) {
        el.actions.appendChild(button(T.bet_button[String(opts.raise)] || levelName(opts.raise), "acao-truco", function () { act({type: "answer", accept: "raise"}); }, "T"));
      }
    }
  }

  function drawPanel() {
    if (!el.panel) return;
    var may = state ? state.may || [] : [];
    var had = el.panel.getAttribute("data-kind") || "";
    var kind = "";
    if (state && state.phase === "onze") kind = may.indexOf("onze") >= 0 ? "onze" : "onze-espera";
    else if (state && state.phase === "vote" && state.vote) kind = may.indexOf("vote") >= 0 ? "voto" : "voto-espera";
    var key = kind;
    if (kind === "voto") key += "|" + state.vote.absent + "|" + (state.mao ? state.mao.n : "");
    else if (kind === "onze") key += "|" + (state.mao ? state.mao.n : "");
    else if (kind) key += "|" + seq;
    if (el.panel.getAttribute("data-key") === key) return;
    el.panel.setAttribute("data-key", key);
    el.panel.setAttribute("data-kind", kind);
    el.panel.textContent = "";
    el.panel.className = "painel";
    el.panel.removeAttribute("role");
    el.panel.removeAttribute("aria-labelledby");
    if (!kind) { el.panel.hidden = true; return; }
    el.panel.hidden = false;
    var h = document.createElement("h3");
    h.id = "painel-titulo";
    var p = document.createElement("p");
    var row = document.createElement("div");
    row.className = "botoes";
    if (kind === "onze") {
      h.textContent = T.onze_question;
      var partner = state.partner_hand || [];
      if (partner.length) {
        p.textContent = T.partner_cards;
        el.panel.appendChild(h);
        el.panel.appendChild(p);
        var cards = document.createElement("div");
        cards.className = "cartas-parceiro";
        partner.forEach(function (c) { cards.appendChild(cardImg(c)); });
        el.panel.appendChild(cards);
      } else {
        el.panel.appendChild(h);
      }
      row.appendChild(button(T.onze_play, "acao-aceitar", function () { act({type: "onze", play: true}); }));
      row.appendChild(button(T.onze_run, "acao-correr", function () { act({type: "onze", play: false}); }));
      el.panel.appendChild(row);
      el.panel.setAttribute("role", "group");
      el.panel.setAttribute("aria-labelledby", "painel-titulo");
      if (had !== "onze") say(T.onze_question, true);
    } else if (kind === "onze-espera") {
      h.textContent = T.onze_wait;
      el.panel.appendChild(h);
    } else if (kind === "voto") {
      el.panel.className = "painel painel-voto";
      el.panel.setAttribute("role", "alertdialog");
      el.panel.setAttribute("aria-labelledby", "painel-titulo");
      h.textContent = fmt(T.vote_question, {name: nameOf(state.vote.absent)});
      el.panel.appendChild(h);
      var yes = button(T.vote_yes, "acao-aceitar", function () { act({type: "vote", extend: true}); });
      row.appendChild(yes);
      row.appendChild(button(T.vote_no, "acao-correr", function () { act({type: "vote", extend: false}); }));
      el.panel.appendChild(row);
      if (had !== "voto" && !isTyping()) yes.focus();
    } else {
      el.panel.className = "painel painel-voto";
      h.textContent = state.vote.absent === mySeat ? T.vote_you
        : fmt(T.vote_wait, {name: nameOf(state.vote.absent), yes: state.vote.yes || 0, no: state.vote.no || 0});
      el.panel.appendChild(h);
    }
  }

  function drawEnd() {
    if (!el.end) return;
    var ended = state && state.ended;
    if (!ended) { el.end.hidden = true; el.end.textContent = ""; return; }
    if (!el.end.hidden) return;
    el.end.hidden = false;
    var h = document.createElement("h3");
    h.textContent = T.end_title;
    var p = document.createElement("p");
    var mine = mySeat === null || mySeat === undefined ? null : duplaOf(mySeat);
    p.textContent = mine === null ? fmt(T.won_by, {who: whoDupla(ended.winner)}) : ended.winner === mine ? T.won : T.lost;
    var score = document.createElement("p");
    var sc = state.score || [0, 0];
    score.textContent = mine === null ? sc[0] + " × " + sc[1] : sc[mine] + " × " + sc[1 - mine];
    el.end.appendChild(h);
    el.end.appendChild(p);
    el.end.appendChild(score);
    if (ended.by === "abandonment" && ended.seat !== null && ended.seat !== undefined) {
      var ab = document.createElement("p");
      ab.textContent = fmt(T.abandon_by, {name: nameOf(ended.seat)});
      el.end.appendChild(ab);
    }
    if (cfg.log && state.partida_n) {
      var a = document.createElement("a");
      a.href = cfg.log.replace("__N__", String(state.partida_n));
      a.textContent = T.log_link;
      var pa = document.createElement("p");
      pa.appendChild(a);
      el.end.appendChild(pa);
    }
  }

  function drawNotice() {
    if (!el.notice) return;
    var text = "", important = false;
    if (!state || state.phase === "waiting" || !state.mao) {
      var n = seats.filter(Boolean).length;
      text = status === "closed" ? T.table_closed : n === 4 ? T.waiting_start : fmt(T.waiting, {n: n});
    } else if (state.ended) {
      text = T.end_title;
    } else if (state.suspended) {
      text = T.suspended;
    } else if (state.phase === "answer" && state.bet) {
      text = state.turn === mySeat
        ? fmt(T.your_answer, {name: nameOf(state.bet.asker), level: levelName(state.bet.level)})
        : fmt(T.ev_bet, {name: nameOf(state.bet.asker), level: levelName(state.bet.level)});
      important = true;
    } else if (state.phase === "play" && state.turn !== null && state.turn !== undefined) {
      text = state.turn === mySeat ? T.your_turn : fmt(T.turn_of, {name: nameOf(state.turn)});
      important = state.turn === mySeat;
    } else if (state.phase === "onze") {
      text = T.mao_onze;
    } else if (state.phase === "vote" && state.vote) {
      text = fmt(T.vote_wait, {name: nameOf(state.vote.absent), yes: state.vote.yes || 0, no: state.vote.no || 0});
    }
    el.notice.textContent = text;
    el.notice.classList.toggle("importante", important);
  }

  function mineNow() {
    if (!state || mySeat === null || mySeat === undefined) return "";
    var may = state.may || [];
    if (may.indexOf("play") >= 0) return T.your_turn;
    if (may.indexOf("answer") >= 0 && state.bet) return fmt(T.your_answer, {name: nameOf(state.bet.asker), level: levelName(state.bet.level)});
    return "";
  }

  // --- the clocks: a ring on each seat whose time runs, a bar over my hand ---------------------------------------
  function clockStart() {
    clearInterval(clockTimer);
    clockTimer = null;
    lastTick = -1;
    tick();
    if (state && state.deadline) clockTimer = setInterval(tick, 200);
  }
  function tick() {
    var running = clockSeats();
    var left = 0;
    if (state && state.deadline) {
      var deadline = Date.parse(state.deadline);
      left = isNaN(deadline) ? 0 : Math.max(0, deadline - (Date.now() + skew));
    }
    var total = Math.max(TURN_MS, left);
    var frac = total ? left / total : 0;
    running.forEach(function (s) {
      var box = el.felt && el.felt.querySelector('.lugar[data-seat="' + s + '"]');
      if (!box) return;
      var ring = box.querySelector(".anel-tempo");
      if (ring) ring.style.strokeDashoffset = String(RING * (1 - frac));
      box.classList.toggle("pouco", left < 10000);
    });
    var mine = mySeat !== null && mySeat !== undefined && running.indexOf(mySeat) >= 0;
    if (el.clock) {
      el.clock.hidden = !mine;
      if (mine) {
        var secs = Math.ceil(left / 1000);
        var text = el.clock.querySelector(".relogio-texto");
        var bar = el.clock.querySelector(".barra-tempo");
        if (text) text.textContent = fmt(T.seconds, {n: secs});
        if (bar) bar.style.transform = "scaleX(" + frac.toFixed(3) + ")";
        el.clock.classList.toggle("pouco", left < 10000);
        if (secs <= 5 && secs > 0 && secs !== lastTick) { lastTick = secs; play("tick"); }
      }
    }
    if (!left && clockTimer) { clearInterval(clockTimer); clockTimer = null; }
  }

  // --- each event, said in words (and a sound) -----------------------------------------------------------------
  function tell(ev, before, after) {
    if (!ev) return;
    var name = nameOf(ev.seat);
    var text = "", important = false;
    switch (ev.type) {
      case "partida":
        text = fmt(T.partida_new, {n: ev.n || "", name: nameOf(after && after.mao ? after.mao.first : null)});
        el.end.hidden = true; el.end.textContent = "";
        break;
      case "play":
        text = ev.closed ? fmt(T.ev_play_closed, {name: name}) : fmt(T.ev_play, {name: name, card: cardShort(ev.card)});
        play("play");
        break;
      case "bet":
        text = fmt(T.ev_bet, {name: name, level: levelName(ev.level)});
        important = true;
        play("truco");
        break;
      case "answer":
        if (ev.accept === true) {
          text = fmt(T.ev_accept, {name: name, value: after ? after.value : ""});
          play("accept");
        } else if (ev.accept === false) {
          var bet = before && before.bet ? before.bet : null;
          var level = bet ? bet.level : 3;
          var to = bet ? duplaOf(bet.asker) : 1 - duplaOf(ev.seat);
          text = fmt(T.ev_run, {name: name, points: previousLevel(level), who: whoDupla(to)});
          play("run");
        } else {
          text = fmt(T.ev_raise, {name: name, level: levelName(ev.level || (after && after.bet ? after.bet.level : ""))});
          important = true;
          play("truco");
        }
        break;
      case "onze":
        text = ev.play ? fmt(T.ev_onze_play, {name: name}) : fmt(T.ev_onze_run, {name: name, who: whoDupla(1 - duplaOf(ev.seat))});
        break;
      case "vote":
        text = fmt(ev.extend ? T.ev_vote_yes : T.ev_vote_no, {name: name});
        break;
      case "vote_result":
        text = ev.extend ? fmt(T.ev_vote_extend, {name: name}) : fmt(T.ev_vote_abandon, {name: name, who: whoDupla(1 - duplaOf(ev.seat))});
        important = true;
        break;
      case "expiry":
        if (ev.what === "turn") { text = fmt(T.ev_expiry_turn, {name: name}); important = true; play("notify"); }
        else if (ev.what === "answer") {
          var b = before && before.bet ? before.bet : null;
          text = fmt(T.ev_expiry_answer, {name: name, points: b ? previousLevel(b.level) : 1, who: whoDupla(b ? duplaOf(b.asker) : 1 - duplaOf(ev.seat))});
        } else if (ev.what === "onze") text = T.ev_expiry_onze;
        else text = T.ev_expiry_vote;
        break;
      case "presence":
        text = fmt(ev.present ? T.ev_back : T.ev_absent, {name: name});
        break;
      case "suspend": text = T.ev_suspend; break;
      case "resume": text = T.ev_resume; break;
      default: break;
    }
    say(text, important);
    // what the event led to: a mão scored, a new mão, the partida's end, my turn
    var lastBefore = before && before.last_mao ? before.last_mao.n : 0;
    var lastAfter = after && after.last_mao ? after.last_mao : null;
    if (lastAfter && lastAfter.n !== lastBefore) {
      var r = lastAfter.result || {};
      var mine = mySeat === null || mySeat === undefined ? 0 : duplaOf(mySeat);
      var sc = after.score || [0, 0];
      if (r.to === null || r.to === undefined) say(T.mao_tied);
      else {
        say(fmt(T.mao_won, {who: whoDupla(r.to), points: r.points, us: sc[mine], them: sc[1 - mine]}), true);
        if (mySeat !== null && mySeat !== undefined) play(r.to === mine ? "win-mao" : "run");
      }
    }
    if (after && after.ended && !(before && before.ended)) {
      var mineD = mySeat === null || mySeat === undefined ? null : duplaOf(mySeat);
      say(mineD === null ? fmt(T.won_by, {who: whoDupla(after.ended.winner)}) : after.ended.winner === mineD ? T.won : T.lost, true);
      if (mineD !== null && after.ended.winner === mineD) play("win-partida");
    } else if (after && after.mao && (!before || !before.mao || before.mao.n !== after.mao.n) && ev.type !== "partida") {
      say(fmt(T.mao_new, {n: after.mao.n, name: nameOf(after.mao.first)}));
      if (after.mao.kind === "mao_de_onze") say(T.mao_onze);
      if (after.mao.kind === "mao_de_ferro") say(T.mao_ferro, true);
    }
    var now = mineNow();
    if (now && now !== mineNow.last) play("notify");
    if (now) say(now, true);
    mineNow.last = now;
  }

  // --- chat and reactions (over the same connection) ----------------------------------------------------------
  function chatLine(m) {
    if (!el.chatList || !m) return;
    var li = document.createElement("li");
    li.className = "chat-linha";
    var who = document.createElement("span");
    who.className = "chat-nome";
    who.textContent = m.name || "";
    var text = document.createElement("span");
    text.className = "chat-texto";
    text.textContent = m.text || "";
    li.appendChild(who);
    li.appendChild(document.createTextNode(" "));
    li.appendChild(text);
    if (cfg.report && m.id && m.seat !== mySeat) {
      var report = document.createElement("a");
      report.className = "chat-denunciar";
      report.href = cfg.report + "?mensagem=" + encodeURIComponent(m.id) + "&next=" + encodeURIComponent(location.pathname);
      report.textContent = T.report;
      report.title = T.report_title;
      li.appendChild(document.createTextNode(" "));
      li.appendChild(report);
    }
    el.chatList.appendChild(li);
    while (el.chatList.children.length > 100) el.chatList.removeChild(el.chatList.firstChild);
    el.chatList.scrollTop = el.chatList.scrollHeight;
    say(fmt(T.chat_from, {name: m.name || "", text: m.text || ""}));
    if (m.seat !== mySeat) play("notify");
  }
  if (el.chatForm && el.chatText) {
    el.chatForm.addEventListener("submit", function (e) {
      e.preventDefault();
      var text = el.chatText.value.trim();
      if (!text) return;
      if (send({type: "chat", text: text})) el.chatText.value = "";
      else alertText(T.offline);
    });
  }
  if (el.chatList) el.chatList.scrollTop = el.chatList.scrollHeight;

  function reaction(r) {
    if (!r || !el.felt) return;
    var box = el.felt.querySelector('.lugar[data-seat="' + r.seat + '"]');
    var label = r.label || r.name || "";
    say(fmt(T.reaction_sent, {name: nameOf(r.seat), label: label}));
    if (!box) return;
    var bubble = box.querySelector(".lugar-reacao");
    if (!bubble) return;
    bubble.textContent = "";
    var sym = document.createElement("span");
    sym.textContent = r.symbol || "";
    var nm = document.createElement("span");
    nm.className = "reacao-nome";
    nm.textContent = label;
    bubble.appendChild(sym);
    bubble.appendChild(nm);
    bubble.classList.add("mostra");
    clearTimeout(bubble._t);
    bubble._t = setTimeout(function () { bubble.classList.remove("mostra"); }, 2600);
    play("notify");
  }
  if (el.reactions) {
    el.reactions.addEventListener("click", function (e) {
      var b = e.target.closest ? e.target.closest("button[data-reaction]") : null;
      if (!b) return;
      if (!send({type: "reaction", name: b.getAttribute("data-reaction")})) alertText(T.offline);
    });
  }

  // --- the keyboard ----------------------------------------------------------------------------------------------
  function isTyping() {
    var a = document.activeElement;
    return !!a && (a.tagName === "INPUT" || a.tagName === "TEXTAREA" || a.tagName === "SELECT" || a.isContentEditable);
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || isTyping() || !state) return;
    var may = state.may || [];
    var k = e.key;
    if (k === "1" || k === "2" || k === "3") {
      if (may.indexOf("play") >= 0) { e.preventDefault(); playCard(Number(k) - 1); }
    } else if (k === "t" || k === "T") {
      if (may.indexOf("bet") >= 0 && state.options && state.options.bet) { e.preventDefault(); act({type: "bet"}); }
      else if (may.indexOf("answer") >= 0 && state.options && state.options.raise) { e.preventDefault(); act({type: "answer", accept: "raise"}); }
    } else if (k === "a" || k === "A") {
      if (may.indexOf("answer") >= 0) { e.preventDefault(); act({type: "answer", accept: true}); }
    } else if (k === "c" || k === "C") {
      if (may.indexOf("answer") >= 0) { e.preventDefault(); act({type: "answer", accept: false}); }
    } else if (k === "f" || k === "F") {
      if (may.indexOf("play") >= 0 && state.options && state.options.closed) { e.preventDefault(); closedMode = !closedMode; drawActions(); drawHand(); }
    }
  });

  connect();
})();
