/* Zap — a sala's page (templates/play/sala.html), plain JS, no build step.
 *
 * Without this script the page works as it is: the tables as they were when it loaded, the chat form POSTs and
 * comes back. With it, the page listens to the sala's live connection (/ws/salas/<slug>/): "changed" → the
 * tables part is read again (?parte=mesas, the server's own template), "chat" → the line is added; the chat form
 * sends over the connection. When the connection is down the tables are read every 10 s and the form posts.
 * Everything people wrote goes in with textContent: never markup.
 */
(function () {
  "use strict";

  var root = document.getElementById("sala");
  if (!root || !window.fetch) return;
  var base = root.getAttribute("data-url");
  var slug = base.replace(/\/+$/, "").split("/").pop();
  var form = document.getElementById("sala-chat-form");
  var input = document.getElementById("sala-chat-texto");
  var ws = null, attempts = 0, pollTimer = null, loading = null;

  function list() { return document.getElementById("sala-chat-lista"); }

  function refreshTables() {
    var mine = loading = fetch(base + "?parte=mesas", {credentials: "same-origin", headers: {"X-Requested-With": "fetch"}})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html === null || mine !== loading) return;
        var box = document.createElement("div");
        box.innerHTML = html;  // the server's template: everything in it escaped by Django
        var fresh = box.querySelector("#sala-mesas");
        var old = document.getElementById("sala-mesas");
        if (fresh && old && old.innerHTML !== fresh.innerHTML) old.parentNode.replaceChild(fresh, old);
      })
      .catch(function () { /* the next change or poll tries again */ });
  }

  function addLine(m) {
    var ol = list();
    if (!ol || !m) return;
    var empty = ol.querySelector(".chat-vazio");
    if (empty) empty.parentNode.removeChild(empty);
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
    ol.appendChild(li);
    while (ol.children.length > 100) ol.removeChild(ol.firstChild);
    ol.scrollTop = ol.scrollHeight;
  }

  function showError(text) {
    var part = document.getElementById("sala-chat-parte");
    if (!part) return;
    var old = part.querySelector(".form-errors");
    if (old) old.parentNode.removeChild(old);
    if (!text) return;
    var box = document.createElement("div");
    box.className = "form-errors";
    box.setAttribute("role", "alert");
    var p = document.createElement("p");
    p.textContent = text;
    box.appendChild(p);
    part.appendChild(box);
  }

  function poll(on) {
    clearInterval(pollTimer);
    pollTimer = on ? setInterval(function () { if (document.visibilityState === "visible") refreshTables(); }, 10000) : null;
  }

  function connect() {
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/salas/" + slug + "/";
    try { ws = new WebSocket(url); } catch (e) { ws = null; poll(true); return; }
    ws.onopen = function () { attempts = 0; poll(false); refreshTables(); };
    ws.onmessage = function (e) {
      var msg;
      try { msg = JSON.parse(e.data); } catch (err) { return; }
      if (!msg) return;
      if (msg.type === "changed") refreshTables();
      else if (msg.type === "chat") { addLine(msg.message || msg); showError(""); }
      else if (msg.type === "refused" || msg.type === "error") showError(msg.reason || "");
    };
    ws.onclose = function (e) {
      ws = null;
      poll(true);
      if (e.code === 4004) return;
      var wait = Math.min(30000, 1000 * Math.pow(2, attempts)) * (0.8 + Math.random() * 0.4);
      attempts += 1;
      setTimeout(connect, wait);
    };
  }

  if (form && input) {
    form.addEventListener("submit", function (e) {
      if (!ws || ws.readyState !== 1) return;  // no connection: the form posts
      e.preventDefault();
      var text = input.value.trim();
      if (!text) return;
      ws.send(JSON.stringify({type: "chat", text: text, id: String(Date.now()) + Math.random().toString(16).slice(2)}));
      input.value = "";
    });
  }
  var ol = list();
  if (ol) ol.scrollTop = ol.scrollHeight;
  connect();
})();
