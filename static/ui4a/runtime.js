/* ui4a runtime core: gives a rendered UI4A view life inside its sandboxed frame.
 * It owns the view's state and datasets, two-way bindings, the fixed action vocabulary, form
 * validation and live patches from the parent studio. What one component does (tables, lists,
 * charts, tabs, dialogs...) is that component's behaviour.js, which ui4a/assets.py joins in at
 * the "ui4a:parts" mark below, inside this function, so parts share its helpers. Model output
 * is data: nothing here evaluates it or injects it as HTML. The only HTML it morphs in is the
 * ui4a renderer's, sent by the parent frame; everything it builds itself is set as text.
 * ui4a/state.py and ui4a/expr.py hold the Python side of the rules mirrored here.
 * In a published widget (a "ui4a-host" element) the parent is someone else's page: see HOST. */
(function () {
  "use strict";

  var root = document.getElementById("ui4a-root");
  var NAME = "[A-Za-z_][A-Za-z0-9_]{0,39}";
  var PLACEHOLDER = new RegExp("\\{(\\.?)(" + NAME + ")\\}", "g");
  var COND = new RegExp("^(!)?(" + NAME + ")(?:(!=|<=|>=|=|<|>)([^\\x00-\\x1f]{0,40}))?$");
  var CLAUSE = new RegExp("^(\\*|" + NAME + ")(!=|<=|>=|=|<|>|~)(?:(" + NAME + ")|'([^'\\x00-\\x1f]{0,40})')$");
  var NUMBER = /^-?[0-9]+(?:\.[0-9]+)?$/;
  var EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
  // As many rows as a resolved query may inline (ui4a/queries.py MAX_QUERY_ROWS).
  var MAX_ROWS = 1000;
  var PATTERN_VALUE_MAX = 256; // ui4a/patterns.py VALUE_MAX
  var has = function (obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); };
  // Null-prototype objects, so keys such as "__proto__" are just keys.
  var state = Object.create(null);
  var initial = Object.create(null);
  var data = Object.create(null);
  var initialData = Object.create(null);
  // Keys and datasets the user has changed: streamed values never overwrite them.
  var touched = Object.create(null);
  var touchedData = Object.create(null);
  // A published widget's document names its widget and the one allowed origin that framed it
  // ({"widget", "origin"} in #ui4a-host, data rather than script, so the CSP hashes hold). Its
  // parent is a third-party host page: ui4a.* messages (state, passwords included) never go
  // there and its messages are not read; only host events leave, addressed to that origin,
  // never "*". An unreadable config still means widget mode, with no events at all.
  var HOST = readHost();

  function readHost() {
    var el = document.querySelector("body > script#ui4a-host[type=\"application/json\"]");
    if (!el) return null;
    var config = null;
    try { config = JSON.parse(el.textContent || "null"); } catch (err) { config = null; }
    if (!config || typeof config !== "object") return { widget: "", origin: null, buttons: [] };
    var origin = typeof config.origin === "string" &&
      /^https?:\/\/[A-Za-z0-9.\-\[\]:]{1,200}$/.test(config.origin) ? config.origin : null;
    var buttons = Array.isArray(config.buttons) ? config.buttons.filter(function (b) {
      return typeof b === "string";
    }) : [];
    return {
      widget: typeof config.widget === "string" ? config.widget : "", origin: origin, buttons: buttons
    };
  }

  // A click on a button the widget's owner chose is a host event: its label, nothing else.
  function hostClick(target) {
    var button = HOST && target.closest("button");
    if (!button || !root.contains(button)) return;
    var label = (button.textContent || "").replace(/\s+/g, " ").trim();
    if (HOST.buttons.indexOf(label) < 0) return;
    toHost({ type: "macaron.event", widget: "", event: "click", button: label });
  }

  function toHost(message) {
    if (!HOST || !HOST.origin || window.parent === window) return;
    message.widget = HOST.widget;
    window.parent.postMessage(message, HOST.origin);
  }

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
    PARTS.prepare.forEach(function (hook) { hook(); });
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
    all("[data-tpl]").forEach(function (el) {
      var text = interpolate(el.getAttribute("data-tpl"), el);
      if (el.textContent !== text) el.textContent = text;
    });
    all("[data-if]").forEach(function (el) {
      el.hidden = !holds(el.getAttribute("data-if"), el);
    });
    PARTS.apply.forEach(function (hook) { hook(); });
  }

  function post(message) {
    // A sandboxed frame has an opaque origin, so the parent cannot be named; state is not secret
    // to the studio that framed it. A widget's host is not the studio (see HOST).
    if (window.parent !== window && !HOST) window.parent.postMessage(message, "*");
  }

  // State keys a password field binds: their values stay in the view. The studio's view-state
  // panel and any other parent see everything else, never these.
  function secretKeys() {
    var keys = Object.create(null);
    all("input[type=password][data-bind]").forEach(function (el) {
      keys[el.getAttribute("data-bind")] = true;
    });
    return keys;
  }

  function snapshot() {
    var out = {};
    var secret = secretKeys();
    Object.keys(state).forEach(function (k) { if (!secret[k]) out[k] = state[k]; });
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
      // The renderer only emits patterns ui4a/patterns.py found safe; capping the value too
      // bounds what any polynomial backtracking left can cost. A longer value fails the
      // format rather than skipping it.
      if (re && (value.length > PATTERN_VALUE_MAX || !re.test(value))) return "Use the expected format.";
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
    // A password never leaves the view: not to the studio, not to a published widget's host.
    var secret = secretKeys();
    var values = {};
    all("[data-bind]", form).forEach(function (el) {
      var key = el.getAttribute("data-bind");
      if (key.charAt(0) === "." || secret[key]) return;
      values[key] = state[key];
    });
    post({ type: "ui4a.submit", form: form.id, values: values });
    toHost({ type: "macaron.event", widget: "", event: "submit", form: form.id, values: values });
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
    if (PARTS.input.some(function (hook) { return hook(el); })) return;
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
    hostClick(target);
    if (PARTS.click.some(function (hook) { return hook(target); })) return;
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

  function onSubmit(event) {
    var form = event.target;
    if (!form || !form.classList || !form.classList.contains("u4-form")) return;
    event.preventDefault();
    submitForm(form);
  }

  // Streamed patches must not undo what the runtime owns; component parts say what that is
  // (open dialogs and sections, the canvases Chart.js draws into).
  var MORPH = {
    morphStyle: "innerHTML",
    ignoreActiveValue: true,
    restoreFocus: true,
    callbacks: {
      beforeAttributeUpdated: function (name, node) {
        return !PARTS.keepAttribute.some(function (hook) { return hook(name, node); });
      },
      beforeNodeMorphed: function (oldNode, newNode) {
        return !PARTS.keepNode.some(function (hook) { return hook(oldNode, newNode); });
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

  // A widget tells its host how tall it is, so the host's loader can size the frame to fit.
  function reportHeight() {
    var last = -1;
    function send() {
      var height = Math.ceil(document.body.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      toHost({ type: "macaron.resize", widget: "", height: height });
    }
    if (typeof ResizeObserver === "function") new ResizeObserver(send).observe(document.body);
    send();
  }

  // Benchmarks measure each streamed patch by setting `window.ui4aPatchTimes = []` in the
  // frame (Playwright can; a spec runs no code). Without that array no timings are kept.
  function recordPatch(start, morphed) {
    var times = window.ui4aPatchTimes;
    if (!Array.isArray(times)) return;
    times.push({ morph: morphed - start, update: performance.now() - start });
  }

  function onMessage(event) {
    if (HOST || window.parent === window || event.source !== window.parent) return;
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

  // ---- component parts: each component's behaviour.js, joined in below by ui4a/assets.py,
  // adds its hooks with part({...}). prepare runs before bindings are applied (lists make the
  // elements bindings fill), apply after; click, input and keydown return true when they
  // handled the event; keepAttribute and keepNode return true to keep what a patch would change.
  var PARTS = { prepare: [], apply: [], click: [], input: [], keydown: [], keepAttribute: [], keepNode: [] };

  function part(hooks) {
    Object.keys(hooks).forEach(function (name) {
      if (!has(PARTS, name)) throw new Error("ui4a: no hook " + name);
      PARTS[name].push(hooks[name]);
    });
  }

  /* ui4a:parts */

  merge(readInitialState(), true);
  readData();
  root.addEventListener("input", onInput);
  root.addEventListener("change", onInput);
  root.addEventListener("click", onClick);
  root.addEventListener("keydown", function (event) {
    PARTS.keydown.some(function (hook) { return hook(event); });
  });
  root.addEventListener("submit", onSubmit);
  window.addEventListener("message", onMessage);
  apply();
  post({ type: "ui4a.ready" });
  if (HOST) reportHeight();
})();
