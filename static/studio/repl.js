// The Python panel: the project's sandboxed Python session (studio/web/repl_panel.py). It shows
// the session's cells as they happen, the designer's and the experts' alike (polled about once
// a second while the panel is open and the tab visible), runs a cell typed by hand (Shift+Enter),
// resets or ends the session, and lists the global tools every session can import. The designer
// can ask an expert (agent or coding): it works in this same session, so its cells show as it
// runs them, and its answer shows under the cells. Hiding the panel or leaving the page gives
// up the question, which stops the expert. Output is text: cells, tracebacks and answers are
// shown as written, never as markup.
import { html, useEffect, useRef, useState } from "./lib.js";
import { call } from "./api.js";
import { useStore } from "./store.js";
import { Icon } from "./icons.js";

const POLL_MS = 1000;
const RUN_TIMEOUT_MS = 120000; // a cell's wall-time limit, a restart, and the way back
const ASK_TIMEOUT_MS = 660000; // the loop's steps and cells, within the server's own limit
const EXPERTS = { agent: "Agent", coding: "Coding" };

const base = (project) => "/p/" + encodeURIComponent(project) + "/repl/";

export const replApi = {
  open: (project) => call("POST", base(project) + "session", {}, { timeoutMs: RUN_TIMEOUT_MS }),
  cells: (project, after) => call("GET", base(project) + "cells?after=" + after),
  run: (project, code) => call("POST", base(project) + "run", { code }, { timeoutMs: RUN_TIMEOUT_MS }),
  reset: (project) => call("POST", base(project) + "reset", {}, { timeoutMs: RUN_TIMEOUT_MS }),
  close: (project) => call("POST", base(project) + "close"),
  ask: (project, prompt, expert, signal) =>
    call("POST", base(project) + "ask", { prompt, expert }, { timeoutMs: ASK_TIMEOUT_MS, signal }),
  tools: () => call("GET", "/studio/tools"),
};

const WHO = { user: "You", expert: "Expert", api: "API" };

export function seconds(value) {
  if (typeof value !== "number") return "";
  return value < 1 ? `${Math.round(value * 1000)} ms` : `${value.toFixed(value < 10 ? 2 : 1)} s`;
}

