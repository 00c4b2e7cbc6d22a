// The studio page: sends prompts over the WebSocket, follows a generation's numbered batches,
// and hands rendered HTML to the sandboxed preview frame by postMessage (never by reloading it).
"use strict";

(function () {
  // Listen before the preview frame exists: its runtime announces itself as soon as it loads,
  // which can be before the rest of this page has been parsed.
  let frameReady = false;
  let pendingView = null;
  let showState = null; // set once the page is parsed
  window.addEventListener("message", (event) => {
    const frame = document.getElementById("preview");
    if (!frame || event.source !== frame.contentWindow) return; // only our own preview frame
    const data = event.data || {};
    if (data.type === "ui4a.ready") {
      frameReady = true;
      if (pendingView) frame.contentWindow.postMessage(pendingView, "*");
    } else if (data.type === "ui4a.state" && showState) {
      showState(data.state);
    }
  });
  document.addEventListener("DOMContentLoaded", () => {
    const stateBox = document.getElementById("view-state");
    showState = (state) => { stateBox.textContent = JSON.stringify(state, null, 2); };
    studio(() => frameReady, (view) => { pendingView = view; });
  });
})();

function studio(isFrameReady, rememberView) {
  const form = document.getElementById("generate-form");
  const promptBox = document.getElementById("prompt");
  const expertBox = document.getElementById("expert");
  const button = document.getElementById("generate");
  const errorBox = document.getElementById("error");
  const statusLine = document.getElementById("status");
  const connectionBadge = document.getElementById("connection");
  const specText = document.getElementById("spec-text");
  const timingsList = document.getElementById("timings");
  const problemsBox = document.getElementById("problems");
  const frame = document.getElementById("preview");

  let projectId = JSON.parse(document.getElementById("project-id").textContent) || null;
  const initial = JSON.parse(document.getElementById("current-generation").textContent);

  let socket = null;
  let retryDelay = 500;
  let current = null; // {id, text, seq, done}

  function showError(message) {
    errorBox.textContent = message;
    errorBox.hidden = false;
  }

  function clearError() {
    errorBox.hidden = true;
    errorBox.textContent = "";
  }

  function setStatus(text) {
    statusLine.textContent = text;
  }

  function setBusy(busy) {
    button.disabled = busy;
    button.textContent = busy ? "Generating…" : "Generate";
  }

  function postView(html, state) {
    const view = { type: "ui4a.render", html: html || "", state: state || {} };
    rememberView(view);
    if (isFrameReady()) {
      frame.contentWindow.postMessage(view, "*"); // the frame's origin is opaque
    }
  }

  function showTimings(timings) {
    timingsList.replaceChildren();
    const rows = [
      ["Queue wait", timings.queue_wait_s, "s"],
      ["First token", timings.time_to_first_token_s, "s"],
      ["Tokens", timings.tokens, ""],
      ["Speed", timings.tokens_per_s, " tok/s"],
    ];
    for (const [name, value, unit] of rows) {
      if (value === null || value === undefined) continue;
      const dt = document.createElement("dt");
      dt.textContent = name;
      const dd = document.createElement("dd");
      dd.textContent = value + unit;
      timingsList.append(dt, dd);
    }
  }

  function showProblems(problems) {
    problemsBox.replaceChildren();
    if (!problems || !problems.length) return;
    const heading = document.createElement("p");
    heading.textContent = problems.length + " problem(s) left after repair:";
    const list = document.createElement("ul");
    for (const problem of problems) {
      const item = document.createElement("li");
      item.textContent = problem.path + ": " + problem.message;
      list.append(item);
    }
    problemsBox.append(heading, list);
  }

  function applySnapshot(data) {
    current = { id: data.generation, text: data.text, seq: data.seq, done: false };
    specText.textContent = data.text;
    if (data.html !== undefined) postView(data.html, data.state);
    if (data.status === "done" || data.status === "failed") finish(data);
  }

  function finish(data) {
    current.done = true;
    setBusy(false);
    showTimings(data.timings || {});
    showProblems(data.problems);
    if (data.status === "failed") {
      setStatus("Generation failed.");
      showError(data.error || "The generation failed.");
    } else {
      setStatus(data.error ? "Done, with a warning: " + data.error : "Done.");
      if (data.expert !== "ui") specText.textContent = data.text;
    }
  }

  const handlers = {
    "generation.accepted"(data) {
      current = { id: data.generation, text: "", seq: 0, done: false };
      document.body.dataset.generation = data.generation; // for tools that follow the page
      delete document.body.dataset.firstViewEngineS;
      specText.textContent = "";
      showProblems([]);
      timingsList.replaceChildren();
      postView("", {});
      if (projectId !== data.project) {
        projectId = data.project;
        history.replaceState(null, "", "/p/" + projectId + "/");
      }
      setStatus("Queued…");
    },
    "generation.delta"(data) {
      if (!current || data.generation !== current.id || current.done) return;
      if (data.seq !== current.seq + 1) {
        // A batch went missing: fetch the whole text rather than show a hole.
        send({ type: "resync", generation: current.id });
        return;
      }
      current.seq = data.seq;
      current.text += data.delta;
      specText.textContent = current.text;
      setStatus("Streaming… " + data.tokens + " tokens");
      if (data.html !== undefined) postView(data.html, data.state);
      if (data.html && !document.body.dataset.firstViewEngineS) {
        document.body.dataset.firstViewEngineS = data.engine_s; // for bench/pipeline.py
      }
    },
    "generation.done"(data) {
      if (!current || data.generation !== current.id) return;
      applySnapshot(data);
    },
    "generation.snapshot"(data) {
      if (!current || data.generation !== current.id) return;
      applySnapshot(data);
    },
    error(data) {
      setBusy(false);
      showError(data.message);
      setStatus("Ready.");
    },
  };

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      showError("Not connected to the server; reconnecting…");
      return false;
    }
    socket.send(JSON.stringify(message));
    return true;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const query = projectId ? "?project=" + encodeURIComponent(projectId) : "";
    socket = new WebSocket(scheme + location.host + "/ws/studio/" + query);
    socket.addEventListener("open", () => {
      retryDelay = 500;
      connectionBadge.textContent = "Connected";
      connectionBadge.dataset.state = "open";
      if (current && !current.done) send({ type: "resync", generation: current.id });
    });
    socket.addEventListener("message", (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch (_) {
        return;
      }
      const handler = handlers[data.type];
      if (handler) handler(data);
    });
    socket.addEventListener("close", () => {
      connectionBadge.textContent = "Disconnected";
      connectionBadge.dataset.state = "closed";
      setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 8000);
    });
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearError();
    const sent = send({
      type: "generate",
      prompt: promptBox.value,
      expert: expertBox.value,
      project: projectId,
    });
    if (sent) {
      setBusy(true);
      setStatus("Sending…");
    }
  });

  if (initial) {
    current = { id: initial.generation, text: initial.text, seq: initial.seq, done: false };
    expertBox.value = initial.expert;
    if (initial.status === "done" || initial.status === "failed") {
      finish(initial);
    } else {
      setBusy(true);
      if (initial.html !== undefined) postView(initial.html, initial.state);
    }
  }
  connect();
}
