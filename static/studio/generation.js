// Generations over the WebSocket: sending a prompt (generate, refine, targeted, start over),
// stopping it, and following its numbered batches into the preview. A missing batch asks for
// a resync rather than showing a hole; a generation that goes quiet is read from its row over
// HTTP (`pollIfQuiet`), so a lost final message cannot leave the studio waiting. The body's
// data-generation and data-first-view-engine-s are for tools that follow the page
// (bench/pipeline.py).
import { call } from "./api.js";

const FINISHED = ["done", "failed", "cancelled"];
// A running generation that sent nothing for this long is read from its row: the channel layer
// may have dropped its final message (a full channel), or the socket died without closing.
const QUIET_MS = 10000;

export function createGeneration(store, preview, actions) {
  let socket = null;
  let heardAt = Date.now();

  function heard() {
    heardAt = Date.now();
  }

  async function pollIfQuiet() {
    const { generation } = store.get();
    if (!generation || generation.done || Date.now() - heardAt < QUIET_MS) return;
    heard(); // one read per quiet spell
    const answer = await call("GET", "/api/generations/" + encodeURIComponent(generation.id));
    const now = store.get().generation;
    if (!answer.ok || !now || now.done || answer.data.generation !== now.id) return;
    const { status, seq } = answer.data;
    if (status === "done") {
      // The row carries no version summary, as the lost message did: the timeline is reloaded.
      applySnapshot(answer.data);
      store.set({ draft: "" });
      actions.loadVersions();
    } else if (FINISHED.includes(status) || (seq || 0) > now.seq) {
      applySnapshot(answer.data); // only news: an end, or text past what the batches brought
    }
  }

  setInterval(pollIfQuiet, 1000);

  function setGeneration(patch) {
    const { generation } = store.get();
    store.set({ generation: { ...generation, ...patch } });
  }

  // The streamed draft has ended and the others are still being written: from the drafts
  // message, or from the row (`comparing`) for a page loaded meanwhile.
  function showComparing({ writing, wait_s }) {
    const wait = Math.ceil(wait_s);
    store.set({ status: "Comparing drafts: " + writing + " more still being written (up to " + wait + " s)…" });
  }

  function showStream(html, state) {
    const { viewing, compare } = store.get();
    if (!viewing && !compare && html !== undefined) preview.render(html, state);
  }

  function finish(data) {
    const status = data.status;
    setGeneration({ done: true, status, finishedAt: Date.now() });
    store.set({ problems: data.problems || [], timings: data.timings || {} });
    if (status === "failed") {
      store.set({ status: "Generation failed.", error: data.error || "The generation failed." });
    } else if (status === "cancelled") {
      store.set({ status: "Stopped. The current version is unchanged." });
    } else if (data.error) {
      store.set({ status: "Done, with a warning: " + data.error });
    } else {
      store.set({ status: "Done." + keptNote(store.get().generation) });
    }
    if (data.expert && data.expert !== "ui") setGeneration({ text: data.text });
  }

  // Why the view changed as the turn ended: another draft than the streamed one was kept.
  function keptNote(generation) {
    if (!generation || !generation.keptDraft) return "";
    return " Kept another of " + generation.drafts + " drafts: it shows more of your prompt.";
  }

  function applySnapshot(data) {
    setGeneration({ id: data.generation, text: data.text || "", seq: data.seq || 0, done: false });
    if (!FINISHED.includes(data.status)) {
      showStream(data.html, data.state);
      return;
    }
    finish(data);
    if (data.version) {
      store.set({ draft: "" }); // the prompt is in the timeline now
      store.set({ viewing: null, compare: null });
      actions.loadVersions();
    } else if (data.status === "done" && data.html !== undefined) {
      showStream(data.html, data.state); // a result that made no version (an older server)
    } else {
      actions.showCurrent(); // a failed or stopped run leaves the current version as it was
    }
  }

  const handlers = {
    "generation.accepted"(data) {
      heard();
      store.set({
        generation: {
          id: data.generation, text: "", seq: 0, tokens: 0, done: false, status: "queued",
          startedAt: Date.now(), finishedAt: null, expert: data.expert,
        },
        problems: [], timings: {}, status: "Queued…", viewing: null, compare: null,
      });
      document.body.dataset.generation = data.generation;
      delete document.body.dataset.firstViewEngineS;
      preview.highlight([]);
      const { project } = store.get();
      if (data.project && (!project || project.id !== data.project)) {
        store.set({ project: { id: data.project, name: (project || {}).name || "Untitled project" } });
        history.replaceState(null, "", "/p/" + data.project + "/");
      }
    },
    "generation.delta"(data) {
      const { generation } = store.get();
      if (!generation || data.generation !== generation.id || generation.done) return;
      heard();
      if (data.seq !== generation.seq + 1) {
        socket.send({ type: "resync", generation: generation.id });
        return;
      }
      setGeneration({ seq: data.seq, text: generation.text + data.delta, tokens: data.tokens, status: "running" });
      store.set({ status: "Streaming… " + data.tokens + " tokens" });
      showStream(data.html, data.state);
      if (data.html && !document.body.dataset.firstViewEngineS) {
        document.body.dataset.firstViewEngineS = data.engine_s;
      }
    },
    // A first ui turn's other drafts: how many are still being written once the streamed one
    // has ended (the view waits for them, up to wait_s), then which one is kept.
    "generation.drafts"(data) {
      const { generation } = store.get();
      if (!generation || data.generation !== generation.id || generation.done) return;
      heard();
      setGeneration({ drafts: data.drafts, keptDraft: data.kept || 0 });
      if (data.writing) showComparing(data);
    },
    "generation.done"(data) {
      const { generation } = store.get();
      if (generation && data.generation === generation.id) applySnapshot(data);
    },
    "generation.snapshot"(data) {
      const { generation } = store.get();
      if (generation && data.generation === generation.id) applySnapshot(data);
    },
    "project.changed"(data) {
      const { project } = store.get();
      if (!project || data.project !== project.id) return;
      store.set({ canUndo: !!data.can_undo, canRedo: !!data.can_redo });
      actions.loadVersions();
    },
    error(data) {
      const { generation } = store.get();
      if (generation && !generation.done && data.generation === generation.id) {
        setGeneration({ done: true, status: "failed" });
      }
      store.set({ error: data.message || "The server refused this.", status: "Ready.", sending: false });
    },
  };

  return {
    handlers,
    attach(connected) {
      socket = connected;
    },
    // After a reconnect: catch up with a generation still running.
    resume() {
      const { generation } = store.get();
      if (generation && !generation.done) socket.send({ type: "resync", generation: generation.id });
    },
    // Generate (no version yet, or "start over") or refine the current version, or only the
    // selected subtree of it.
    generate({ prompt, expert, startOver, bestOf = false }) {
      const { project, current, selection, generation } = store.get();
      if (generation && !generation.done) {
        store.set({ error: "A generation is already running in this project; stop it first." });
        return;
      }
      const base = startOver || !current ? null : current.id;
      const sent = socket.send({
        type: "generate",
        project: project ? project.id : null,
        prompt,
        expert,
        base,
        target: base && selection ? selection.node : "",
        best_of: bestOf,
      });
      if (sent) store.set({ error: "", status: "Sending…" });
      else store.set({ error: "Not connected to the server; reconnecting… Your prompt is kept: try again in a moment." });
    },
    stop() {
      const { generation } = store.get();
      if (!generation || generation.done) return;
      if (socket.send({ type: "stop", generation: generation.id })) store.set({ status: "Stopping…" });
    },
    // The page was loaded while a generation ran, or after one finished.
    restore(initial) {
      if (!initial) return;
      heard();
      store.set({
        generation: {
          id: initial.generation, text: initial.text || "", seq: initial.seq || 0,
          tokens: (initial.timings || {}).tokens || 0, done: false, status: initial.status,
          startedAt: Date.now(), finishedAt: null, expert: initial.expert,
        },
      });
      if (FINISHED.includes(initial.status)) finish(initial);
      else {
        if (initial.comparing) {
          setGeneration({ drafts: initial.comparing.drafts });
          showComparing(initial.comparing);
        } else store.set({ status: "Streaming…" });
        showStream(initial.html, initial.state);
      }
    },
  };
}
