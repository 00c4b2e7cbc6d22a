// The studio's HTTP calls, one function per endpoint of the project's JSON API. Every call
// resolves to {ok, status, data} or {ok: false, status, error: {code, message}}: callers show
// errors in place and never lose what the designer typed.

const TIMEOUT_MS = 20000;

function csrfToken() {
  const input = document.querySelector("#signout [name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

// `body`: an object sent as JSON, or a FormData (a file upload) sent as multipart. `signal`:
// the caller's, to give up early (the server then stops what the request started).
export async function call(method, url, body, { timeoutMs = TIMEOUT_MS, signal = null } = {}) {
  const headers = { Accept: "application/json" };
  const timeout = AbortSignal.timeout(timeoutMs);
  const init = {
    method, headers, credentials: "same-origin",
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  };
  if (method !== "GET") {
    headers["X-CSRFToken"] = csrfToken();
    if (body instanceof FormData) {
      init.body = body;
    } else {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body || {});
    }
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    if (signal && signal.aborted) return { ok: false, status: 0, error: { code: "aborted", message: "" } };
    const message = err && err.name === "TimeoutError"
      ? "The server took too long to answer; try again."
      : "Could not reach the server; check the connection and try again.";
    return { ok: false, status: 0, error: { code: "network", message } };
  }
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  if (response.ok && data !== null) return { ok: true, status: response.status, data };
  const error = (data && data.error) || {};
  return {
    ok: false,
    status: response.status,
    error: {
      code: error.code || (response.status === 404 ? "not_found" : "http_" + response.status),
      message: error.message || messageFor(response.status),
    },
  };
}

function messageFor(status) {
  if (status === 404) return "This project or version no longer exists.";
  if (status === 403) return "The server refused this; reload the page and sign in again.";
  if (status === 413) return "This is larger than the server accepts.";
  if (status === 409) return "The project changed meanwhile; the timeline has been refreshed.";
  if (status >= 500) return "The server failed to do this (" + status + "); try again.";
  return "The server refused this (" + status + ").";
}

const p = (project, rest) => "/p/" + encodeURIComponent(project) + "/" + rest;

export const api = {
  versions: (project) => call("GET", p(project, "versions")),
  version: (project, id) => call("GET", p(project, "versions/" + encodeURIComponent(id))),
  diff: (project, from, to) =>
    call("GET", p(project, "diff?from=" + encodeURIComponent(from) + "&to=" + encodeURIComponent(to))),
  edit: (project, base, op) => call("POST", p(project, "edit"), { base, op }),
  // `base`: the version the designer sees, so a step from a stale tab is refused, not guessed.
  undo: (project, base) => call("POST", p(project, "undo"), { base }),
  redo: (project, base) => call("POST", p(project, "redo"), { base }),
  revert: (project, id) => call("POST", p(project, "versions/" + encodeURIComponent(id) + "/revert")),
  fork: (project, id) => call("POST", p(project, "versions/" + encodeURIComponent(id) + "/fork")),
  rename: (project, name) => call("POST", p(project, "rename"), { name }),
  catalog: () => call("GET", "/studio/catalog"),
  // Widgets (studio/web/widgets_api.py): `version` is a version id or "latest".
  widgets: (project) => call("GET", p(project, "widgets")),
  publish: (project, version, origins) => call("POST", p(project, "widgets"), { version, origins }),
  // `changes`: {origins, buttons}, either left out to keep it.
  updateWidget: (project, id, changes) =>
    call("POST", p(project, "widgets/" + encodeURIComponent(id)), changes),
  unpublish: (project, id) => call("POST", p(project, "widgets/" + encodeURIComponent(id) + "/unpublish")),
};
