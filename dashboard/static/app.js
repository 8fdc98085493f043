// st dashboard: progressive enhancement of the server-rendered pages.
// Everything inserted comes from the server's templates, which escape
// what agents wrote; nothing here builds markup from data.
"use strict";
(function () {
  var body = document.body;
  var page = body.dataset.page;
  var liveState = document.getElementById("live-state");
  var notifyButton = document.getElementById("notify");

  function follow(url, handlers) {
    if (!window.EventSource) return;
    var es = new EventSource(url);
    es.onopen = function () { if (liveState) { liveState.hidden = false; liveState.className = "live-state on"; } };
    es.onerror = function () { if (liveState) { liveState.className = "live-state off"; } };
    Object.keys(handlers).forEach(function (name) {
      es.addEventListener(name, function (ev) { handlers[name](JSON.parse(ev.data)); });
    });
  }

  function fromHTML(html, tag) {
    var holder = document.createElement(tag);
    holder.innerHTML = html;
    return holder.firstElementChild;
  }

  if (page === "fleet") {
    var rows = document.getElementById("rows");
    var show = body.dataset.show || "", order = body.dataset.order || "attention";
    // A row's place: by attention group, the longest in it first, then
    // name; or by name alone (?order=name). The server sorts the same way.
    var before = function (a, b) {
      if (order === "attention") {
        var ra = Number(a.dataset.rank), rb = Number(b.dataset.rank);
        if (ra !== rb) return ra < rb;
        var sa = Number(a.dataset.since), sb = Number(b.dataset.since);
        if (sa !== sb) return sa < sb;
      }
      return a.dataset.id < b.dataset.id;
    };
    var alarming = { "waiting": true, "api-error": true };
    var groupOf = {};
    Array.prototype.forEach.call(rows.querySelectorAll(".row[data-id]"), function (r) { groupOf[r.dataset.id] = r.dataset.group; });
    follow("/events?v=" + encodeURIComponent(body.dataset.version) +
      "&show=" + encodeURIComponent(show) + "&order=" + encodeURIComponent(order), {
      row: function (d) {
        var tr = fromHTML(d.html, "div");
        if (!tr) return;
        var old = document.getElementById("agent-" + d.id);
        var was = groupOf[d.id] || "";
        groupOf[d.id] = tr.dataset.group;
        if (old) old.remove();
        if (alarming[tr.dataset.group] && was !== tr.dataset.group) notify(tr);
        if (show && tr.dataset.group !== show) return;
        var empty = rows.querySelector(".empty");
        if (empty) empty.remove();
        var after = null;
        for (var i = 0; i < rows.children.length && !after; i++) {
          if (before(tr, rows.children[i])) after = rows.children[i];
        }
        rows.insertBefore(tr, after);
        ageAll(tr);
        flash(tr);
      },
      remove: function (d) {
        var old = document.getElementById("agent-" + d.id);
        if (old) old.remove();
        delete groupOf[d.id];
      },
      summary: function (d) {
        document.getElementById("summary").innerHTML = d.html;
        ageAll(document.getElementById("summary"));
        document.title = (d.alarm > 0 ? "(" + d.alarm + ") " : "") + "st dashboard";
      }
    });
    setupNotify();
  }

  // Browser notifications are opt-in: the permission is asked for only
  // when the operator clicks the button, and remembered by the browser.
  function notifyOn() {
    return window.Notification && Notification.permission === "granted" && localStorage.getItem("st-notify") === "on";
  }
  function setupNotify() {
    if (!window.Notification || !notifyButton) return;
    notifyButton.hidden = false;
    var label = function () {
      notifyButton.textContent = notifyOn() ? "Notifications on" : "Notify me";
      notifyButton.setAttribute("aria-pressed", notifyOn() ? "true" : "false");
    };
    label();
    notifyButton.addEventListener("click", function () {
      if (notifyOn()) { localStorage.setItem("st-notify", "off"); label(); return; }
      Notification.requestPermission().then(function (p) {
        if (p === "granted") localStorage.setItem("st-notify", "on");
        label();
      });
    });
  }
  function notify(tr) {
    if (!notifyOn()) return;
    var reason = tr.querySelector(".state .reason");
    var title = tr.dataset.id + (tr.dataset.group === "waiting" ? " waits on a human" : " stopped on an API error");
    try {
      new Notification(title, { body: reason ? reason.textContent.trim() : "", tag: "st-" + tr.dataset.id });
    } catch (e) { /* a browser that only notifies from a service worker */ }
  }

  if (page === "agent") {
    follow("/events?agent=" + encodeURIComponent(body.dataset.agent) + "&v=" + encodeURIComponent(body.dataset.version), {
      live: function (d) {
        document.getElementById("state").innerHTML = d.state;
        ageAll(document.getElementById("state"));
        var live = document.getElementById("live");
        var open = {};
        live.querySelectorAll("details[open] .meta a").forEach(function (a) { open[a.textContent] = true; });
        live.innerHTML = d.html;
        ageAll(live);
        live.querySelectorAll("details .meta a").forEach(function (a) {
          if (open[a.textContent]) a.closest("details").open = true;
        });
      }
    });
  }

  function flash(el) {
    el.classList.add("flash");
    setTimeout(function () { el.classList.remove("flash"); }, 1200);
  }

  // Forms post in the background and report in their <output>; the
  // change itself arrives over the stream like any other.
  document.querySelectorAll("form.act").forEach(function (form) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var out = form.querySelector("output");
      var button = form.querySelector("button");
      button.disabled = true;
      fetch(form.action, {
        method: "POST",
        headers: { "Accept": "application/json" },
        body: new URLSearchParams(new FormData(form)),
        credentials: "same-origin"
      }).then(function (res) {
        return res.json().then(function (j) { return { ok: res.ok, j: j }; });
      }).then(function (r) {
        out.className = "result " + (r.ok ? "ok" : "bad");
        out.textContent = r.ok ? r.j.message : r.j.error;
        if (r.ok) { var t = form.querySelector("textarea"); if (t) t.value = ""; }
      }).catch(function (e) {
        out.className = "result bad";
        out.textContent = String(e);
      }).finally(function () { button.disabled = false; });
    });
  });

  // Relative times age in place (no request to the server).
  function span(s) {
    if (s < 60) return Math.floor(s) + "s";
    if (s < 3600) return Math.floor(s / 60) + "m";
    if (s < 86400) return Math.floor(s / 3600) + "h";
    return Math.floor(s / 86400) + "d";
  }
  // (Rows are rendered once per change, so their times start out as old
  // as the rendering: age them at once, and each part the stream
  // inserts, then every few seconds.) The server renders the same words.
  function ageAll(root) {
    var now = Date.now();
    (root || document).querySelectorAll("time[data-ms]").forEach(function (t) {
      t.textContent = span(Math.max(0, now - Number(t.dataset.ms)) / 1000) + " ago";
    });
    (root || document).querySelectorAll("time[data-due]").forEach(function (t) {
      var s = (Number(t.dataset.due) - now) / 1000;
      t.textContent = s > 0 ? "next in " + span(s) : "overdue by " + span(-s);
    });
  }
  ageAll();
  setInterval(function () { ageAll(); }, 5000);
})();
