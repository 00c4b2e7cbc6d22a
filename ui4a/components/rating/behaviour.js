  /* The rating's part of the runtime: a radiogroup of stars. A click (or Space or Enter on the
   * focused star) picks it; arrow keys, Home and End move the pick; the picked star is the one
   * Tab reaches, as view.py renders it. */
  function applyRating(group) {
    var stars = all("[data-star]", group);
    var value = asNumber(read(group.getAttribute("data-rating"), group));
    var picked = value === null ? 0 : Math.round(value);
    var focus = picked >= 1 && picked <= stars.length ? picked : 1;
    stars.forEach(function (star) {
      var n = Number(star.getAttribute("data-star"));
      star.setAttribute("aria-checked", n === picked ? "true" : "false");
      star.classList.toggle("u4-star-lit", n <= picked);
      star.tabIndex = n === focus ? 0 : -1;
    });
  }

  part({
    apply: function () { all("[data-rating]").forEach(applyRating); },
    click: function (target) {
      var star = target.closest("[data-star]");
      var group = star && star.closest("[data-rating]");
      if (!group) return false;
      change(group.getAttribute("data-rating"), Number(star.getAttribute("data-star")), star);
      return true;
    },
    keydown: function (event) {
      var star = event.target && event.target.closest && event.target.closest("[data-star]");
      var group = star && star.closest("[data-rating]");
      if (!group) return false;
      var stars = all("[data-star]", group);
      var i = stars.indexOf(star);
      var moves = {
        ArrowRight: i + 1, ArrowUp: i + 1, ArrowLeft: i - 1, ArrowDown: i - 1,
        Home: 0, End: stars.length - 1
      };
      if (!has(moves, event.key)) return false;
      event.preventDefault();
      var next = stars[Math.max(0, Math.min(stars.length - 1, moves[event.key]))];
      next.focus();
      next.click();
      return true;
    }
  });
