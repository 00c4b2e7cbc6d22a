// The developer's corner of the inspector: the spec as text (streaming or current), the view's
// live state, the repair's leftovers, the run's timings and the experts.
import { html } from "./lib.js";
import { useStore } from "./store.js";

const TIMINGS = [
  ["Queue wait", "queue_wait_s", " s"],
  ["First token", "time_to_first_token_s", " s"],
  ["Tokens", "tokens", ""],
  ["Speed", "tokens_per_s", " tok/s"],
];

// Keys a password field of the spec binds. The view's runtime never posts their values; the
// panel leaves them out too, whatever a frame sends.
function passwordKeys(spec) {
  const keys = new Set();
  const stack = spec && spec.root ? [spec.root] : [];
  while (stack.length) {
    const node = stack.pop();
    if (!node || typeof node !== "object") continue;
    if (node.t === "input" && node.kind === "password" && typeof node.bind === "string") keys.add(node.bind);
    if (Array.isArray(node.c)) stack.push(...node.c);
  }
  return keys;
}

export function shownState(viewState, spec) {
  const secret = passwordKeys(spec);
  const out = {};
  Object.keys(viewState || {}).forEach((k) => { if (!secret.has(k)) out[k] = viewState[k]; });
  return out;
}

export function Developer({ store, experts }) {
  const [generation, current, viewState, problems, timings] = useStore(store, (s) => [
    s.generation, s.current, s.viewState, s.problems, s.timings,
  ]);
  const streaming = generation && (!generation.done || generation.expert !== "ui");
  const text = streaming ? generation.text : current ? JSON.stringify(current.spec, null, 2) : "";
  const shownTimings = TIMINGS.filter(([, key]) => timings && timings[key] !== null && timings[key] !== undefined);
  return html`<details class="inspector-section developer">
    <summary class="section-title">Developer</summary>
    ${shownTimings.length > 0 && html`<dl class="timings">
      ${shownTimings.map(([name, key, unit]) => html`<dt>${name}</dt><dd>${timings[key]}${unit}</dd>`)}
    </dl>`}
    ${problems && problems.length > 0 && html`<div class="problems">
      <p>${problems.length} problem(s) left after repair:</p>
      <ul>${problems.map((p) => html`<li>${p.path}: ${p.message}</li>`)}</ul></div>`}
    <h3 class="sub-title">Spec</h3>
    <pre id="spec-text" aria-label="Spec text">${text}</pre>
    <h3 class="sub-title">View state</h3>
    <pre id="view-state" aria-label="View state">${JSON.stringify(shownState(viewState, current && current.spec), null, 2)}</pre>
    ${experts && experts.length > 0 && html`<h3 class="sub-title">Experts</h3>
    <div class="table-scroll"><table aria-label="Experts and their training">
      <thead><tr><th scope="col">expert</th><th scope="col">trained</th><th scope="col">steps</th>
        <th scope="col">eval loss</th></tr></thead>
      <tbody>${experts.map((e) => html`<tr><th scope="row" title=${e.purpose || ""}>${e.name}</th>
        <td>${e.trained ? "yes" : "no"}</td><td>${e.steps || "–"}</td>
        <td>${typeof e.eval_loss === "number" ? e.eval_loss.toFixed(3) : "–"}</td></tr>`)}</tbody>
    </table></div>`}
  </details>`;
}