// Cells by index, oldest first; a record seen again replaces the one kept.
export function mergeCells(kept, incoming) {
  if (!incoming.length) return kept;
  const byIndex = new Map(kept.map((c) => [c.index, c]));
  incoming.forEach((c) => byIndex.set(c.index, c));
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

function Flags({ cell }) {
  const flags = [
    cell.timed_out && "timed out",
    cell.restarted && "kernel restarted",
    cell.truncated && "output cut at the limit",
    cell.clipped && "clipped in the log",
  ].filter(Boolean);
  return flags.map((f) => html`<span class="repl-flag">${f}</span>`);
}

function Cell({ cell }) {
  if (cell.kind === "reset") {
    return html`<li class="repl-divider" aria-label="Session reset">
      <span>Session reset${cell.by ? " by " + (WHO[cell.by] || cell.by).toLowerCase() : ""}: a fresh
        kernel, earlier variables gone</span></li>`;
  }
  const running = cell.kind === "running";
  const state = running ? "running" : cell.error ? "error" : "ok";
  return html`<li class="repl-cell" data-state=${state} data-by=${cell.by || undefined}
    aria-label=${"Cell " + cell.index}>
    <div class="repl-cell-head">
      <span class="repl-index">[${cell.index}]</span>
      ${cell.by && html`<span class="repl-by" data-by=${cell.by}>${WHO[cell.by] || cell.by}</span>`}
      <${Flags} cell=${cell} />
      <span class="grow"></span>
      ${running
        ? html`<span class="repl-duration"><span class="spinner" aria-hidden="true"></span> Running…</span>`
        : html`<span class="repl-duration" title="Wall time">${seconds(cell.duration)}</span>`}
    </div>
    <pre class="repl-code"><code>${cell.code}</code></pre>
    ${cell.stdout && html`<pre class="repl-out">${cell.stdout}</pre>`}
    ${cell.stderr && html`<pre class="repl-out repl-stderr">${cell.stderr}</pre>`}
    ${cell.result != null && html`<pre class="repl-out repl-result"><span class="repl-out-label">Out</span>${cell.result}</pre>`}
    ${cell.error && html`<div class="repl-error" role="group" aria-label="Error">
      <p><strong>${cell.error.name}</strong>${cell.error.value ? ": " + cell.error.value : ""}</p>
      ${cell.error.traceback && html`<details><summary>Traceback</summary>
        <pre>${cell.error.traceback}</pre></details>`}
    </div>`}
    ${(cell.notes || []).map((note) => html`<p class="repl-note">${note}</p>`)}
  </li>`;
}

function Tools({ tools, error }) {
  return html`<section class="repl-tools" aria-labelledby="repl-tools-title">
    <h3 id="repl-tools-title" class="sub-title">Global tools</h3>
    ${error && html`<p class="inline-error" role="alert">${error}</p>`}
    ${tools && tools.length === 0 && html`<p class="empty-note">None yet. A function an expert
      promotes becomes one, importable in every session from <code>macaron_tools</code>.</p>`}
    ${tools && tools.length > 0 && html`<ul>
      ${tools.map((t) => html`<li key=${t.name}>
        <code class="repl-tool-name">${t.name}${t.signature || "()"}</code>
        ${t.version && html`<span class="repl-tool-version">v${t.version}</span>`}
        ${t.doc && html`<p>${t.doc}</p>`}
      </li>`)}
    </ul>`}
  </section>`;
}

const STOPPED = {
  step_limit: "The expert stopped at its step limit before answering.",
  input_limit: "The expert stopped: the conversation grew past the input limit.",
  tool_calls: "The expert called a tool the panel does not run.",
};

// The expert's answer, as text (never markup), with why it stopped when it did not answer.
function Answer({ answer }) {
  const who = EXPERTS[answer.expert] || answer.expert;
  const ran = answer.steps.length;
  return html`<section class="repl-answer" aria-label="Expert's answer" aria-live="polite">
    <div class="repl-answer-head">
      <span class="repl-by" data-by="expert">${who}</span>
      <span class="repl-answer-question">${answer.prompt}</span>
      <span class="grow"></span>
      <span class="repl-duration">${ran} cell${ran === 1 ? "" : "s"} run</span>
    </div>
    ${answer.answer
      ? html`<p class="repl-answer-text">${answer.answer}</p>`
      : html`<p class="repl-answer-text empty-note">No answer text.</p>`}
    ${STOPPED[answer.stopped] && html`<p class="repl-note">${STOPPED[answer.stopped]}</p>`}
  </section>`;
}

function sessionLine(session, limits) {
  if (!session) return "No session: running a cell starts one.";
  const parts = [`Session ${session.id.slice(0, 6)}`, `${session.cells} cell${session.cells === 1 ? "" : "s"}`];
  if (session.restarts) parts.push(`${session.restarts} restart${session.restarts === 1 ? "" : "s"}`);
  if (limits) parts.push(`idles out after ${Math.round(limits.idle_seconds / 60)} min`);
  return parts.join(" · ");
}

function Session({ projectId, onHide }) {
  const [session, setSession] = useState(null);
  const [cells, setCells] = useState([]);
  const [running, setRunning] = useState(null);
  const [limits, setLimits] = useState(null);
  const [tools, setTools] = useState(null);
  const [toolsError, setToolsError] = useState("");
  const [busy, setBusy] = useState("open");
  const [error, setError] = useState("");
  const [unavailable, setUnavailable] = useState("");
  const [notice, setNotice] = useState("");
  const [draft, setDraft] = useState("");
  const [question, setQuestion] = useState("");
  const [expert, setExpert] = useState("agent");
  const [answer, setAnswer] = useState(null);
  const asking = useRef(null); // the question's AbortController, while the expert works
  const list = useRef(null);
  const last = useRef(0);
  const sessionId = useRef(null);

  function take(data) {
    if (data.limits) setLimits(data.limits);
    const id = data.session ? data.session.id : null;
    if (id !== sessionId.current) { // a new session (or none): its cells start over
      sessionId.current = id;
      last.current = 0;
      setCells([]);
    }
    setSession(data.session);
    const fresh = data.cells || (data.cell ? [data.cell] : []);
    if (fresh.length) {
      last.current = Math.max(last.current, ...fresh.map((c) => c.index));
      setCells((kept) => mergeCells(kept, fresh));
    }
    if ("running" in data) setRunning(data.running);
  }

  function refused(result) {
    if (result.error.code === "sandbox_unavailable") setUnavailable(result.error.message);
    else setError(result.error.message);
  }

  useEffect(() => {
    let stopped = false;
    let inFlight = false;
    replApi.open(projectId).then((result) => {
      if (stopped) return;
      setBusy((now) => (now === "open" ? "" : now));
      if (!result.ok) { refused(result); return; }
      take(result.data);
      setNotice(result.data.notice || "");
    });
    replApi.tools().then((result) => {
      if (stopped) return;
      if (result.ok) setTools(result.data.tools);
      else setToolsError("The global tools could not be loaded: " + result.error.message);
    });
    const timer = setInterval(async () => {
      if (inFlight || document.hidden) return;
      inFlight = true;
      const result = await replApi.cells(projectId, last.current);
      inFlight = false;
      if (!stopped && result.ok) take(result.data);
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
      if (asking.current) asking.current.abort(); // the panel is gone: the expert stops
    };
  }, [projectId]);

  // Follow new cells, unless the designer has scrolled up to read an earlier one.
  const count = cells.length + (running ? 1 : 0);
  const following = useRef(true);
  useEffect(() => {
    const el = list.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [count, running && running.index]);

  async function run(event) {
    if (event) event.preventDefault();
    const code = draft;
    if (!code.trim() || working) return;
    setBusy("run"); setError(""); setNotice("");
    following.current = true;
    const result = await replApi.run(projectId, code);
    setBusy("");
    if (!result.ok) { refused(result); return; }
    take(result.data);
    setRunning(null);
    if (result.data.notice) setNotice(result.data.notice);
    setDraft("");
  }

  async function ask(event) {
    if (event) event.preventDefault();
    const prompt = question.trim();
    if (!prompt || working) return;
    setBusy("ask"); setError(""); setNotice(""); setAnswer(null);
    following.current = true;
    const controller = new AbortController();
    asking.current = controller;
    const result = await replApi.ask(projectId, prompt, expert, controller.signal);
    asking.current = null;
    if (controller.signal.aborted) return; // the panel went away meanwhile
    setBusy("");
    if (!result.ok) { refused(result); return; }
    if (result.data.notice) setNotice(result.data.notice);
    setAnswer({ ...result.data, prompt });
    setQuestion("");
  }

  async function reset() {
    setBusy("reset"); setError(""); setNotice("");
    const result = await replApi.reset(projectId);
    setBusy("");
    if (!result.ok) { refused(result); return; }
    take(result.data);
    setNotice("A fresh kernel: earlier variables and files are gone.");
  }

  async function end() {
    if (!window.confirm("End this Python session? Its variables and files are removed; the cells shown here go too.")) return;
    setBusy("close"); setError(""); setNotice("");
    const result = await replApi.close(projectId);
    setBusy("");
    if (!result.ok) { refused(result); return; }
    take(result.data);
    setRunning(null);
    setNotice("Session ended. Running a cell starts a new one.");
  }

  function keyDown(event) {
    // Shift+Enter runs (as in a notebook); Ctrl/⌘+Enter too, here, rather than generate.
    if (event.key === "Enter" && (event.shiftKey || event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      event.stopPropagation();
      run();
    }
  }

  // A cell typed while the session starts waits on the server for the same session.
  const working = busy && busy !== "open";
  const shown = running && !cells.some((c) => c.index === running.index) ? [...cells, running] : cells;
  const live = !!session && session.status === "running";
  return html`
    <div class="repl-head">
      <h2 id="repl-title" class="section-title">Python</h2>
      <span class="repl-session" role="status">${busy === "open" ? "Starting the session…"
        : unavailable ? "Unavailable" : session && session.status === "reaped"
          ? "The session idled out; running a cell starts a new one." : sessionLine(session, limits)}</span>
      <span class="grow"></span>
      <button type="button" class="quiet small" disabled=${!!busy || !live} onClick=${reset}
        title="A fresh kernel and an empty home folder">Reset</button>
      <button type="button" class="quiet small danger-text" disabled=${!!busy || !live} onClick=${end}>
        End session</button>
      <button type="button" class="icon-only" aria-label="Hide the Python panel" title="Hide"
        onClick=${onHide}><${Icon} name="close" /></button>
    </div>
    ${unavailable && html`<div class="repl-unavailable" role="alert">
      <strong>Python is not available on this server.</strong>
      <span>${unavailable}</span></div>`}
    <div class="repl-body">
      <div class="repl-main">
        <div class="repl-cells" ref=${list} role="log" aria-label="Cells" tabindex="0"
          onScroll=${(e) => { const el = e.currentTarget; following.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40; }}><ol>
          ${shown.length === 0 && !unavailable && html`<li class="empty-note repl-empty">No cells yet.
            Run Python below, or ask an expert that uses tools: its cells show here as it works.</li>`}
          ${shown.map((c) => html`<${Cell} key=${c.kind + c.index} cell=${c} />`)}
        </ol></div>
        ${answer && html`<${Answer} answer=${answer} />`}
        ${busy === "ask" && html`<p class="status repl-message repl-asking" role="status">
          <span class="spinner" aria-hidden="true"></span>
          ${EXPERTS[expert]} is working; its cells show above as it runs them.</p>`}
        ${error && html`<p class="inline-error repl-message" role="alert">${error}</p>`}
        ${notice && html`<p class="status repl-message" role="status">${notice}</p>`}
        <form class="repl-ask" onSubmit=${ask}>
          <label for="repl-question" class="repl-ask-label">Ask the expert</label>
          <input id="repl-question" type="text" autocomplete="off" value=${question}
            maxlength=${limits ? limits.prompt_max_chars : undefined} disabled=${!!unavailable}
            placeholder="e.g. What is the 20th Fibonacci number?"
            onInput=${(e) => setQuestion(e.currentTarget.value)} />
          <label for="repl-expert" class="sr-only">Expert</label>
          <select id="repl-expert" value=${expert} disabled=${busy === "ask"}
            onChange=${(e) => setExpert(e.currentTarget.value)}>
            ${Object.entries(EXPERTS).map(([name, label]) => html`<option value=${name}>${label}</option>`)}
          </select>
          <button type="submit" class="small" disabled=${!!working || !question.trim() || !!unavailable}>
            ${busy === "ask" ? html`<span class="spinner" aria-hidden="true"></span> Working` : "Ask"}</button>
        </form>
        <form class="repl-input" onSubmit=${run}>
          <label for="repl-code" class="sr-only">Python code</label>
          <textarea id="repl-code" rows="2" spellcheck="false" autocomplete="off" value=${draft}
            placeholder="x = 41   (Shift+Enter runs)" disabled=${!!unavailable}
            onInput=${(e) => setDraft(e.currentTarget.value)} onKeyDown=${keyDown}></textarea>
          <button type="submit" class="small" disabled=${!!working || !draft.trim() || !!unavailable}>
            ${busy === "run" ? html`<span class="spinner" aria-hidden="true"></span> Running` : "Run"}</button>
        </form>
      </div>
      <${Tools} tools=${tools} error=${toolsError} />
    </div>`;
}

export function ReplPanel({ store }) {
  const [project, open] = useStore(store, (s) => [s.project, s.replOpen]);
  if (!project || !open) return null;
  return html`<section class="repl-panel" id="repl-panel" aria-labelledby="repl-title">
    <${Session} projectId=${project.id} onHide=${() => store.set({ replOpen: false })} />
  </section>`;
}

export function ReplToggle({ store }) {
  const [project, open] = useStore(store, (s) => [s.project, s.replOpen]);
  if (!project) return null;
  return html`<button type="button" class="icon-button" aria-pressed=${open ? "true" : "false"}
    aria-controls=${open ? "repl-panel" : undefined} title="The project's Python session and the global tools"
    onClick=${() => store.set({ replOpen: !open })}><${Icon} name="terminal" /> Python</button>`;
}
