// Comparing two versions: pick them, list what was added, removed and changed, and show the
// newer one in the preview with each change marked; a click on a change outlines it there.
import { html, useEffect, useState } from "./lib.js";
import { useStore } from "./store.js";

const CHANGE_NAMES = { added: "Added", removed: "Removed", changed: "Changed" };

export function Compare({ store, actions }) {
  const [versions, compare] = useStore(store, (s) => [s.versions, s.compare]);
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  useEffect(() => {
    // Sensible defaults: the previous version against the newest.
    const n = versions.length;
    if (n >= 2 && (!from || !versions.some((v) => v.id === from))) setFrom(versions[n - 2].id);
    if (n >= 1 && (!to || !versions.some((v) => v.id === to))) setTo(versions[n - 1].id);
  }, [versions]);
  useEffect(() => { if (compare) setOpen(true); }, [compare]);
  if (versions.length < 2) return null;

  const option = (v) => html`<option value=${v.id}>v${v.number} · ${v.label.slice(0, 40)}</option>`;
  return html`<section class="compare" aria-label="Compare versions">
    ${!open && html`<button type="button" class="quiet small" onClick=${() => setOpen(true)}>
      Compare two versions…</button>`}
    ${open && html`<form class="compare-form" onSubmit=${(e) => { e.preventDefault(); actions.compare(from, to); }}>
      <label>From <select value=${from} onChange=${(e) => setFrom(e.currentTarget.value)}>
        ${versions.map(option)}</select></label>
      <label>To <select value=${to} onChange=${(e) => setTo(e.currentTarget.value)}>
        ${versions.map(option)}</select></label>
      <div class="compare-buttons">
        <button type="submit" class="small" disabled=${from === to}>Show changes</button>
        <button type="button" class="quiet small"
          onClick=${() => { setOpen(false); if (compare) actions.closeCompare(); }}>Close</button>
      </div>
    </form>`}
    ${compare && html`<${Changes} compare=${compare} actions=${actions} />`}
  </section>`;
}

const fieldName = (f) => (typeof f === "string" ? f : (f && (f.field || f.name)) || "");

function Changes({ compare, actions }) {
  if (compare.loading) return html`<p class="empty-note" role="status">Comparing…</p>`;
  if (compare.error) return html`<p class="inline-error" role="alert">${compare.error}</p>`;
  return html`<div class="changes">
    <p class="changes-summary" role="status">${compare.summary ||
      (compare.changes.length ? compare.changes.length + " changes" : "No changes: the two versions are equal.")}</p>
    <ul class="change-list" aria-label="Changes">
      ${compare.changes.map((c, i) => html`<li key=${c.change + c.path}>
        <button type="button" class="change" data-change=${c.change}
          aria-pressed=${compare.active === i ? "true" : "false"}
          onClick=${() => actions.focusChange(i)}>
          <span class="change-kind">${CHANGE_NAMES[c.change] || c.change}</span>
          <span class="change-node">${c.node || c.path}</span>
          ${Array.isArray(c.fields) && c.fields.length > 0 &&
            html`<span class="change-fields">${c.fields.map(fieldName).join(", ")}</span>`}
        </button></li>`)}
    </ul>
  </div>`;
}
