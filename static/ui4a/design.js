/* ui4a design mode: lets the studio around this sandboxed frame select and mark nodes.
 * Inert unless the parent frame sends {type: "ui4a.design", on: true}; then a click selects the
 * nearest [data-ui4a-node] instead of acting and posts {type: "ui4a.select", node, kind, label}.
 * The parent may also outline a node ("ui4a.outline") or draw diff marks ("ui4a.highlight").
 * Outlines and marks are boxes in a layer of their own outside #ui4a-root, so morphing a new
 * render never removes them and the view's own DOM is never changed. Only messages from
 * window.parent are read, and what they carry is only ever used as text or a selector value. */
(function () {
  "use strict";

  var root = document.getElementById("ui4a-root");
  // A published widget's parent is a host page, never the studio (see HOST in runtime.js).
  if (!root || window.parent === window || document.querySelector("body > script#ui4a-host")) return;

  var MAX_MARKS = 200;
  var CHANGES = { added: "added", changed: "changed", removed: "removed" };
  var designOn = false;
  var selected = null; // the pointer the parent wants outlined
  var hovered = null; // the element under the pointer, in design mode
  var marks = []; // [{node, change}]
  var layer = document.createElement("div");
  layer.className = "u4-design-layer";
  layer.setAttribute("aria-hidden", "true");
  document.body.appendChild(layer);

  function post(message) {
    window.parent.postMessage(message, "*"); // the parent's origin cannot be named from here
  }

  function isPointer(value) {
    return typeof value === "string" && value.length <= 200 && /^\/root(\/c\/[0-9]{1,3})*$/.test(value);
  }

  function nodesAt(pointer) {
    if (!isPointer(pointer)) return [];
    return Array.prototype.slice.call(
      root.querySelectorAll('[data-ui4a-node="' + pointer + '"]')
    ).filter(function (el) { return !el.closest("template"); });
  }

  // The nearest node that is on screen: a removed node's place is shown on its container.
  function shownAt(pointer) {
    var at = pointer;
    for (;;) {
      var found = nodesAt(at).filter(function (el) { return el.getClientRects().length; });
      if (found.length) return { els: found, exact: at === pointer };
      var up = at.replace(/\/c\/[0-9]+$/, "");
      if (up === at) return { els: [], exact: false };
      at = up;
    }
  }

  function kindOf(el) {
    var classes = (el.getAttribute("class") || "").split(/\s+/);
    for (var i = 0; i < classes.length; i++) {
      var m = /^u4-([a-z]+)$/.exec(classes[i]);
      if (m) return m[1];
    }
    return "";
  }

  function labelOf(el) {
    var text = el.getAttribute("aria-label") || el.textContent || "";
    text = text.replace(/\s+/g, " ").trim();
    return text.length > 60 ? text.slice(0, 59) + "…" : text;
  }

  function box(el, className, tag) {
    var rect = el.getBoundingClientRect();
    var div = document.createElement("div");
    div.className = "u4-design-box " + className;
    // CSSOM writes, which the view's policy allows (it forbids style attributes in markup).
    div.style.left = rect.left + window.scrollX - 3 + "px";
    div.style.top = rect.top + window.scrollY - 3 + "px";
    div.style.width = rect.width + 6 + "px";
    div.style.height = rect.height + 6 + "px";
    if (tag) {
      var span = document.createElement("span");
      span.className = "u4-design-tag";
      span.textContent = tag;
      div.appendChild(span);
    }
    layer.appendChild(div);
  }

  function draw() {
    layer.replaceChildren();
    marks.forEach(function (mark) {
      var shown = shownAt(mark.node);
      var tag = shown.exact ? mark.change : mark.change + " inside";
      shown.els.forEach(function (el, i) { box(el, "u4-design-" + mark.change, i ? "" : tag); });
    });
    if (designOn && hovered && hovered.isConnected) {
      box(hovered, "u4-design-hover", kindOf(hovered));
    }
    nodesAt(selected).forEach(function (el) { box(el, "u4-design-selected", ""); });
  }

  var pending = false;
  function redraw() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () {
      pending = false;
      draw();
    });
  }

  function target(event) {
    var el = event.target;
    if (!el || !el.closest || !root.contains(el)) return null;
    return el.closest("[data-ui4a-node]");
  }

  // Capture phase, on the window: runs before the runtime's own listeners on #ui4a-root.
  function swallow(event) {
    if (!designOn || !target(event)) return;
    event.preventDefault();
    event.stopPropagation();
  }

  function onClick(event) {
    if (!designOn) return;
    var el = target(event);
    if (!el) return;
    event.preventDefault();
    event.stopPropagation();
    selected = el.getAttribute("data-ui4a-node");
    post({ type: "ui4a.select", node: selected, kind: kindOf(el), label: labelOf(el) });
    redraw();
  }

  function onHover(event) {
    if (!designOn) return;
    var el = target(event);
    if (el !== hovered) {
      hovered = el;
      redraw();
    }
  }

  function onKey(event) {
    if (designOn && event.key === "Escape") {
      selected = null;
      post({ type: "ui4a.select", node: null });
      redraw();
    }
  }

  var MESSAGES = {
    "ui4a.design": function (msg) {
      designOn = msg.on === true;
      if (designOn) document.documentElement.setAttribute("data-ui4a-design", "on");
      else document.documentElement.removeAttribute("data-ui4a-design");
      hovered = null;
      redraw();
    },
    "ui4a.outline": function (msg) {
      selected = isPointer(msg.node) ? msg.node : null;
      var first = nodesAt(selected)[0];
      if (first && first.scrollIntoView) first.scrollIntoView({ block: "nearest" });
      redraw();
    },
    "ui4a.highlight": function (msg) {
      marks = (Array.isArray(msg.marks) ? msg.marks : []).slice(0, MAX_MARKS).filter(function (m) {
        return m && isPointer(m.node) && Object.prototype.hasOwnProperty.call(CHANGES, m.change);
      }).map(function (m) { return { node: m.node, change: CHANGES[m.change] }; });
      redraw();
    },
    // The runtime morphs first (its listener was added before this one); boxes follow.
    "ui4a.render": redraw
  };

  window.addEventListener("message", function (event) {
    if (event.source !== window.parent) return;
    var msg = event.data;
    if (!msg || typeof msg !== "object" || typeof msg.type !== "string") return;
    if (Object.prototype.hasOwnProperty.call(MESSAGES, msg.type)) MESSAGES[msg.type](msg);
  });
  window.addEventListener("click", onClick, true);
  ["mousedown", "pointerdown", "submit", "dblclick"].forEach(function (type) {
    window.addEventListener(type, swallow, true);
  });
  window.addEventListener("pointermove", onHover, true);
  window.addEventListener("keydown", onKey, true);
  window.addEventListener("resize", redraw);
  if (window.ResizeObserver) new ResizeObserver(redraw).observe(root);
})();
