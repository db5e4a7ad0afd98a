// Drive pickers of the compare and value forms: typing part of a name lists matching drives
// from /api/v1/search; choosing one puts its key in the field. Without this file the form still
// works: a name submitted instead of a key is searched by the server, which offers the drives.
(function () {
  "use strict";
  var n = 0;
  document.querySelectorAll("input[data-picker]").forEach(function (input) {
    var id = "picker-" + (++n);
    var list = document.createElement("ul");
    list.className = "suggest";
    list.id = id;
    list.setAttribute("role", "listbox");
    list.hidden = true;
    input.parentNode.appendChild(list);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-controls", id);
    input.setAttribute("aria-expanded", "false");
    var note = document.createElement("small");
    note.className = "picked";
    input.parentNode.appendChild(note);
    var timer = null, asked = "", active = -1;
    function close() { list.hidden = true; input.setAttribute("aria-expanded", "false"); active = -1; }
    function choose(li) {
      input.value = li.dataset.key;
      note.textContent = " " + li.dataset.name;
      close();
    }
    function mark(i) {
      var items = list.querySelectorAll("li");
      if (!items.length) { return; }
      active = (i + items.length) % items.length;
      items.forEach(function (li, j) { li.setAttribute("aria-selected", j === active ? "true" : "false"); });
      input.setAttribute("aria-activedescendant", items[active].id);
    }
    function show(drives) {
      list.textContent = "";
      drives.forEach(function (d, i) {
        var li = document.createElement("li");
        li.id = id + "-" + i;
        li.setAttribute("role", "option");
        li.dataset.key = d.device_key;
        li.dataset.name = ((d.vendor || "") + " " + (d.model || "")).trim() || d.device_key;
        li.textContent = li.dataset.name + " (" + d.class + ", " + d.results + " results)";
        li.addEventListener("mousedown", function (e) { e.preventDefault(); choose(li); });
        list.appendChild(li);
      });
      list.hidden = drives.length === 0;
      input.setAttribute("aria-expanded", drives.length ? "true" : "false");
    }
    function ask() {
      var q = input.value.trim();
      if (q.length < 2 || q.indexOf(":") >= 0 || q === asked) { return; }
      asked = q;
      fetch("/api/v1/search?per_page=1&q=" + encodeURIComponent(q), { headers: { Accept: "application/json" } })
        .then(function (r) { return r.ok ? r.json() : { drives: [] }; })
        .then(function (data) { if (input.value.trim() === q) { show(data.drives || []); } })
        .catch(function () { close(); });
    }
    input.addEventListener("input", function () {
      note.textContent = "";
      clearTimeout(timer);
      timer = setTimeout(ask, 200);
    });
    input.addEventListener("keydown", function (e) {
      if (list.hidden) { return; }
      if (e.key === "ArrowDown") { mark(active + 1); e.preventDefault(); }
      else if (e.key === "ArrowUp") { mark(active - 1); e.preventDefault(); }
      else if (e.key === "Enter" && active >= 0) { choose(list.querySelectorAll("li")[active]); e.preventDefault(); }
      else if (e.key === "Escape") { close(); }
    });
    input.addEventListener("blur", function () { setTimeout(close, 100); });
  });
})();
