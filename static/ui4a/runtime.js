/* ui4a runtime: gives a rendered UI4A view life inside its sandboxed frame.
 * It owns the view's state, two-way bindings, the fixed action vocabulary and live patches
 * from the parent studio. Model output is data: nothing here evaluates it or injects it as
 * HTML; the only HTML it morphs in is the ui4a renderer's, sent by the parent frame. */
(function () {
  "use strict";

  var root = document.getElementById("ui4a-root");
  var PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]{0,39})\}/g;
  var has = function (obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); };
  // Null-prototype objects, so keys such as "__proto__" are just keys.
  var state = Object.create(null);
  // Keys the user has changed (typing, clicking): streamed state never overwrites them.
  var touched = Object.create(null);

  function isScalar(v) {
    return v === null || typeof v === "string" || typeof v === "boolean" ||
      (typeof v === "number" && isFinite(v));
  }

  function merge(incoming, overwriteUntouched) {
    if (!incoming || typeof incoming !== "object" || Array.isArray(incoming)) return;
    Object.keys(incoming).forEach(function (key) {
      if (!isScalar(incoming[key]) || touched[key]) return;
      if (overwriteUntouched || !has(state, key)) state[key] = incoming[key];
    });
  }

  function format(v) {
    return v === null || v === undefined ? "" : String(v);
  }

  function holds(cond) {
    var negate = cond.charAt(0) === "!";
    var shown = !!state[negate ? cond.slice(1) : cond];
    return negate ? !shown : shown;
  }

  function interpolate(tpl) {
    return tpl.replace(PLACEHOLDER, function (_m, key) { return format(state[key]); });
  }

  function apply() {
    root.querySelectorAll("[data-bind]").forEach(function (el) {
      var key = el.getAttribute("data-bind");
      if (el.type === "checkbox") {
        el.checked = !!state[key];
      } else if (el.value !== format(state[key])) {
        el.value = format(state[key]); // only when different, so the caret stays put
      }
    });
    root.querySelectorAll("[data-tpl]").forEach(function (el) {
      var text = interpolate(el.getAttribute("data-tpl"));
      if (el.textContent !== text) el.textContent = text;
    });
    root.querySelectorAll("[data-if]").forEach(function (el) {
      el.hidden = !holds(el.getAttribute("data-if"));
    });
  }

  function post(message) {
    // A sandboxed frame has an opaque origin, so the parent cannot be named; state is not secret.
    if (window.parent !== window) window.parent.postMessage(message, "*");
  }

  function change(key, value) {
    state[key] = value;
    touched[key] = true;
    apply();
    post({ type: "ui4a.state", state: Object.assign({}, state) });
  }

  // The action vocabulary; ui4a/actions.py is its Python side.
  var ACTIONS = {
    set: function (action) {
      if (typeof action.path === "string" && isScalar(action.value)) {
        change(action.path, action.value);
      }
    },
    toggle: function (action) {
      if (typeof action.path === "string") change(action.path, !state[action.path]);
    }
  };

  function run(action) {
    if (action && typeof action.do === "string" && has(ACTIONS, action.do)) {
      ACTIONS[action.do](action);
    } else {
      console.warn("ui4a: ignoring unknown action", action);
    }
  }

  function onInput(event) {
    var el = event.target;
    if (!el || !el.hasAttribute || !el.hasAttribute("data-bind")) return;
    // A checkbox fires both events; count each change once.
    if ((event.type === "change") !== (el.type === "checkbox")) return;
    change(el.getAttribute("data-bind"), el.type === "checkbox" ? el.checked : el.value);
  }

  function onClick(event) {
    var button = event.target && event.target.closest && event.target.closest("[data-action]");
    if (!button || !root.contains(button)) return;
    var action = null;
    try {
      action = JSON.parse(button.getAttribute("data-action"));
    } catch (err) {
      console.warn("ui4a: unreadable action", err);
      return;
    }
    run(action);
  }

  // Messages from the parent frame, by type.
  var MESSAGES = {
    "ui4a.render": function (data) {
      merge(data.state, true);
      if (typeof data.html === "string") {
        Idiomorph.morph(root, data.html, {
          morphStyle: "innerHTML",
          ignoreActiveValue: true,
          restoreFocus: true
        });
      }
      apply();
    }
  };

  function onMessage(event) {
    if (window.parent === window || event.source !== window.parent) return;
    var data = event.data;
    if (!data || typeof data !== "object" || typeof data.type !== "string") return;
    if (has(MESSAGES, data.type)) MESSAGES[data.type](data);
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
  root.addEventListener("input", onInput);
  root.addEventListener("change", onInput);
  root.addEventListener("click", onClick);
  window.addEventListener("message", onMessage);
  apply();
  post({ type: "ui4a.ready" });
})();
