/* Zap — the referee's súmula screen (templates/sumula/referee_jogo.html), plain JS, no build step.
 *
 * Without this script every button is a form that POSTs to the desk and comes back (PRG). With it, the
 * mão buttons (forms marked data-queue) and the undo button go through a queue kept in localStorage:
 * each entry gets an id made here, is shown at once as "pendente", and the queue is sent to the súmula
 * API in order. A network failure keeps the entry queued (retried when the browser says it is online
 * and every few seconds); the API's ids make a retry safe (an id already recorded answers 200 and adds
 * nothing), so an entry is never lost nor doubled. 201/200 → the screen shows the súmula the server sent;
 * 400/404/409/422 → the entry is dropped and the reason shown. When idle the súmula is read again every
 * 10 s, so two phones converge.
 *
 * The rules are the server's: the buttons are enabled as its `options` say. Only while entries are
 * pending does the script project the score itself (same rules as scoring/partida.py, a copy kept small)
 * so the referee can go on entering mãos with the network away; the server checks every entry again.
 *
 * No inline script (CSP): the page's data comes in <script type="application/json" id="sumula-data">.
 */
(function () {
  "use strict";

  var dataNode = document.getElementById("sumula-data");
  var root = document.getElementById("sumula");
  if (!dataNode || !root || !window.fetch) return;
  var cfg = JSON.parse(dataNode.textContent);
  var T = cfg.t;
  var NORMAL = [1, 3, 6, 9, 12], RAN = [1, 3, 6, 9], TARGET = 12, ONZE = 11;
  var ENTRY = ["scheduled", "in_progress"];
  var PILL = {scheduled: "upcoming", in_progress: "live", awaiting_confirmation: "awaiting", contested: "contested",
              confirmed: "confirmed", homologated: "finished"};
  var RETRY_MS = 4000, REFRESH_MS = 10000, TIMEOUT_MS = 15000, DOUBLE_TAP_MS = 350, TAP_NOTE_MS = 4000;

  var server = cfg.sumula;           // the súmula as the server last sent it
  var pageShape = shape(server);     // what the server-rendered parts of the page show
  var queue = load();                // [{kind: "mao", id, body} | {kind: "undo", id, mao}]
  var flushing = false, inFlight = null, offline = navigator.onLine === false;
  var lastTap = {key: "", at: 0};

  // --- storage -------------------------------------------------------------------------------------
  var memory = null;  // when localStorage is unavailable (private mode, quota), the queue lives here

  function load() {
    try {
      var raw = window.localStorage.getItem(cfg.storage);
      var list = raw ? JSON.parse(raw) : [];
      return Array.isArray(list) ? list.filter(function (e) { return e && e.id && e.kind; }) : [];
    } catch (e) {
      return memory || [];
    }
  }

  function save() {
    try {
      if (queue.length) window.localStorage.setItem(cfg.storage, JSON.stringify(queue));
      else window.localStorage.removeItem(cfg.storage);
    } catch (e) {
      memory = queue;
    }
  }

  function newId() {
    var c = window.crypto;
    if (c && typeof c.randomUUID === "function") return c.randomUUID();
    var b = new Uint8Array(16);
    if (c && typeof c.getRandomValues === "function") c.getRandomValues(b);
    else for (var i = 0; i < 16; i++) b[i] = Math.floor(Math.random() * 256);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function fmt(text, values) {
    return String(text).replace(/%\((\w+)\)s/g, function (_m, k) { return values[k]; });
  }

  function shape(s) {
    var entry = ENTRY.indexOf(s.status) >= 0;
    return JSON.stringify([entry ? "entry" : s.status, s.via,
                           entry ? null : [s.confirmations, s.signed && s.signed.at]]);
  }

  // --- the rules, for the projection of pending entries (scoring/partida.py: mao_gain, mao_options) ------
  function situation(score) {
    if (score[0] === ONZE && score[1] === ONZE) return "mao_de_ferro";
    if (score[0] === ONZE || score[1] === ONZE) return "mao_de_onze";
    return "normal";
  }

  function given(side, points) { return side === 0 ? [points, 0] : [0, points]; }

  function maoGain(score, m) {
    if (Math.max(score[0], score[1]) >= TARGET) return null;
    var kind = situation(score), ferro = cfg.rules.ferro;
    var other = 1 - (score[0] === ONZE ? 0 : 1);
    var p = m.points === undefined ? null : m.points;
    if (m.how === "penalty") {
      var allowed = kind === "normal" ? NORMAL : kind === "mao_de_onze" ? [1, 3] : (ferro === 1 ? [1] : [1, ferro]);
      if (!m.reason || m.to === null || allowed.indexOf(p) < 0) return null;
      return given(m.to, p);
    }
    if (m.to === null) {
      if (m.how !== "played" || (p !== null && p !== 0)) return null;
      return kind === "mao_de_onze" && cfg.rules.onze_tie === "opponent" ? given(other, 3) : [0, 0];
    }
    if (kind === "mao_de_ferro") {
      if (m.how !== "played" || (p !== null && p !== ferro)) return null;
      return given(m.to, ferro);
    }
    if (kind === "mao_de_onze") {
      if (m.how === "ran") return null;
      if (m.how === "refused") return m.to === other && (p === null || p === 1) ? given(other, 1) : null;
      return p === null || p === 3 ? given(m.to, 3) : null;
    }
    if (m.how === "refused") return null;
    if (m.how === "ran") return RAN.indexOf(p) >= 0 ? given(m.to, p) : null;
    return NORMAL.indexOf(p) >= 0 ? given(m.to, p) : null;
  }

  function maoOptions(score) {
    function ok(m) { return maoGain(score, m) !== null; }
    if (!ok({to: null, how: "played"})) return null;
    var onze = situation(score) === "mao_de_onze" ? (score[0] === ONZE ? 0 : 1) : null;
    return {
      score: score, situation: situation(score),
      played: NORMAL.filter(function (v) { return ok({to: 0, points: v, how: "played"}); }),
      ran: RAN.filter(function (v) { return ok({to: 0, points: v, how: "ran"}); }),
      refuse_by: onze !== null && ok({to: 1 - onze, how: "refused"}) ? onze : null,
      tie: true,
      penalty: NORMAL.filter(function (v) { return ok({to: 0, points: v, how: "penalty", reason: "x"}); })
    };
  }

  // --- the súmula as it will be once the queue is sent ----------------------------------------------------
  function project() {
    var partidas = server.partidas.map(function (p) {
      return {number: p.number, score: p.score.slice(), finished: p.finished, penalty: p.penalty || null,
              quick: !p.maos.length && !p.penalty, maos: p.maos.map(function (m) { return Object.assign({}, m); })};
    });
    var needed = Math.ceil(server.best_of / 2);
    var decidedElse = server.walkover !== null || server.penalty !== null;
    function won() {
      var w = [0, 0];
      partidas.forEach(function (p) { if (p.finished) w[p.score[0] > p.score[1] ? 0 : 1] += 1; });
      return w;
    }
    queue.forEach(function (op) {
      var last = partidas[partidas.length - 1];
      if (op.kind === "undo") {
        if (!last || !last.maos.length || last.maos[last.maos.length - 1].id !== op.mao) return;
        last.maos.pop();
        if (!last.maos.length) { partidas.pop(); return; }
        last.score = last.maos[last.maos.length - 1].score.slice();
        last.finished = Math.max(last.score[0], last.score[1]) >= TARGET;
        return;
      }
      var w = won();
      if (decidedElse || w[0] >= needed || w[1] >= needed) return;  // the server will refuse it
      if (!last || last.finished || last.quick || last.penalty) {
        last = {number: partidas.length + 1, score: [0, 0], finished: false, penalty: null, quick: false, maos: []};
        partidas.push(last);
      }
      var gain = maoGain(last.score, op.body);
      var mao = Object.assign({}, op.body, {pending: true, invalid: gain === null});
      if (gain) last.score = [last.score[0] + gain[0], last.score[1] + gain[1]];
      mao.score = last.score.slice();
      last.maos.push(mao);
      last.finished = Math.max(last.score[0], last.score[1]) >= TARGET;
    });
    var w = won();
    var decided = decidedElse || w[0] >= needed || w[1] >= needed;
    var last = partidas[partidas.length - 1];
    var running = last && !last.finished && !last.quick && !last.penalty ? last : null;
    var options = null;
    if (!queue.length) options = server.options;
    else if (!decided) options = maoOptions(running ? running.score : [0, 0]);
    var lastMao = last && last.maos.length ? last.maos[last.maos.length - 1].id : null;
    return {partidas: partidas, won: w, decided: decided, options: options, running: running,
            number: running ? running.number : partidas.length + 1, lastMao: lastMao,
            empty: !partidas.length && !decidedElse};
  }

  // --- drawing ---------------------------------------------------------------------------------------------
  function $(sel) { return root.querySelector(sel); }
  function $$(sel) { return Array.prototype.slice.call(root.querySelectorAll(sel)); }
  function bind(name, text) { var el = $('[data-bind="' + name + '"]'); if (el) el.textContent = text; return el; }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function allowed(opts, how, to, points) {
    if (!opts) return false;
    if (to === null) return !!opts.tie;
    if (how === "played") return opts.played.indexOf(points) >= 0;
    if (how === "ran") return opts.ran.indexOf(points) >= 0;
    if (how === "refused") return opts.refuse_by !== null && to === 1 - opts.refuse_by;
    if (how === "penalty") return opts.penalty.indexOf(points) >= 0;
    return false;
  }

  function render() {
    var view = project();
    var pending = queue.length > 0;
    var won = pending ? view.won : server.score;  // a WO or perda do jogo has no partidas to count
    bind("won-0", won[0]);
    bind("won-1", won[1]);
    var last = view.partidas[view.partidas.length - 1];
    var shown = view.running || (view.decided && last) || null;  // once decided: the last partida's score
    var points = shown ? shown.score : [0, 0];
    [0, 1].forEach(function (i) {
      var p = bind("points-" + i, points[i]);
      if (p) p.classList.toggle("is-pending", pending);
    });
    var code = view.partidas.length && server.status === "scheduled" ? "in_progress" : server.status;
    var status = bind("status", T.status[code]);
    if (status) status.className = "pill pill-" + (PILL[code] || "upcoming");
    bind("partida", fmt(T.partida, {n: shown ? shown.number : view.number}));
    var sit = $('[data-bind="situation"]');
    if (sit) {
      var opts = view.options;
      var text = view.decided ? (pending ? T.decided_pending : T.decided)
        : !opts ? ""
        : opts.situation === "mao_de_onze" ? fmt(T.onze, {dupla: T.duplas[opts.score[0] === ONZE ? 0 : 1]})
        : opts.situation === "mao_de_ferro" ? T.ferro : T.normal;
      sit.textContent = text;
      var line = sit.parentNode;
      line.classList.toggle("is-onze", !!opts && opts.situation === "mao_de_onze");
      line.classList.toggle("is-ferro", !!opts && opts.situation === "mao_de_ferro");
    }
    var pad = $("[data-pad]");
    if (pad) {
      pad.hidden = !view.options;
      $$("[data-pad] .mao-button").forEach(function (b) {
        var to = b.dataset.to === "" ? null : Number(b.dataset.to);
        var pts = b.dataset.points === "" ? null : Number(b.dataset.points);
        b.disabled = !allowed(view.options, b.dataset.how, to, pts);
      });
      $$("[data-pad] .pad-group").forEach(function (g) {
        g.hidden = !g.querySelector(".mao-button:not(:disabled)");
      });
    }
    var penalty = $("[data-penalty]");
    if (penalty) {
      var pOpts = view.options;
      Array.prototype.forEach.call(penalty.querySelectorAll("select[name=points] option"), function (o) {
        o.disabled = !allowed(pOpts, "penalty", 0, Number(o.value));
        if (o.disabled && o.selected) o.selected = false;
      });
      var submit = penalty.querySelector("button[type=submit]");
      if (submit) submit.disabled = !pOpts;
    }
    var undo = $("[data-undo]");
    if (undo) {
      undo.hidden = !view.lastMao;
      var input = undo.querySelector("input[name=mao]");
      if (input) input.value = view.lastMao || "";
    }
    $$("[data-only-empty]").forEach(function (d) { d.hidden = !view.empty; });
    $$("[data-needs-options]").forEach(function (d) { d.hidden = !view.options; });
    renderSheet(view);
    renderNet();
  }

  function renderSheet(view) {
    var box = document.getElementById("sheet-partidas");
    if (!box) return;
    var frag = document.createDocumentFragment();
    if (!view.partidas.length) {
      box.replaceChildren ? box.replaceChildren(el("p", "empty", T.no_maos)) : (box.textContent = T.no_maos);
      return;
    }
    view.partidas.forEach(function (p) {
      var table = el("table", "sheet-table" + (p.finished ? "" : " is-current"));
      table.appendChild(el("caption", null, fmt(T.partida, {n: p.number}) +
        (p.finished ? " · " + p.score[0] + " x " + p.score[1] : "")));
      var head = el("thead"), hr = el("tr");
      [["#"], [T.duplas[0]], [T.duplas[1]]].forEach(function (h) {
        var th = el("th", null);
        th.scope = "col";
        th.appendChild(el("bdi", null, h[0]));
        hr.appendChild(th);
      });
      head.appendChild(hr);
      table.appendChild(head);
      var body = el("tbody");
      if (p.penalty || p.quick) {
        var nr = el("tr"), td = el("td", "sheet-note");
        td.colSpan = 3;
        if (p.penalty) {
          var who = cfg.duplas[0].key === p.penalty.lost_by ? T.duplas[0] : T.duplas[1];
          td.textContent = fmt(T.lost_partida, {dupla: who, reason: p.penalty.reason || ""});
        } else {
          td.textContent = T.quick;
        }
        nr.appendChild(td);
        body.appendChild(nr);
      }
      var before = [0, 0];
      p.maos.forEach(function (m, k) {
        var tr = el("tr", m.pending ? "is-pending" : null);
        tr.dataset.mao = m.id;
        var th = el("th", null, String(k + 1));
        th.scope = "row";
        tr.appendChild(th);
        var gain = [m.score[0] - before[0], m.score[1] - before[1]];
        var note = m.to === null ? T.tie : m.how === "ran" ? T.ran : m.how === "refused" ? T.refused
          : m.how === "penalty" ? T.penalty : "";
        if (!gain[0] && !gain[1]) {
          var tie = el("td", "sheet-tie", (m.invalid ? "?" : note) + " · " + m.score[0] + " x " + m.score[1]);
          tie.colSpan = 2;
          if (m.pending) tie.appendChild(el("span", "pending-tag", T.pending));
          tr.appendChild(tie);
        } else {
          [0, 1].forEach(function (i) {
            var cell = el("td", gain[i] ? "got" : null);
            if (gain[i]) cell.appendChild(el("span", "gain", "+" + gain[i]));
            if (gain[i]) cell.appendChild(document.createTextNode(" "));
            cell.appendChild(el("span", "total", String(m.score[i])));
            if (gain[i] && note) cell.appendChild(el("small", "sheet-how", note + (m.reason ? ": " + m.reason : "")));
            if (gain[i] && m.pending) cell.appendChild(el("span", "pending-tag", T.pending));
            tr.appendChild(cell);
          });
        }
        before = m.score;
        body.appendChild(tr);
      });
      table.appendChild(body);
      frag.appendChild(table);
    });
    while (box.firstChild) box.removeChild(box.firstChild);
    box.appendChild(frag);
  }

  function renderNet() {
    var net = document.getElementById("sumula-net");
    if (!net) return;
    var n = queue.length;
    net.hidden = false;
    net.classList.toggle("is-offline", offline);
    net.classList.toggle("is-waiting", !offline && n > 0);
    var count = fmt(n === 1 ? T.waiting_one : T.waiting_many, {n: n});
    if (offline) net.textContent = n ? fmt(n === 1 ? T.offline_one : T.offline_many, {n: n}) : T.offline;
    else if (n) net.textContent = (flushing ? T.sending + " " : "") + count;
    else net.textContent = T.online + " · " + T.all_sent;
    net.dataset.pending = String(n);
  }

  function showErrors(list) {
    var box = document.getElementById("sumula-alert");
    if (!box || !list.length) return;
    while (box.firstChild) box.removeChild(box.firstChild);
    var ul = el("ul");
    list.forEach(function (m) { ul.appendChild(el("li", null, m)); });
    box.appendChild(ul);
    var close = el("button", "link-button", T.close);
    close.type = "button";
    close.addEventListener("click", function () { box.hidden = true; });
    box.appendChild(close);
    box.hidden = false;
    if (box.scrollIntoView) box.scrollIntoView({block: "nearest"});
  }

  // --- the network ----------------------------------------------------------------------------------------
  function csrfToken() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) return decodeURIComponent(m[1]);
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function request(url, options) {
    var ctrl = window.AbortController ? new AbortController() : null;
    var timer = ctrl ? setTimeout(function () { ctrl.abort(); }, TIMEOUT_MS) : null;
    options.credentials = "same-origin";
    options.cache = "no-store";
    options.headers = Object.assign({"Accept": "application/json"}, options.headers || {});
    if (ctrl) options.signal = ctrl.signal;
    return fetch(url, options).finally(function () { if (timer) clearTimeout(timer); });
  }

  function send(op) {
    var headers = {"Content-Type": "application/json", "X-CSRFToken": csrfToken()};
    if (op.kind === "undo") {
      return request(cfg.api.mao.replace("__ID__", encodeURIComponent(op.mao)), {method: "DELETE", headers: headers});
    }
    return request(cfg.api.maos, {method: "POST", headers: headers, body: JSON.stringify(op.body)});
  }

  function setOffline(value) {
    if (offline !== value) { offline = value; renderNet(); }
  }

  function readJson(res) {
    return res.json().catch(function () { return null; });
  }

  function flush() {
    if (flushing || !queue.length) { renderNet(); return Promise.resolve(); }
    flushing = true;
    renderNet();
    var refreshAfter = false;

    function step() {
      if (!queue.length) return Promise.resolve();
      var op = queue[0];
      inFlight = op.id;
      return send(op).then(function (res) {
        setOffline(false);
        return readJson(res).then(function (data) {
          if ((res.status === 200 || res.status === 201) && data && data.key) {
            queue.shift();
            save();
            server = data;
            render();
            return step();
          }
          if ([400, 404, 409, 422].indexOf(res.status) >= 0) {
            drop(op);
            showErrors((data && data.errors) || [fmt(T.server, {status: res.status})]);
            refreshAfter = true;
            render();
            return step();
          }
          // 403 (session or CSRF token gone), 429, 5xx: keep it queued, say why, try again later
          showErrors(((data && data.errors) || [fmt(T.server, {status: res.status})])
                     .concat(res.status === 403 ? [T.login] : []));
          return null;
        });
      }, function () {
        setOffline(true);  // fetch rejected: no network (or a timeout); the entry stays queued
        return null;
      });
    }

    return step().then(function () {
      flushing = false;
      inFlight = null;
      render();
      if (refreshAfter) return refresh();
      changed();
    }, function () {
      flushing = false;
      inFlight = null;
      render();
    });
  }

  function drop(op) {
    // the refused entry leaves the queue, and so does a queued undo of it
    queue = queue.filter(function (e) { return e !== op && !(e.kind === "undo" && e.mao === op.id); });
    save();
  }

  function refresh() {
    return request(cfg.api.jogo, {method: "GET"}).then(function (res) {
      setOffline(false);
      return readJson(res).then(function (data) {
        if (res.ok && data && data.key && !flushing) {
          if (data.version !== server.version || data.via !== server.via) { server = data; render(); }
          changed();
        }
      });
    }, function () { setOffline(true); });
  }

  // the server-rendered parts of the page (confirmations, signature, phase) no longer match: reload,
  // unless the referee is typing there or has an error to read (then say so and let them reload)
  function changed() {
    if (queue.length || shape(server) === pageShape) return;
    var alert = document.getElementById("sumula-alert");
    var fields = root.querySelectorAll("input, textarea, select");
    var typing = Array.prototype.some.call(fields, function (f) {
      if (f.type === "hidden" || f.type === "radio" || f.type === "checkbox" || f.tagName === "SELECT") {
        return f === document.activeElement;
      }
      return f === document.activeElement || f.value !== "";
    });
    var busy = typing || (alert && !alert.hidden);
    if (busy) {
      var note = document.getElementById("sumula-changed");
      if (note) note.hidden = false;
      return;
    }
    window.location.reload();
  }

  // --- the forms -------------------------------------------------------------------------------------------
  function enqueue(form) {
    var fd = new FormData(form);
    var to = fd.get("to"), points = fd.get("points"), reason = String(fd.get("reason") || "").trim();
    var body = {id: newId(), to: to === null || to === "" ? null : Number(to), how: String(fd.get("how") || "played")};
    if (points !== null && points !== "") body.points = Number(points);
    if (reason) body.reason = reason;
    var tap = [body.to, body.how, body.points, body.reason].join("|");
    var now = Date.now();
    if (tap === lastTap.key && now - lastTap.at < DOUBLE_TAP_MS) {  // a double tap, not two mãos: say so
      tapNote();
      return;
    }
    lastTap = {key: tap, at: now};
    queue.push({kind: "mao", id: body.id, body: body});
    save();
    render();
    flush();
  }

  // the second tap of a double tap is dropped: the referee reads why, for a few seconds, under the score
  var tapTimer = null;
  function tapNote() {
    var note = document.getElementById("sumula-tap");
    if (!note) return;
    note.textContent = T.double_tap;
    note.hidden = false;
    window.clearTimeout(tapTimer);
    tapTimer = window.setTimeout(function () { note.hidden = true; }, TAP_NOTE_MS);
  }

  function undo() {
    var last = queue[queue.length - 1];
    if (last && last.kind === "mao" && last.id !== inFlight) {
      queue.pop();  // still on the phone: just forget it
      save();
      render();
      return;
    }
    var target = project().lastMao;
    if (!target) return;
    queue.push({kind: "undo", id: newId(), mao: target});
    save();
    render();
    flush();
  }

  root.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (form.hasAttribute("data-queue")) {
      ev.preventDefault();
      enqueue(form);
      if (form.hasAttribute("data-penalty")) {
        form.reset();
        var details = form.closest("details");
        if (details) details.open = false;
      }
      return;
    }
    if (form.hasAttribute("data-undo")) {
      ev.preventDefault();
      undo();
      return;
    }
    if (queue.length) {  // any other write waits until the pending mãos are in
      ev.preventDefault();
      showErrors([T.flush_first]);
      flush();
    }
  });

  window.addEventListener("online", function () { setOffline(false); flush(); });
  window.addEventListener("offline", function () { setOffline(true); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { if (queue.length) flush(); else refresh(); }
  });
  window.addEventListener("storage", function (ev) {  // another tab of this jogo changed the queue
    if (ev.key === cfg.storage && !flushing) { queue = load(); render(); }
  });
  setInterval(function () { if (queue.length && !flushing) flush(); }, RETRY_MS);
  setInterval(function () {
    if (!queue.length && !flushing && document.visibilityState !== "hidden") refresh();
  }, REFRESH_MS);

  root.classList.add("has-js");
  render();
  flush();
})();
