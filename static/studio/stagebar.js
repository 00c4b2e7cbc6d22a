// The bar over the preview: Interact or Select mode, undo and redo, the Python panel's toggle,
// downloads of the version shown, and what the preview shows when it is not the current
// version (a version opened read-only, or a comparison).
import { html } from "./lib.js";
import { useStore } from "./store.js";
import { Icon } from "./icons.js";
import { ReplToggle } from "./repl.js";

function Banner({ store, actions }) {
  const [viewing, compare, versions] = useStore(store, (s) => [s.viewing, s.compare, s.versions]);
  const numberOf = (id) => (versions.find((v) => v.id === id) || {}).number;
  if (viewing) {
    return html`<div class="banner" role="status">
      <span>Viewing version ${viewing.number} (read-only)</span>
      <button type="button" class="link" onClick=${() => actions.showCurrent()}>Back to current</button>
      <button type="button" class="link" onClick=${() => actions.revert(viewing.id)}>Revert to this</button>
      <button type="button" class="link" onClick=${() => actions.fork(viewing.id)}>Fork</button>
    </div>`;
  }
  if (compare && !compare.loading && !compare.error) {
    return html`<div class="banner banner-compare" role="status">
      <span>Version ${numberOf(compare.to)}, marked against version ${numberOf(compare.from)}</span>
      <span class="legend"><i data-change="added"></i>added <i data-change="changed"></i>changed
        <i data-change="removed"></i>removed</span>
      <button type="button" class="link" onClick=${() => actions.closeCompare()}>Back to current</button>
    </div>`;
  }
  return null;
}

// A small menu of plain links: the server answers with an attachment, so the page stays put.
function Downloads({ store }) {
  const [project, current, viewing] = useStore(store, (s) => [s.project, s.current, s.viewing]);
  const version = viewing || current;
  if (!project || !version) return null;
  const base = "/p/" + encodeURIComponent(project.id) + "/versions/" + encodeURIComponent(version.id);
  return html`<details class="export-menu">
    <summary class="icon-button"><${Icon} name="download" /> Export</summary>
    <div class="export-list" role="group" aria-label=${"Export version " + version.number}>
      <a href=${base + "/export.html"} download>Standalone HTML file
        <small>opens anywhere, no server needed</small></a>
      <a href=${base + "/export.json"} download>Spec as JSON</a>
    </div>
  </details>`;
}

export function StageBar({ store, actions }) {
  const [mode, canUndo, canRedo, current, historyError] = useStore(store, (s) => [
    s.mode, s.canUndo, s.canRedo, s.current, s.historyError,
  ]);
  return html`
    <div class="stage-tools">
      <div class="segmented" role="group" aria-label="Preview mode">
        <button type="button" aria-pressed=${mode === "interact" ? "true" : "false"}
          onClick=${() => actions.setMode("interact")}><${Icon} name="hand" /> Interact</button>
        <button type="button" aria-pressed=${mode === "select" ? "true" : "false"}
          disabled=${!current} onClick=${() => actions.setMode("select")}>
          <${Icon} name="cursor" /> Select</button>
      </div>
      <span class="grow"></span>
      <${ReplToggle} store=${store} />
      <${Downloads} store=${store} />
      ${historyError && html`<span class="inline-error" role="alert">${historyError}</span>`}
      <button type="button" class="icon-button" disabled=${!canUndo} onClick=${() => actions.undo()}
        aria-label="Undo" title="Undo the last edit"><${Icon} name="undo" /> Undo</button>
      <button type="button" class="icon-button" disabled=${!canRedo} onClick=${() => actions.redo()}
        aria-label="Redo" title="Redo"><${Icon} name="redo" /> Redo</button>
    </div>
    <${Banner} store=${store} actions=${actions} />`;
}
