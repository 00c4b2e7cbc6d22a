  /* The chart's part of the runtime: drawn by Chart.js from the dataset; colours come from
   * the theme. */
  function chartColors() {
    var style = getComputedStyle(document.documentElement);
    var out = [];
    for (var i = 1; i <= 6; i++) out.push(style.getPropertyValue("--u4-chart-" + i).trim() || "#4f46e5");
    return {
      series: out,
      text: style.getPropertyValue("--u4-muted").trim() || "#5d6478",
      grid: style.getPropertyValue("--u4-border").trim() || "#dfe2ea",
      surface: style.getPropertyValue("--u4-surface").trim() || "#ffffff"
    };
  }

  function alpha(color, a) {
    var m = /^#([0-9a-f]{6})$/i.exec(color);
    if (!m) return color;
    var n = parseInt(m[1], 16);
    return "rgba(" + (n >> 16) + "," + ((n >> 8) & 255) + "," + (n & 255) + "," + a + ")";
  }

  // The chart's data as a visually hidden table, for screen readers; render.py builds the same.
  function fillChartTable(canvas, keys, rows) {
    var figure = canvas.closest("figure");
    var table = figure && figure.querySelector("table[data-chart-table]");
    if (!table) return;
    var head = document.createElement("tr");
    keys.forEach(function (k) {
      var th = document.createElement("th");
      th.scope = "col";
      th.textContent = humanize(format(k));
      head.appendChild(th);
    });
    table.tHead.replaceChildren(head);
    table.tBodies[0].replaceChildren.apply(table.tBodies[0], rows.map(function (r) {
      var tr = document.createElement("tr");
      keys.forEach(function (k) {
        var td = document.createElement("td");
        td.textContent = cell(r[k]);
        tr.appendChild(td);
      });
      return tr;
    }));
  }

  // One point per x label, its series summed (chart/view.py combine does the same): a dataset
  // grouped by month and region charts by month, and a region filter narrows the sums.
  function combine(rows, x, ys) {
    var byLabel = Object.create(null);
    var out = [];
    rows.forEach(function (row) {
      var label = format(row[x]);
      var point = byLabel[label];
      if (!point) {
        point = byLabel[label] = Object.create(null);
        point[x] = row[x];
        ys.forEach(function (y) { point[y] = row[y]; });
        out.push(point);
        return;
      }
      ys.forEach(function (y) {
        var v = row[y];
        if (typeof v !== "number" || !isFinite(v)) return;
        var total = point[y];
        point[y] = typeof total === "number" && isFinite(total) ? total + v : v;
      });
    });
    return out;
  }

  function renderChart(canvas) {
    if (typeof Chart === "undefined") return;
    var cfg = config(canvas, "data-chart");
    if (!data[cfg.data]) return;
    var ys = Array.isArray(cfg.y) ? cfg.y.filter(function (y) { return typeof y === "string"; }) : [];
    var rows = combine(filtered(cfg.data, cfg.filter).map(function (r) { return r.row; }), cfg.x, ys);
    var kind = ["line", "bar", "area", "pie"].indexOf(cfg.kind) >= 0 ? cfg.kind : "bar";
    var colors = chartColors();
    var labels = rows.map(function (r) { return format(r[cfg.x]); });
    var pie = kind === "pie";
    var series = (pie ? ys.slice(0, 1) : ys).map(function (y, i) {
      var color = colors.series[i % colors.series.length];
      return {
        label: humanize(y),
        data: rows.map(function (r) { return asNumber(r[y]); }),
        borderColor: pie ? colors.surface : color,
        backgroundColor: pie ? labels.map(function (_l, j) {
          return colors.series[j % colors.series.length];
        }) : (kind === "area" ? alpha(color, 0.18) : color),
        fill: kind === "area",
        tension: 0.3,
        borderWidth: pie ? 2 : (kind === "bar" ? 0 : 2),
        borderRadius: kind === "bar" ? 6 : 0,
        pointRadius: kind === "bar" || pie ? undefined : 3
      };
    });
    fillChartTable(canvas, [cfg.x].concat(pie ? ys.slice(0, 1) : ys), rows);
    var key = JSON.stringify([kind, labels, series.map(function (s) { return s.data; }), ys, colors]);
    var existing = Chart.getChart(canvas);
    if (existing && canvas.getAttribute("data-drawn") === key) return;
    if (existing) existing.destroy();
    canvas.setAttribute("data-drawn", key);
    var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    var axis = { ticks: { color: colors.text }, grid: { color: colors.grid }, border: { display: false } };
    new Chart(canvas, {
      type: pie ? "pie" : (kind === "bar" ? "bar" : "line"),
      data: { labels: labels, datasets: series },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: still ? false : { duration: 300 },
        plugins: {
          legend: { display: pie || ys.length > 1, position: "bottom", labels: { color: colors.text, usePointStyle: true } }
        },
        scales: pie ? {} : { x: axis, y: Object.assign({ beginAtZero: true }, axis) }
      }
    });
  }

  part({
    apply: function () { all("canvas[data-chart]").forEach(renderChart); },
    keepNode: function (oldNode, newNode) {
      if (oldNode.tagName !== "CANVAS") return false;
      // Keep the canvas (Chart.js draws into it) but take what the renderer says about it:
      // the config, and the label, which grows while the chart node streams in.
      ["data-chart", "aria-label"].forEach(function (name) {
        var value = newNode.getAttribute && newNode.getAttribute(name);
        if (value && value !== oldNode.getAttribute(name)) oldNode.setAttribute(name, value);
      });
      return true;
    }
  });
