// The prompt box: generate when the project has no version, refine the current one otherwise,
// only the selected element when one is selected, or start over on request. While a
// generation runs it shows tokens and seconds, and a Stop button.
import { html, useEffect, useState } from "./lib.js";
import { useStore } from "./store.js";
import { describe, nodeAt } from "./spec.js";
import { Icon } from "./icons.js";

function Progress({ generation }) {
  const [now, setNow] = useState(Date.now());
  const running = generation && !generation.done;
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(timer);
  }, [running]);
  if (!running) return null;
  const seconds = Math.max(0, (now - generation.startedAt) / 1000).toFixed(1);
  return html`<div class="progress" aria-label="Generation progress">
    <span class="spinner" aria-hidden="true"></span>
    <span class="progress-text">${generation.tokens || 0} tokens · ${seconds} s</span>
  </div>`;
}

// "Best of N drafts" for a new ui screen: kept across visits, as a designer's habit.
const BEST_OF_KEY = "macaron.bestOf";

function storedBestOf() {
  try {
    return localStorage.getItem(BEST_OF_KEY) === "1";
  } catch (_) {
    return false;
  }
}

export function PromptBox({ store, actions, generation: gen, experts, uiDrafts = 1 }) {
  const [draft, current, selection, generation, status, error] = useStore(store, (s) => [
    s.draft, s.current, s.selection, s.generation, s.status, s.error,
  ]);
  const [expert, setExpert] = useState(() => (experts.some((e) => e.name === "ui") ? "ui" : (experts[0] || {}).name));
  const [startOver, setStartOver] = useState(false);
  const [bestOf, setBestOf] = useState(storedBestOf);
  const structured = (experts.find((e) => e.name === expert) || {}).structured;
  const running = !!(generation && !generation.done);
  const refining = !!current && !startOver;
  const target = refining && selection ? selection : null;
  const targetName = target ? describe(nodeAt(current.spec, target.node), target.kind, target.label) : "";
  // A refinement edits the version it quotes: one draft. So does a text expert.
  const offerBestOf = uiDrafts > 1 && structured && !refining;

  function submit(event) {
    event.preventDefault();
    gen.generate({ prompt: draft, expert, startOver, bestOf: offerBestOf && bestOf });
  }

  function chooseBestOf(checked) {
    setBestOf(checked);
    try {
      localStorage.setItem(BEST_OF_KEY, checked ? "1" : "0");
    } catch (_) {
      // Storage refused (a private window): the choice lasts as long as the page.
    }
  }

  return html`<form class="prompt" id="generate-form" novalidate onSubmit=${submit}>
    <${Progress} generation=${generation} />
    <p id="status" class="status" role="status" aria-live="polite">${status}</p>
    ${error && html`<div id="error" class="error" role="alert">${error}</div>`}
    ${target && html`<div class="chip" data-target=${target.node}>
      <span>Changing: ${targetName}</span>
      <button type="button" class="chip-clear" aria-label="Stop targeting ${targetName}"
        onClick=${() => actions.select(null)}><${Icon} name="close" size=${14} /></button>
    </div>`}
    <label for="prompt" class="prompt-label">Describe the interface</label>
    <textarea id="prompt" name="prompt" rows="4" value=${draft}
      placeholder=${refining ? (target ? "e.g. make this a bar chart" : "e.g. add a Cancel button next to Save")
        : "a signup form with name, email, a password and a terms checkbox"}
      onInput=${(e) => store.set({ draft: e.currentTarget.value })}></textarea>
    <div class="prompt-controls">
      <label class="sr-only" for="expert">Expert</label>
      <select id="expert" name="expert" value=${expert} onChange=${(e) => setExpert(e.currentTarget.value)}>
        ${experts.map((e) => html`<option value=${e.name}>${e.name}${e.trained ? "" : " (untrained)"}</option>`)}
      </select>
      ${current && html`<label class="check"><input type="checkbox" checked=${startOver}
        onChange=${(e) => setStartOver(e.currentTarget.checked)} /> Start over</label>`}
      ${offerBestOf && html`<label class="check" title=${"Writes " + uiDrafts + " drafts and keeps the one that shows most of your prompt; about 2.5 times the wait"}>
        <input type="checkbox" checked=${bestOf} onChange=${(e) => chooseBestOf(e.currentTarget.checked)} />
        Best of ${uiDrafts}</label>`}
      <span class="grow"></span>
      ${running
        ? html`<button type="button" class="stop" onClick=${() => gen.stop()}>
            <${Icon} name="stop" /> Stop</button>`
        : html`<button type="submit" id="generate">${refining ? "Refine" : "Generate"}</button>`}
    </div>
  </form>`;
}
