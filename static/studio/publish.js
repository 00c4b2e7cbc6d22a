// The Publish dialog: publishes the project as a widget (a chosen version, or the latest), lists
// its widgets with their address, views and embed snippets, edits each one's allowed origins
// and unpublishes it. Every call goes through api.js; a refusal shows in place and keeps what
// the designer typed.
import { html, useRef, useState } from "./lib.js";
import { useStore } from "./store.js";
import { api } from "./api.js";

const originsOf = (text) => text.split(/[\s,]+/).filter(Boolean);
const viewsText = (n) => (n === 1 ? "1 view" : n + " views");

export function Publish({ store }) {
  const [project, versions, current] = useStore(store, (s) => [s.project, s.versions, s.current]);
  const dialog = useRef(null);
  const [widgets, setWidgets] = useState(null); // null until loaded
  const [loadError, setLoadError] = useState("");
  const [choice, setChoice] = useState("latest");
  const [origins, setOrigins] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [fresh, setFresh] = useState(null); // the widget just published
  if (!project) return null;

  async function load() {
    const result = await api.widgets(project.id);
    if (result.ok) {
      setWidgets(result.data.widgets);
      setLoadError("");
    } else {
      setLoadError("Could not load this project's widgets: " + result.error.message);
    }
  }
  function open() {
    dialog.current.showModal();
    load();
  }
  async function publish(event) {
    event.preventDefault();
    setBusy(true);
    setError("");
    const result = await api.publish(project.id, choice, originsOf(origins));
    setBusy(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    setWidgets(result.data.widgets);
    setFresh(result.data.widget.id);
    setOrigins("");
  }
  const replace = (widget) => setWidgets((all) => all.map((w) => (w.id === widget.id ? widget : w)));
  const live = (widgets || []).filter((w) => w.live);
  const gone = (widgets || []).filter((w) => !w.live);

  return html`
    <button type="button" class="quiet" onClick=${open} disabled=${!current}
      title=${current ? "Publish this project as a widget other sites can embed" : "Make a version first"}>
      Publish…</button>
    <dialog ref=${dialog} class="publish-dialog" aria-labelledby="publish-title">
      <div class="publish-head">
        <h2 id="publish-title">Publish as a widget</h2>
        <button type="button" class="quiet small" onClick=${() => dialog.current.close()}>Close</button>
      </div>
      <form class="publish-form" onSubmit=${publish}>
        <label class="field">Version
          <select value=${choice} onChange=${(e) => setChoice(e.currentTarget.value)}>
            <option value="latest">Latest: follows the project's current version</option>
            ${[...versions].reverse().map((v) => html`<option value=${v.id}>
              Pinned to v${v.number} · ${v.label.slice(0, 50)}</option>`)}
          </select></label>
        <label class="field">Sites allowed to embed it
          <textarea rows="2" value=${origins} placeholder="https://shop.example"
            aria-describedby="publish-origins-hint" aria-invalid=${error ? "true" : undefined}
            onInput=${(e) => setOrigins(e.currentTarget.value)}></textarea></label>
        <p id="publish-origins-hint" class="empty-note">One origin per line, like
          https://shop.example or http://localhost:3000. None: a link only, no site can frame it.</p>
        ${error && html`<p class="inline-error" role="alert">${error}</p>`}
        <div><button type="submit" disabled=${busy}>${busy ? "Publishing…" : "Publish"}</button></div>
      </form>
      <section aria-labelledby="published-title">
        <h3 id="published-title">Published widgets</h3>
        ${loadError && html`<p class="inline-error" role="alert">${loadError}</p>`}
        ${widgets === null && !loadError && html`<p class="empty-note" role="status">Loading…</p>`}
        ${widgets !== null && live.length === 0 &&
          html`<p class="empty-note">Nothing published yet.</p>`}
        ${live.map((w) => html`<${WidgetCard} key=${w.id} project=${project} widget=${w}
          fresh=${w.id === fresh} onChange=${replace} />`)}
        ${gone.length > 0 && html`<details class="unpublished">
          <summary>Unpublished (${gone.length})</summary>
          <ul>${gone.map((w) => html`<li key=${w.id}><code>${w.id}</code> · ${viewsText(w.views)}
            · unpublished ${new Date(w.unpublished_at).toLocaleString()}</li>`)}</ul>
        </details>`}
      </section>
    </dialog>`;
}

function WidgetCard({ project, widget, fresh, onChange }) {
  const [origins, setOrigins] = useState(widget.origins.join("\n"));
  const [error, setError] = useState("");
  const [status, setStatus] = useState(fresh ? "Published." : "");
  const [confirming, setConfirming] = useState(false);
  const [chosen, setChosen] = useState(widget.event_buttons); // ticked at once, saved after
  const idPrefix = "widget-" + widget.id;

  async function update(changes, done) {
    setError("");
    setStatus("");
    const result = await api.updateWidget(project.id, widget.id, changes);
    if (!result.ok) {
      setError(result.error.message);
      setChosen(widget.event_buttons);
      return;
    }
    onChange(result.data.widget);
    setOrigins(result.data.widget.origins.join("\n"));
    setChosen(result.data.widget.event_buttons);
    setStatus(done);
  }
  const save = () => update({ origins: originsOf(origins) }, "Allowed origins saved.");
  function toggleButton(label, on) {
    const next = chosen.filter((b) => b !== label);
    if (on) next.push(label);
    setChosen(next);
    update({ buttons: next }, on ? "“" + label + "” clicks now reach the host." : "Saved.");
  }
  async function unpublish() {
    const result = await api.unpublish(project.id, widget.id);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    onChange(result.data.widget);
  }
  const version = widget.follows_latest ? "Latest" : "Pinned to v" + widget.version.number;
  return html`<article class="widget-card" aria-labelledby=${idPrefix + "-title"}>
    <div class="widget-meta">
      <a id=${idPrefix + "-title"} href=${widget.url} target="_blank" rel="noopener">${widget.url}</a>
      <span class="pill">${version}</span>
      <span class="pill">${viewsText(widget.views)}</span>
      <span class="pill">${widget.origins.length ? widget.origins.length + " allowed" : "Link only"}</span>
    </div>
    <label class="field">Allowed origins
      <textarea rows="2" value=${origins} aria-invalid=${error ? "true" : undefined}
        onInput=${(e) => setOrigins(e.currentTarget.value)}></textarea></label>
    ${error && html`<p class="inline-error" role="alert">${error}</p>`}
    <div class="widget-buttons">
      <button type="button" class="quiet small" onClick=${save}>Save origins</button>
      ${confirming
        ? html`<span class="confirm">Its page answers 410 at once, everywhere.
            <button type="button" class="danger small" onClick=${unpublish}>Unpublish now</button>
            <button type="button" class="quiet small" onClick=${() => setConfirming(false)}>Keep it</button></span>`
        : html`<button type="button" class="quiet small" onClick=${() => setConfirming(true)}>Unpublish…</button>`}
      <span class="status" role="status">${status}</span>
    </div>
    ${widget.buttons.length > 0 && html`<fieldset class="event-buttons">
      <legend>Also tell the host page when these buttons are clicked</legend>
      ${widget.buttons.map((label) => html`<label class="check">
        <input type="checkbox" checked=${chosen.includes(label)}
          onChange=${(e) => toggleButton(label, e.currentTarget.checked)} /> ${label}</label>`)}
    </fieldset>`}
    ${widget.origins.length === 0
      ? html`<p class="empty-note">Link only: no site may frame it. Add a site above to embed it.</p>`
      : html`<${Snippet} label="Embed with the loader (sizes the frame to fit)" text=${widget.snippets.loader} />
        <${Snippet} label=${widget.origins.length > 1
          ? "Or a plain iframe (its events go to " + widget.origins[0] + "; change host= for another site)"
          : "Or a plain iframe"} text=${widget.snippets.iframe} rows="4" />`}
    <p class="empty-note">${"Its form submits and chosen clicks reach the host page as a "}
      <code>macaron.event</code>${" message addressed to that site alone; passwords and"
      + " anything else never leave the widget."}</p>
  </article>`;
}

function Snippet({ label, text, rows = "3" }) {
  const area = useRef(null);
  const [copied, setCopied] = useState("");
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
    } catch (_) {
      area.current.select(); // no clipboard API (a plain-http address): select it instead
      setCopied("Selected: press Ctrl/⌘ C.");
      return;
    }
    setCopied("Copied.");
  }
  return html`<div class="snippet">
    <label class="field">${label}
      <textarea ref=${area} readonly rows=${rows} class="code" value=${text}></textarea></label>
    <div class="widget-buttons">
      <button type="button" class="quiet small" onClick=${copy}>Copy</button>
      <span class="status" role="status">${copied}</span>
    </div>
  </div>`;
}
