// The transcript: every version of the project, oldest first, with what made it (the prompt,
// or "edited: ..."), who and when, and which is current. A click opens one read-only.
import { html, useEffect, useRef } from "./lib.js";
import { useStore } from "./store.js";
import { Icon } from "./icons.js";

const KIND_NAMES = {
  generated: "Generated", refined: "Refined", targeted: "Targeted refinement",
  edited: "Edited", reverted: "Reverted", forked: "Forked",
};

export function ago(iso, now = Date.now()) {
  const then = Date.parse(iso);
  if (!isFinite(then)) return "";
  const s = Math.max(0, Math.round((now - then) / 1000));
  if (s < 45) return "just now";
  if (s < 3600) return Math.round(s / 60) + " min ago";
  if (s < 86400) return Math.round(s / 3600) + " h ago";
  return new Date(then).toLocaleDateString(undefined, { day: "numeric", month: "short" });
}

function authorOf(version) {
  const a = version.author;
  if (!a) return version.generation ? "model" : "";
  return typeof a === "string" ? a : a.name || a.username || "";
}

export function Timeline({ store, actions }) {
  const [versions, current, viewing, compare, error] = useStore(store, (s) => [
    s.versions, s.current, s.viewing, s.compare, s.timelineError,
  ]);
  const list = useRef(null);
  const count = versions.length;
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [count]);
  const currentId = current && current.id;
  const shownId = viewing ? viewing.id : compare ? null : currentId;

  return html`<section class="timeline" aria-labelledby="timeline-title">
    <h2 id="timeline-title" class="section-title">Versions</h2>
    ${error && html`<p class="inline-error" role="alert">${error}</p>`}
    ${count === 0 && html`<p class="empty-note">No versions yet. Describe an interface below and
      the first version appears here.</p>`}
    <ol class="versions" ref=${list}>
      ${versions.map((v) => html`<li key=${v.id}>
        <button type="button" class="version" data-kind=${v.kind}
          aria-current=${v.id === shownId ? "true" : undefined}
          onClick=${() => actions.openVersion(v.id)}>
          <span class="version-number">v${v.number}</span>
          <span class="version-kind" title=${KIND_NAMES[v.kind] || v.kind}>
            <${Icon} name=${v.kind} /><span class="sr-only">${KIND_NAMES[v.kind] || v.kind}</span></span>
          <span class="version-body">
            <span class="version-label">${v.label}</span>
            <span class="version-meta">${[authorOf(v), ago(v.created_at)].filter(Boolean).join(" · ")}
              ${v.id === currentId && html`<span class="current-tag">current</span>`}</span>
          </span>
        </button>
      </li>`)}
    </ol>
  </section>`;
}
