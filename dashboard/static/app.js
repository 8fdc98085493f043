// st dashboard: progressive enhancement of the server-rendered pages.
// Everything inserted comes from the server's templates, which escape
// what agents wrote; nothing here builds markup from data.
"use strict";
(function () {
  var body = document.body;
  var page = body.dataset.page;
  var liveState = document.getElementById("live-state");

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
    follow("/events?v=" + encodeURIComponent(body.dataset.version), {
      row: function (d) {
        var tr = fromHTML(d.html, "div");
        if (!tr) return;
        var old = document.getElementById("agent-" + d.id);
        if (old) { old.replaceWith(tr); flash(tr); return; }
        var empty = rows.querySelector(".empty");
        if (empty) empty.remove();
        var after = null;
        Array.prototype.forEach.call(rows.children, function (r) {
          if (!after && r.dataset.id > d.id) after = r;
        });
        rows.insertBefore(tr, after);
        flash(tr);
      },
      remove: function (d) {
        var old = document.getElementById("agent-" + d.id);
        if (old) old.remove();
      },
      summary: function (d) { document.getElementById("summary").innerHTML = d.html; }
    });
  }

  if (page === "agent") {
    follow("/events?agent=" + encodeURIComponent(body.dataset.agent) + "&v=" + encodeURIComponent(body.dataset.version), {
      live: function (d) {
        var live = document.getElementById("live");
        var open = {};
        live.querySelectorAll("details[open] .meta a").forEach(function (a) { open[a.textContent] = true; });
        live.innerHTML = d.html;
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
  function age(ms) {
    var s = Math.max(0, Date.now() - ms) / 1000;
    if (s < 60) return Math.floor(s) + "s ago";
    if (s < 3600) return Math.floor(s / 60) + "m ago";
    if (s < 86400) return Math.floor(s / 3600) + "h ago";
    return Math.floor(s / 86400) + "d ago";
  }
  setInterval(function () {
    document.querySelectorAll("time[data-ms]").forEach(function (t) {
      t.textContent = age(Number(t.dataset.ms));
    });
  }, 15000);
})();
