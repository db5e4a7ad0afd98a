// Draws the charts of a page from the JSON blocks beside their canvases. Pages work without
// this file; only charts need it (their figures are in the page's tables too).
(function () {
  "use strict";
  if (typeof Chart === "undefined") { return; }
  var colours = ["#1d3557", "#e63946", "#2a9d8f", "#f4a261", "#6d597a"];
  var narrow = window.matchMedia && window.matchMedia("(max-width: 600px)").matches;
  function bars(canvas, data) {
    var n = data.labels.length;
    if (data.horizontal) {
      // A row per label: tall enough to read every name, also at 390 px.
      canvas.parentNode.style.height = Math.max(160, 40 + n * data.series.length * (narrow ? 18 : 16) + n * 10) + "px";
    }
    return { type: "bar",
      data: { labels: data.labels.map(function (l) { return narrow && l.length > 28 ? l.slice(0, 27) + "…" : l; }),
        datasets: data.series.map(function (s, i) { return { label: s.label, data: s.values, backgroundColor: colours[i % colours.length] }; }) },
      options: { animation: false, responsive: true, maintainAspectRatio: false, indexAxis: data.horizontal ? "y" : "x",
        plugins: { legend: { display: data.series.length > 1 } },
        scales: (function () { var v = { beginAtZero: true, title: { display: true, text: data.unit } };
          return data.horizontal ? { x: v, y: { ticks: { autoSkip: false } } } : { y: v }; })() } };
  }
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
        options: { animation: false, responsive: true, maintainAspectRatio: false, scales: { x: { title: { display: true, text: "MB/s" } }, y: { beginAtZero: true, title: { display: true, text: "results" } } } } };
    } else if (canvas.dataset.chart === "series") {
      cfg = { type: "line", data: { datasets: [{ label: "MB/s", data: data.map(function (p) { return { x: p[0], y: p[1] }; }), borderColor: "#e63946", pointRadius: 0 }] },
        options: { animation: false, responsive: true, maintainAspectRatio: false, parsing: false, scales: { x: { type: "linear", title: { display: true, text: "seconds" } }, y: { beginAtZero: true, title: { display: true, text: "MB/s" } } } } };
    } else if (canvas.dataset.chart === "bars") {
      cfg = bars(canvas, data);
    } else { return; }
    canvas.chart = new Chart(canvas, cfg);
  });
})();
