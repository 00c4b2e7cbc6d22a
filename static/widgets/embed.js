/* Macaron's widget loader, for host pages: turns each <div data-macaron-widget="ID"> into the
 * widget's sandboxed frame and keeps every Macaron widget frame as tall as its content.
 *
 * The frame's page is served with a CSP sandbox, so its messages arrive with origin "null": a
 * message is trusted only when its source is one of the frames this loader knows (which it
 * pointed at Macaron itself), and only its shape is read. The loader adds ?host=<this page's
 * origin>, which the server checks against the widget's allowed origins, so the widget
 * addresses its events to this page and no other. Host events are also re-dispatched on the
 * frame as a bubbling "macaron-event" DOM event, for pages that prefer listeners to messages.
 */
(function () {
  "use strict";

  var script = document.currentScript;
  if (!script || !script.src) return;
  var base = new URL(script.src).origin;
  var ID = /^[A-Za-z0-9_-]{1,64}$/;
  var MAX_HEIGHT = 20000;
  var frames = [];

  function widgetId(src) {
    try {
      var url = new URL(src, document.baseURI);
      var match = /^\/w\/([A-Za-z0-9_-]{1,64})$/.exec(url.pathname);
      return url.origin === base && match ? match[1] : null;
    } catch (err) {
      return null;
    }
  }

  function track(frame, id) {
    if (frames.some(function (f) { return f.frame === frame; })) return;
    frames.push({ frame: frame, id: id });
  }

  function mount(holder) {
    var id = holder.getAttribute("data-macaron-widget");
    if (!ID.test(id || "") || holder.querySelector("iframe")) return;
    var frame = document.createElement("iframe");
    frame.src = base + "/w/" + id + "?host=" + encodeURIComponent(window.location.origin);
    frame.setAttribute("sandbox", "allow-scripts allow-forms");
    frame.title = holder.getAttribute("data-title") || "Macaron widget";
    frame.loading = "lazy";
    var height = parseInt(holder.getAttribute("data-height") || "", 10);
    if (!(height > 0 && height <= MAX_HEIGHT)) height = 320;
    frame.style.cssText = "display:block;width:100%;border:0;height:" + height + "px";
    holder.appendChild(frame);
    track(frame, id);
  }

  function scan() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-macaron-widget]"), mount);
    Array.prototype.forEach.call(document.querySelectorAll("iframe[src]"), function (frame) {
      var id = widgetId(frame.getAttribute("src"));
      if (id) track(frame, id);
    });
  }

  window.addEventListener("message", function (event) {
    var known = null;
    frames.forEach(function (f) {
      if (f.frame.contentWindow === event.source) known = f;
    });
    var msg = event.data;
    if (!known || event.origin !== "null" || !msg || typeof msg !== "object") return;
    if (msg.widget !== known.id) return;
    if (msg.type === "macaron.resize") {
      var height = Number(msg.height);
      if (isFinite(height) && height >= 0) {
        known.frame.style.height = Math.min(Math.ceil(height), MAX_HEIGHT) + "px";
      }
    } else if (msg.type === "macaron.event" && typeof CustomEvent === "function") {
      known.frame.dispatchEvent(new CustomEvent("macaron-event", { detail: msg, bubbles: true }));
    }
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan);
  else scan();
})();
