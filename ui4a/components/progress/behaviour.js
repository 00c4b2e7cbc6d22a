  /* The progress bar's part of the runtime: its percentage follows its state key. */
  part({
    apply: function () {
      all("[data-percent]").forEach(function (el) {
        var value = asNumber(read(el.getAttribute("data-percent"), el)) || 0;
        var top = Number(el.getAttribute("data-max")) || 100;
        var text = Math.max(0, Math.min(100, Math.round(value / top * 100))) + "%";
        if (el.textContent !== text) el.textContent = text;
      });
    }
  });
