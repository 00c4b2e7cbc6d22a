  /* The list's part of the runtime: one item per record, cloned from the renderer's
   * <template>, before bindings fill them. */
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

  part({
    prepare: function () { all("[data-list]").forEach(renderList); }
  });
