// The bridge to the sandboxed preview frame: the only code that talks to it. Messages go out
// with postMessage to "*" (a sandboxed frame's origin is opaque and cannot be named) and come in
// only from this frame's own window; what comes in is validated before anyone sees it.

const POINTER = /^\/root(\/c\/[0-9]{1,3})*$/;

export function connectPreview(frame, { onSelect, onState }) {
  let ready = false;
  let lastRender = null;
  let design = { type: "ui4a.design", on: false };
  let outline = { type: "ui4a.outline", node: null };
  let highlight = { type: "ui4a.highlight", marks: [] };

  function post(message) {
    if (ready) frame.contentWindow.postMessage(message, "*");
  }

  window.addEventListener("message", (event) => {
    if (event.source !== frame.contentWindow) return; // only our own preview frame
    const data = event.data;
    if (!data || typeof data !== "object") return;
    if (data.type === "ui4a.ready") {
      ready = true;
      // The frame (re)loaded: it knows nothing yet.
      [lastRender, design, outline, highlight].forEach((m) => m && post(m));
    } else if (data.type === "ui4a.state" && data.state && typeof data.state === "object") {
      onState(data.state);
    } else if (data.type === "ui4a.select") {
      if (data.node === null) onSelect(null);
      else if (typeof data.node === "string" && POINTER.test(data.node)) {
        onSelect({
          node: data.node,
          kind: typeof data.kind === "string" ? data.kind.slice(0, 40) : "",
          label: typeof data.label === "string" ? data.label.slice(0, 80) : "",
        });
      }
    }
  });
  // Listening now: the frame may load its document.
  frame.srcdoc = frame.dataset.srcdoc || "";
  frame.removeAttribute("data-srcdoc");

  return {
    render(html, state) {
      lastRender = { type: "ui4a.render", html: html || "", state: state || {} };
      post(lastRender); // the frame keeps its outline and marks across renders
    },
    design(on) {
      design = { type: "ui4a.design", on: !!on };
      post(design);
    },
    outline(node) {
      outline = { type: "ui4a.outline", node: node || null };
      post(outline);
    },
    highlight(marks) {
      highlight = { type: "ui4a.highlight", marks: marks || [] };
      post(highlight);
    },
  };
}
