// Draws the charts of a page from the JSON blocks beside their canvases. Pages work without
// this file; only charts need it.
(function () {
  "use strict";
  if (typeof Chart === "undefined") { return; }
  document.querySelectorAll("canvas[data-chart]").forEach(function (canvas) {
    var src = document.getElementById(canvas.dataset.source);
    if (!src) { return; }
    var data = JSON.parse(src.textContent);
    var cfg;
    if (canvas.dataset.chart === "histogram") {
      var labels = data.counts.map(function (_, i) {
        return data.edges[i].toFixed(1) + "–" + data.edges[i + 1].toFixed(1);
      });
      cfg = { type: "bar", data: { labels: labels, datasets: [{ label: data.test + ": results per MB/s bin", data: data.counts, backgroundColor: "#457b9d" }] },
        options: { animation: false, scales: { x: { title: { display: true, text: "MB/s" } }, y: { beginAtZero: true, title: { display: true, text: "results" } } } } };
    } else if (canvas.dataset.chart === "series") {
      cfg = { type: "line", data: { datasets: [{ label: "MB/s", data: data.map(function (p) { return { x: p[0], y: p[1] }; }), borderColor: "#e63946", pointRadius: 0 }] },
        options: { animation: false, parsing: false, scales: { x: { type: "linear", title: { display: true, text: "seconds" } }, y: { beginAtZero: true, title: { display: true, text: "MB/s" } } } } };
    } else { return; }
    canvas.chart = new Chart(canvas, cfg);
  });
})();
