/* ui4a runtime: gives a rendered UI4A view life inside its sandboxed frame.
 * It owns the view's state and datasets, two-way bindings, the fixed action vocabulary, form
 * validation, tables, lists and charts, and live patches from the parent studio. Model output
 * is data: nothing here evaluates it or injects it as HTML. The only HTML it morphs in is the
 * ui4a renderer's, sent by the parent frame; everything it builds itself is set as text.
 * ui4a/state.py and ui4a/expr.py hold the Python side of the rules mirrored here. */
(function () {
  "use strict";

  var root = document.getElementById("ui4a-root");
  var NAME = "[A-Za-z_][A-Za-z0-9_]{0,39}";
  var PLACEHOLDER = new RegExp("\\{(\\.?)(" + NAME + ")\\}", "g");
  var COND = new RegExp("^(!)?(" + NAME + ")(?:(!=|<=|>=|=|<|>)([^\\x00-\\x1f]{0,40}))?$");
  var CLAUSE = new RegExp("^(\\*|" + NAME + ")(!=|<=|>=|=|<|>|~)(?:(" + NAME + ")|'([^'\\x00-\\x1f]{0,40})')$");
  var NUMBER = /^-?[0-9]+(?:\.[0-9]+)?$/;
  var EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
  var MAX_ROWS = 500;
  var has = function (obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); };
  // Null-prototype objects, so keys such as "__proto__" are just keys.
  var state = Object.create(null);
  var initial = Object.create(null);
  var data = Object.create(null);
  var initialData = Object.create(null);
  // Keys and datasets the user has changed: streamed values never overwrite them.
  var touched = Object.create(null);
  var touchedData = Object.create(null);
  var tableUi = Object.create(null);

  function isScalar(v) {
    return v === null || typeof v === "string" || typeof v === "boolean" ||
      (typeof v === "number" && isFinite(v));
  }

  function cleanRows(rows) {
    if (!Array.isArray(rows)) return null;
    return rows.slice(0, MAX_ROWS).filter(function (r) {
      return r && typeof r === "object" && !Array.isArray(r);
    }).map(function (r) {
      var out = Object.create(null);
      Object.keys(r).forEach(function (k) { if (isScalar(r[k])) out[k] = r[k]; });
      return out;
    });
  }

  function copyRows(rows) {
    return rows.map(function (r) { return Object.assign(Object.create(null), r); });
  }

  function merge(incoming, overwriteUntouched) {
    if (!incoming || typeof incoming !== "object" || Array.isArray(incoming)) return;
    Object.keys(incoming).forEach(function (key) {
      if (!isScalar(incoming[key])) return;
      initial[key] = incoming[key];
      if (touched[key]) return;
      if (overwriteUntouched || !has(state, key)) state[key] = incoming[key];
    });
  }

  function mergeData(incoming) {
    if (!incoming || typeof incoming !== "object" || Array.isArray(incoming)) return;
    Object.keys(incoming).forEach(function (name) {
      var rows = cleanRows(incoming[name]);
      if (!rows) return;
      initialData[name] = rows;
      if (!touchedData[name]) data[name] = copyRows(rows);
    });
  }

  function format(v) {
    return v === null || v === undefined ? "" : String(v);
  }

  function cell(v) {
    if (typeof v !== "number") return format(v);
    if (!isFinite(v)) return "";
    var parts = Math.abs(v).toFixed(2).split(".");
    parts[0] = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    var text = (parts[0] + "." + parts[1]).replace(/\.?0+$/, "");
    if (text === "") text = "0";
    return v < 0 && text !== "0" ? "-" + text : text;
  }

  function asNumber(v) {
    if (typeof v === "number") return isFinite(v) ? v : null;
    if (typeof v === "string" && NUMBER.test(v)) return Number(v);
    return null;
  }

  function compare(left, op, right) {
    if (op === "~") return format(left).toLowerCase().indexOf(format(right).toLowerCase()) >= 0;
    var a = asNumber(left), b = asNumber(right);
    if (a === null || b === null) { a = format(left); b = format(right); }
    if (op === "=") return a === b;
    if (op === "!=") return a !== b;
    if (op === "<") return a < b;
    if (op === ">") return a > b;
    if (op === "<=") return a <= b;
    return a >= b;
  }

  // The list item an element sits in: its dataset's record, or null outside items.
  function itemOf(el) {
    var li = el && el.closest ? el.closest("[data-item]") : null;
    var list = li ? li.closest("[data-list]") : null;
    if (!li || !list) return null;
    var name = config(list, "data-list").data;
    var index = Number(li.getAttribute("data-item"));
    var rows = data[name];
    return rows && rows[index] ? { name: name, index: index, row: rows[index] } : null;
  }

  function read(key, el) {
    if (key.charAt(0) === ".") {
      var item = itemOf(el);
      return item ? item.row[key.slice(1)] : undefined;
    }
    return state[key];
  }

  function holds(cond, el) {
    var scope = cond.replace(/^(!?)\./, "$1");
    var m = COND.exec(scope);
    if (!m || (m[1] && m[3])) return true;
    var key = scope !== cond ? "." + m[2] : m[2];
    var value = read(key, el);
    if (!m[3]) return m[1] ? !value : !!value;
    return compare(value, m[3], m[4]);
  }

  function interpolate(tpl, el) {
    return tpl.replace(PLACEHOLDER, function (_m, dot, key) {
      if (!dot) return format(state[key]);
      var item = itemOf(el);
      return item ? format(item.row[key]) : "";
    });
  }

  function config(el, attr) {
    try {
      var parsed = JSON.parse(el.getAttribute(attr) || "{}");
      return parsed && typeof parsed === "object" ? parsed : {};
    } catch (err) {
      return {};
    }
  }

  function inactive(v) {
    return v === null || v === undefined || (typeof v === "string" && /^\s*(all)?\s*$/i.test(v));
  }

  // The rows of a dataset passing filter clauses, with their indexes in the dataset.
  function filtered(name, clauses) {
    var rows = data[name] || [];
    var parsed = (Array.isArray(clauses) ? clauses : []).map(function (c) {
      return typeof c === "string" ? CLAUSE.exec(c) : null;
    }).filter(Boolean);
    var out = [];
    rows.forEach(function (row, index) {
      var ok = parsed.every(function (m) {
        var wanted = m[3] ? state[m[3]] : m[4];
        if (m[3] && inactive(wanted)) return true;
        if (m[1] === "*") {
          return Object.keys(row).some(function (k) { return compare(row[k], m[2], wanted); });
        }
        return compare(row[m[1]], m[2], wanted);
      });
      if (ok) out.push({ row: row, index: index });
    });
    return out;
  }

  function humanize(key) {
    var text = key.replace(/_/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function all(selector, within) {
    return Array.prototype.slice.call((within || root).querySelectorAll(selector));
  }

  // ---- lists: one item per record, cloned from the renderer's <template>.
  var ID_ATTRS = ["id", "for", "aria-labelledby", "aria-describedby", "aria-controls", "name"];

  function suffixIds(node, suffix) {
    var els = [node].concat(all("*", node));
    els.forEach(function (el) {
      if (!el.getAttribute) return;
      ID_ATTRS.forEach(function (attr) {
        var v = el.getAttribute(attr);
        if (v && (attr !== "name" || el.type === "radio")) {
          el.setAttribute(attr, v.split(" ").map(function (id) { return id + suffix; }).join(" "));
        }
      });
    });
  }

  function renderList(list) {
    var cfg = config(list, "data-list");
    if (!data[cfg.data]) return;
    var wanted = filtered(cfg.data, cfg.filter).map(function (r) { return r.index; });
    var items = Array.prototype.slice.call(list.children);
    var have = items.map(function (li) { return Number(li.getAttribute("data-item")); });
    var wrap = list.parentNode;
    var empty = wrap.querySelector("[data-empty]");
    if (empty) empty.hidden = wanted.length > 0;
    if (have.join() === wanted.join()) return;
    var template = wrap.querySelector("template[data-template]");
    if (!template) return;
    var byIndex = Object.create(null);
    items.forEach(function (li, i) { byIndex[have[i]] = li; });
    var next = wanted.map(function (index) {
      if (byIndex[index]) return byIndex[index];
      var li = document.createElement("li");
      li.className = "u4-item";
      li.setAttribute("data-item", String(index));
      var content = template.content.cloneNode(true);
      Array.prototype.slice.call(content.childNodes).forEach(function (n) {
        li.appendChild(n);
        if (n.nodeType === 1) suffixIds(n, "-i" + index);
      });
      return li;
    });
    list.replaceChildren.apply(list, next);
  }

  // ---- tables: filter, search, sort and page the dataset; cells are text.
  function renderTable(wrap) {
    var cfg = config(wrap, "data-table");
    if (!data[cfg.data]) return;
    var ui = tableUi[wrap.id] || (tableUi[wrap.id] = { sort: "", dir: 1, page: 0, q: "" });
    var cols = Array.isArray(cfg.cols) ? cfg.cols : [];
    var numeric = Array.isArray(cfg.num) ? cfg.num : [];
    var rows = filtered(cfg.data, cfg.filter);
    if (ui.q) {
      rows = rows.filter(function (r) {
        return cols.some(function (c) { return compare(r.row[c], "~", ui.q); });
      });
    }
    if (ui.sort) {
      rows.sort(function (a, b) {
        var x = a.row[ui.sort], y = b.row[ui.sort];
        var nx = asNumber(x), ny = asNumber(y), order;
        if (nx !== null && ny !== null) order = nx - ny;
        else order = format(x).localeCompare(format(y));
        return order * ui.dir || a.index - b.index;
      });
    }
    var size = Math.max(1, Number(cfg.page) || 10);
    var pages = Math.max(1, Math.ceil(rows.length / size));
    ui.page = Math.min(Math.max(0, ui.page), pages - 1);
    var start = ui.page * size;
    var body = wrap.querySelector("tbody");
    var trs = rows.slice(start, start + size).map(function (r) {
      var tr = document.createElement("tr");
      cols.forEach(function (c) {
        var td = document.createElement("td");
        if (numeric.indexOf(c) >= 0) td.className = "u4-num";
        td.textContent = cell(r.row[c]);
        tr.appendChild(td);
      });
      return tr;
    });
    if (!trs.length) {
      var tr = document.createElement("tr");
      var td = document.createElement("td");
      td.className = "u4-empty";
      td.colSpan = cols.length || 1;
      td.textContent = "No rows";
      tr.appendChild(td);
      trs.push(tr);
    }
    if (body) body.replaceChildren.apply(body, trs);
    all("th", wrap).forEach(function (th) {
      var button = th.querySelector("[data-sort]");
      var key = button ? button.getAttribute("data-sort") : "";
      var sort = ui.sort === key ? (ui.dir > 0 ? "ascending" : "descending") : "none";
      th.setAttribute("aria-sort", sort);
    });
    var info = wrap.querySelector(".u4-pager-info");
    var text = rows.length ? (start + 1) + "\u2013" + Math.min(start + size, rows.length) +
      " of " + rows.length : "No rows";
    if (info && info.textContent !== text) info.textContent = text;
    var prev = wrap.querySelector("[data-page='-1']"), next = wrap.querySelector("[data-page='1']");
    if (prev) prev.disabled = ui.page === 0;
    if (next) next.disabled = ui.page >= pages - 1;
    var search = wrap.querySelector("[data-table-search]");
    if (search && search.value !== ui.q) search.value = ui.q;
  }

  // ---- charts, drawn by Chart.js from the dataset; colours come from the theme.
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

  function renderChart(canvas) {
    if (typeof Chart === "undefined") return;
    var cfg = config(canvas, "data-chart");
    if (!data[cfg.data]) return;
    var rows = filtered(cfg.data, cfg.filter).map(function (r) { return r.row; });
    var ys = Array.isArray(cfg.y) ? cfg.y.filter(function (y) { return typeof y === "string"; }) : [];
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

  // ---- applying state to the DOM.
  function applyTheme() {
    var view = root.querySelector(".u4-view");
    if (!view) return;
    ["mode", "accent", "radius", "density"].forEach(function (name) {
      var v = view.getAttribute("data-" + name);
      if (v && document.documentElement.getAttribute("data-" + name) !== v) {
        document.documentElement.setAttribute("data-" + name, v);
      }
    });
  }

  function readData() {
    var el = document.getElementById("ui4a-data");
    if (!el) return;
    try {
      mergeData(JSON.parse(el.textContent || "{}"));
    } catch (err) {
      console.warn("ui4a: unreadable data", err);
    }
  }

  function apply() {
    applyTheme();
    all("[data-list]").forEach(renderList);
    all("[data-bind]").forEach(function (el) {
      var value = read(el.getAttribute("data-bind"), el);
      if (el.type === "checkbox") {
        el.checked = !!value;
      } else if (el.type === "radio") {
        el.checked = format(value) === el.value;
      } else if (el.value !== format(value)) {
        el.value = format(value); // only when different, so the caret stays put
      }
    });
    all("[data-show]").forEach(function (el) {
      var text = format(read(el.getAttribute("data-show"), el));
      if (el.tagName === "PROGRESS") {
        el.value = asNumber(text) || 0;
      } else if (el.textContent !== text) {
        el.textContent = text;
      }
    });
    all("[data-percent]").forEach(function (el) {
      var value = asNumber(read(el.getAttribute("data-percent"), el)) || 0;
      var top = Number(el.getAttribute("data-max")) || 100;
      var text = Math.max(0, Math.min(100, Math.round(value / top * 100))) + "%";
      if (el.textContent !== text) el.textContent = text;
    });
    all("[data-tpl]").forEach(function (el) {
      var text = interpolate(el.getAttribute("data-tpl"), el);
      if (el.textContent !== text) el.textContent = text;
    });
    all("[data-if]").forEach(function (el) {
      el.hidden = !holds(el.getAttribute("data-if"), el);
    });
    all("[data-tabs]").forEach(applyTabs);
    all("[data-table]").forEach(renderTable);
    all("canvas[data-chart]").forEach(renderChart);
    all("dialog[data-dialog]").forEach(function (dialog) {
      var open = !!state[dialog.getAttribute("data-dialog")] && !dialog.hidden;
      if (open && !dialog.open && dialog.isConnected) {
        dialog.showModal();
      } else if (!open && dialog.open) {
        dialog.close();
      }
    });
  }

  function applyTabs(tabs) {
    var key = tabs.getAttribute("data-tabs");
    var buttons = all("[role=tab]", tabs).filter(function (b) { return b.closest("[data-tabs]") === tabs; });
    var labels = buttons.map(function (b) { return b.getAttribute("data-tab"); });
    var current = labels.indexOf(format(state[key])) >= 0 ? format(state[key]) : labels[0];
    buttons.forEach(function (b) {
      var on = b.getAttribute("data-tab") === current;
      b.setAttribute("aria-selected", on ? "true" : "false");
      b.tabIndex = on ? 0 : -1;
    });
    Array.prototype.slice.call(tabs.children).forEach(function (panel) {
      if (panel.getAttribute("role") === "tabpanel") {
        panel.hidden = panel.getAttribute("data-tab") !== current;
      }
    });
  }

  function post(message) {
    // A sandboxed frame has an opaque origin, so the parent cannot be named; state is not secret.
    if (window.parent !== window) window.parent.postMessage(message, "*");
  }

  function snapshot() {
    var out = {};
    Object.keys(state).forEach(function (k) { out[k] = state[k]; });
    return out;
  }

  function write(key, value, el) {
    if (key.charAt(0) === ".") {
      var item = itemOf(el);
      if (!item || !isScalar(value)) return;
      item.row[key.slice(1)] = value;
      touchedData[item.name] = true;
    } else {
      state[key] = value;
      touched[key] = true;
    }
  }

  function change(key, value, el) {
    write(key, value, el);
    apply();
    post({ type: "ui4a.state", state: snapshot() });
  }

  // ---- the action vocabulary; ui4a/actions.py is its Python side.
  var ACTIONS = {
    set: function (a, el) {
      if (typeof a.path === "string" && isScalar(a.value)) write(a.path, a.value, el);
    },
    toggle: function (a, el) {
      if (typeof a.path === "string") write(a.path, !read(a.path, el), el);
    },
    increment: function (a, el) {
      if (typeof a.path !== "string") return;
      var by = typeof a.by === "number" && isFinite(a.by) ? a.by : 1;
      write(a.path, (asNumber(read(a.path, el)) || 0) + by, el);
    },
    append: function (a) {
      if (typeof a.path !== "string" || !a.value || typeof a.value !== "object") return;
      var record = Object.create(null);
      Object.keys(a.value).forEach(function (k) {
        var v = a.value[k];
        if (isScalar(v)) record[k] = typeof v === "string" ? interpolate(v, null) : v;
      });
      var rows = data[a.path] || (data[a.path] = []);
      if (rows.length < MAX_ROWS) rows.push(record);
      touchedData[a.path] = true;
    },
    remove: function (_a, el) {
      var item = itemOf(el);
      if (!item) return;
      data[item.name].splice(item.index, 1);
      touchedData[item.name] = true;
    },
    reset: function (a) {
      if (typeof a.path === "string") {
        state[a.path] = has(initial, a.path) ? initial[a.path] : null;
        delete touched[a.path];
        return;
      }
      Object.keys(state).forEach(function (k) { delete state[k]; });
      Object.keys(initial).forEach(function (k) { state[k] = initial[k]; });
      Object.keys(touched).forEach(function (k) { delete touched[k]; });
      Object.keys(initialData).forEach(function (k) { data[k] = copyRows(initialData[k]); });
      Object.keys(touchedData).forEach(function (k) { delete touchedData[k]; });
      all(".u4-error").forEach(function (e) { e.hidden = true; e.textContent = ""; });
      all("[aria-invalid]").forEach(function (e) { e.removeAttribute("aria-invalid"); });
    },
    submit: function (_a, el) {
      var form = el && el.closest ? el.closest("form.u4-form") : null;
      if (form) submitForm(form);
    },
    open: function (a) {
      if (typeof a.path === "string") write(a.path, true);
    },
    close: function (a) {
      if (typeof a.path === "string") write(a.path, false);
    },
    tab: function (a) {
      if (typeof a.path === "string" && typeof a.value === "string") write(a.path, a.value);
    }
  };

  function run(actions, el) {
    (Array.isArray(actions) ? actions : [actions]).slice(0, 3).forEach(function (action) {
      if (action && typeof action.do === "string" && has(ACTIONS, action.do)) {
        ACTIONS[action.do](action, el);
      } else {
        console.warn("ui4a: ignoring unknown action", action);
      }
    });
    apply();
    post({ type: "ui4a.state", state: snapshot() });
  }

  // ---- forms: per-field validation with messages, then a payload of the bound values.
  function problemOf(el) {
    var kind = el.type;
    var value = kind === "checkbox" ? el.checked : el.value;
    if (el.hasAttribute("data-req")) {
      if (kind === "checkbox" && !value) return "Please tick this box.";
      if (kind !== "checkbox" && !String(value).trim()) return "This field is required.";
    }
    if (kind === "checkbox" || value === "") return "";
    var min = el.getAttribute("data-min"), max = el.getAttribute("data-max");
    if (kind === "email" && !EMAIL.test(value)) return "Enter a valid email address.";
    if (kind === "number" || kind === "range") {
      var n = Number(value);
      if (!isFinite(n)) return "Enter a number.";
      if (min !== null && n < Number(min)) return "Must be at least " + min + ".";
      if (max !== null && n > Number(max)) return "Must be at most " + max + ".";
    } else if (kind !== "date" && kind !== "select-one") {
      if (min !== null && value.length < Number(min)) return "Use at least " + min + " characters.";
      if (max !== null && value.length > Number(max)) return "Use at most " + max + " characters.";
    }
    var pattern = el.getAttribute("data-pattern");
    if (pattern) {
      var re = null;
      try { re = new RegExp("^(?:" + pattern + ")$", "u"); } catch (err) { re = null; }
      if (re && value.length <= 500 && !re.test(value)) return "Use the expected format.";
    }
    return "";
  }

  function showProblem(el, message, errorEl) {
    var err = errorEl || document.getElementById(el.getAttribute("aria-describedby") || "");
    if (message) el.setAttribute("aria-invalid", "true");
    else el.removeAttribute("aria-invalid");
    if (err) {
      err.textContent = message;
      err.hidden = !message;
    }
  }

  function checkGroup(fieldset) {
    var picked = all("input[type=radio]", fieldset).some(function (r) { return r.checked; });
    var message = fieldset.hasAttribute("data-req") && !picked ? "Please choose one." : "";
    showProblem(fieldset, message, fieldset.querySelector(".u4-error"));
    return message;
  }

  function validateForm(form) {
    var bad = [];
    all("[data-bind]", form).forEach(function (el) {
      if (el.type === "radio" || el.closest("[hidden]")) return;
      var message = problemOf(el);
      showProblem(el, message);
      if (message) bad.push(el);
    });
    all("fieldset[data-group]", form).forEach(function (fs) {
      if (checkGroup(fs)) bad.push(fs.querySelector("input") || fs);
    });
    return bad;
  }

  function submitForm(form) {
    var bad = validateForm(form);
    if (bad.length) {
      bad[0].focus();
      return;
    }
    var values = {};
    all("[data-bind]", form).forEach(function (el) {
      var key = el.getAttribute("data-bind");
      if (key.charAt(0) !== ".") values[key] = state[key];
    });
    post({ type: "ui4a.submit", form: form.id, values: values });
    var on = form.getAttribute("data-on");
    if (on) {
      try { run(JSON.parse(on), form); } catch (err) { console.warn("ui4a: unreadable action", err); }
    }
  }

  // ---- events.
  function valueOf(el) {
    if (el.type === "checkbox") return el.checked;
    if ((el.type === "number" || el.type === "range") && el.value !== "" && isFinite(Number(el.value))) {
      return Number(el.value);
    }
    return el.value;
  }

  function onInput(event) {
    var el = event.target;
    if (!el || !el.hasAttribute) return;
    if (el.hasAttribute("data-table-search")) {
      var wrap = el.closest("[data-table]");
      var ui = tableUi[wrap.id] || (tableUi[wrap.id] = { sort: "", dir: 1, page: 0, q: "" });
      ui.q = el.value;
      ui.page = 0;
      renderTable(wrap);
      return;
    }
    if (!el.hasAttribute("data-bind")) return;
    // Checkboxes, radios and selects report through "change"; text through "input".
    var viaChange = el.type === "checkbox" || el.type === "radio" || el.tagName === "SELECT";
    if ((event.type === "change") !== viaChange) return;
    if (el.type === "radio" && !el.checked) return;
    change(el.getAttribute("data-bind"), valueOf(el), el);
    if (el.getAttribute("aria-invalid") === "true") showProblem(el, problemOf(el));
    var group = el.closest("fieldset[aria-invalid]");
    if (group) checkGroup(group);
  }

  function onClick(event) {
    var target = event.target;
    if (!target || !target.closest || !root.contains(target)) return;
    var link = target.closest("a[href]");
    if (link) {
      // The frame never navigates; the parent decides whether to open the link.
      event.preventDefault();
      post({ type: "ui4a.open", url: link.href });
      return;
    }
    var tab = target.closest("[role=tab][data-tab]");
    if (tab) {
      var tabs = tab.closest("[data-tabs]");
      change(tabs.getAttribute("data-tabs"), tab.getAttribute("data-tab"));
      return;
    }
    var sort = target.closest("[data-sort]");
    var pager = target.closest("[data-page]");
    if (sort || pager) {
      var wrap = target.closest("[data-table]");
      var ui = tableUi[wrap.id] || (tableUi[wrap.id] = { sort: "", dir: 1, page: 0, q: "" });
      if (sort) {
        var key = sort.getAttribute("data-sort");
        ui.dir = ui.sort === key ? -ui.dir : 1;
        ui.sort = key;
        ui.page = 0;
      } else {
        ui.page += Number(pager.getAttribute("data-page"));
      }
      renderTable(wrap);
      return;
    }
    var button = target.closest("[data-action]");
    if (!button) return;
    var action = null;
    try {
      action = JSON.parse(button.getAttribute("data-action"));
    } catch (err) {
      console.warn("ui4a: unreadable action", err);
      return;
    }
    run(action, button);
  }

  function onKeydown(event) {
    var tab = event.target && event.target.closest && event.target.closest("[role=tab]");
    if (!tab) return;
    var list = all("[role=tab]", tab.parentNode);
    var i = list.indexOf(tab);
    var moves = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: list.length - 1 };
    if (!has(moves, event.key)) return;
    event.preventDefault();
    var next = list[(moves[event.key] + list.length) % list.length];
    next.focus();
    next.click();
  }

  function onSubmit(event) {
    var form = event.target;
    if (!form || !form.classList || !form.classList.contains("u4-form")) return;
    event.preventDefault();
    submitForm(form);
  }

  function onDialogClosed(event) {
    var dialog = event.target;
    if (!dialog || dialog.tagName !== "DIALOG") return;
    var key = dialog.getAttribute("data-dialog");
    if (key && state[key]) change(key, false);
  }

  // Streamed patches must not undo what the runtime owns: open dialogs and sections, and
  // the canvases Chart.js draws into.
  var MORPH = {
    morphStyle: "innerHTML",
    ignoreActiveValue: true,
    restoreFocus: true,
    callbacks: {
      beforeAttributeUpdated: function (name, node) {
        return !(name === "open" && (node.tagName === "DIALOG" || node.tagName === "DETAILS"));
      },
      beforeNodeMorphed: function (oldNode, newNode) {
        if (oldNode.tagName !== "CANVAS") return true;
        // Keep the canvas (Chart.js draws into it) but take what the renderer says about it:
        // the config, and the label, which grows while the chart node streams in.
        ["data-chart", "aria-label"].forEach(function (name) {
          var value = newNode.getAttribute && newNode.getAttribute(name);
          if (value && value !== oldNode.getAttribute(name)) oldNode.setAttribute(name, value);
        });
        return false;
      }
    }
  };

  // Messages from the parent frame, by type.
  var MESSAGES = {
    "ui4a.render": function (msg) {
      merge(msg.state, true);
      var start = window.ui4aPatchTimes ? performance.now() : 0;
      if (typeof msg.html === "string") Idiomorph.morph(root, msg.html, MORPH);
      var morphed = start ? performance.now() : 0;
      readData();
      apply();
      if (start) recordPatch(start, morphed);
    }
  };

  // Benchmarks measure each streamed patch by setting `window.ui4aPatchTimes = []` in the
  // frame (Playwright can; a spec runs no code). Without that array no timings are kept.
  function recordPatch(start, morphed) {
    var times = window.ui4aPatchTimes;
    if (!Array.isArray(times)) return;
    times.push({ morph: morphed - start, update: performance.now() - start });
  }

  function onMessage(event) {
    if (window.parent === window || event.source !== window.parent) return;
    var msg = event.data;
    if (!msg || typeof msg !== "object" || typeof msg.type !== "string") return;
    if (has(MESSAGES, msg.type)) MESSAGES[msg.type](msg);
  }

  function readInitialState() {
    var el = document.getElementById("ui4a-state");
    try {
      return el ? JSON.parse(el.textContent || "{}") : {};
    } catch (err) {
      console.warn("ui4a: unreadable initial state", err);
      return {};
    }
  }

  merge(readInitialState(), true);
  readData();
  root.addEventListener("input", onInput);
  root.addEventListener("change", onInput);
  root.addEventListener("click", onClick);
  root.addEventListener("keydown", onKeydown);
  root.addEventListener("submit", onSubmit);
  root.addEventListener("close", onDialogClosed, true);
  window.addEventListener("message", onMessage);
  apply();
  post({ type: "ui4a.ready" });
})();
