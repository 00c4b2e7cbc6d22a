  /* The tabs' part of the runtime: the open tab follows its state key; arrow keys, Home and
   * End move between tabs. */
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

  part({
    apply: function () { all("[data-tabs]").forEach(applyTabs); },
    click: function (target) {
      var tab = target.closest("[role=tab][data-tab]");
      if (!tab) return false;
      var tabs = tab.closest("[data-tabs]");
      change(tabs.getAttribute("data-tabs"), tab.getAttribute("data-tab"));
      return true;
    },
    keydown: function (event) {
      var tab = event.target && event.target.closest && event.target.closest("[role=tab]");
      if (!tab) return false;
      var list = all("[role=tab]", tab.parentNode);
      var i = list.indexOf(tab);
      var moves = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: list.length - 1 };
      if (!has(moves, event.key)) return false;
      event.preventDefault();
      var next = list[(moves[event.key] + list.length) % list.length];
      next.focus();
      next.click();
      return true;
    }
  });
