  /* The table's part of the runtime: filter, search, sort and page the dataset; cells are
   * text. */
  var tableUi = Object.create(null);

  function tableUiOf(wrap) {
    return tableUi[wrap.id] || (tableUi[wrap.id] = { sort: "", dir: 1, page: 0, q: "" });
  }

  function renderTable(wrap) {
    var cfg = config(wrap, "data-table");
    if (!data[cfg.data]) return;
    var ui = tableUiOf(wrap);
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

  part({
    apply: function () { all("[data-table]").forEach(renderTable); },
    input: function (el) {
      if (!el.hasAttribute("data-table-search")) return false;
      var wrap = el.closest("[data-table]");
      var ui = tableUiOf(wrap);
      ui.q = el.value;
      ui.page = 0;
      renderTable(wrap);
      return true;
    },
    click: function (target) {
      var sort = target.closest("[data-sort]");
      var pager = target.closest("[data-page]");
      if (!sort && !pager) return false;
      var wrap = target.closest("[data-table]");
      var ui = tableUiOf(wrap);
      if (sort) {
        var key = sort.getAttribute("data-sort");
        ui.dir = ui.sort === key ? -ui.dir : 1;
        ui.sort = key;
        ui.page = 0;
      } else {
        ui.page += Number(pager.getAttribute("data-page"));
      }
      renderTable(wrap);
      return true;
    }
  });
