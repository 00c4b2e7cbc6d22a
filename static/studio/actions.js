// What the designer can do, as operations on the store: load and open versions, compare two,
// edit, undo and redo, revert, fork, rename, select. Each talks to the server through api.js,
// moves the preview through preview.js, and leaves any refusal in the store, in place, with
// nothing the designer typed lost.
import { api } from "./api.js";
import { parentOf } from "./spec.js";

export function createActions(store, preview) {
  const projectId = () => (store.get().project || {}).id;

  // What the preview frame shows follows from the store: a compared pair, a version opened
  // read-only, the stream of a running generation, or the current version.
  function showCurrent() {
    const { current } = store.get();
    store.set({ viewing: null, compare: null });
    preview.highlight([]);
    if (current && current.html !== undefined) preview.render(current.html, current.state);
  }

  function previewIsCurrent() {
    const { viewing, compare, generation } = store.get();
    return !viewing && !compare && !(generation && !generation.done);
  }

  async function loadVersions() {
    const id = projectId();
    if (!id) return;
    const result = await api.versions(id);
    if (!result.ok) {
      store.set({ timelineError: result.error.message });
      return;
    }
    const { versions, current, can_undo: canUndo, can_redo: canRedo } = result.data;
    store.set({ versions: versions || [], canUndo: !!canUndo, canRedo: !!canRedo, timelineError: "" });
    const shown = store.get().current;
    if (current && (!shown || shown.id !== current || shown.html === undefined)) {
      await loadCurrent(current);
    } else if (!current) {
      store.set({ current: null });
    }
  }

  async function loadCurrent(versionId) {
    const result = await api.version(projectId(), versionId);
    if (!result.ok) {
      store.set({ timelineError: result.error.message });
      return;
    }
    setCurrent(result.data);
  }

  function setCurrent(detail) {
    const keepPreview = !previewIsCurrent();
    store.set({ current: detail });
    if (!keepPreview) preview.render(detail.html, detail.state);
  }

  async function openVersion(versionId) {
    const { current } = store.get();
    if (current && current.id === versionId) {
      showCurrent();
      return;
    }
    store.set({ timelineError: "" });
    const result = await api.version(projectId(), versionId);
    if (!result.ok) {
      store.set({ timelineError: result.error.message });
      return;
    }
    store.set({ viewing: result.data, compare: null });
    preview.highlight([]);
    preview.render(result.data.html, result.data.state);
  }

  async function compare(from, to) {
    store.set({ compare: { from, to, loading: true, changes: [], summary: "", error: "", active: -1 } });
    const [diff, target] = await Promise.all([
      api.diff(projectId(), from, to),
      api.version(projectId(), to),
    ]);
    if (!diff.ok || !target.ok) {
      const error = (!diff.ok ? diff : target).error.message;
      store.set({ compare: { from, to, loading: false, changes: [], summary: "", error, active: -1 } });
      return;
    }
    const changes = Array.isArray(diff.data.changes) ? diff.data.changes : [];
    store.set({
      viewing: null,
      compare: { from, to, loading: false, changes, summary: diff.data.summary || "", error: "", active: -1 },
    });
    preview.render(target.data.html, target.data.state);
    preview.highlight(changes.map((c) => ({ node: c.path, change: c.change })));
  }

  function focusChange(index) {
    const { compare: open } = store.get();
    if (!open || !open.changes[index]) return;
    store.set({ compare: { ...open, active: index } });
    preview.outline(open.changes[index].path);
  }

  function closeCompare() {
    preview.outline((store.get().selection || {}).node || null);
    showCurrent();
  }

  // A version the server made (an edit, undo, redo or revert) becomes the current one.
  async function adopt(detail) {
    if (detail && detail.html !== undefined && detail.id) {
      store.set({ viewing: null, compare: null });
      preview.highlight([]);
      setCurrent(detail);
    }
    await loadVersions();
  }

  async function edit(op, errorKey) {
    const { current, editErrors } = store.get();
    if (!current) return false;
    store.set({ editing: true, editErrors: { ...editErrors, [errorKey]: "" } });
    const result = await api.edit(projectId(), current.id, op);
    store.set({ editing: false });
    if (!result.ok) {
      const message = result.status === 409
        ? "The project changed meanwhile (another tab or a generation); this edit was not applied. The view is up to date now: try again."
        : result.error.message;
      store.set({ editErrors: { ...store.get().editErrors, [errorKey]: message } });
      if (result.status === 409) await loadVersions();
      return false;
    }
    followSelection(op);
    await adopt(result.data);
    return true;
  }

  // Structure edits move the selected node: keep the selection on it (or drop it).
  function followSelection(op) {
    const { selection } = store.get();
    if (!selection || op.path !== selection.node) return;
    if (op.op === "delete") {
      select(null);
    } else if (op.op === "move") {
      const at = parentOf(selection.node);
      if (at) select({ ...selection, node: at.parent + "/c/" + (at.index + op.by) });
    }
  }

  async function history(step) {
    const base = (store.get().current || {}).id || null;
    const result = await (step === "undo" ? api.undo(projectId(), base) : api.redo(projectId(), base));
    if (!result.ok) {
      store.set({ historyError: result.error.message });
      if (result.status === 409) await loadVersions();
      return;
    }
    store.set({
      historyError: "",
      canUndo: !!result.data.can_undo,
      canRedo: !!result.data.can_redo,
    });
    const version = result.data.version;
    if (version && version.html !== undefined) await adopt(version);
    else {
      store.set({ viewing: null, compare: null });
      preview.highlight([]);
      if (result.data.current) await loadCurrent(result.data.current);
      await loadVersions();
    }
  }

  async function revert(versionId) {
    const result = await api.revert(projectId(), versionId);
    if (!result.ok) {
      store.set({ timelineError: result.error.message });
      return;
    }
    await adopt(result.data);
    if (result.data.html === undefined) showCurrent();
  }

  async function fork(versionId) {
    const result = await api.fork(projectId(), versionId);
    if (!result.ok) {
      store.set({ timelineError: result.error.message });
      return;
    }
    location.assign(result.data.url || "/p/" + result.data.project + "/");
  }

  async function rename(name) {
    const project = store.get().project;
    const clean = name.trim();
    if (!project || !clean || clean === project.name) return true;
    const result = await api.rename(project.id, clean);
    if (!result.ok) {
      store.set({ renameError: result.error.message });
      return false;
    }
    const saved = (result.data && typeof result.data.name === "string" && result.data.name) || clean;
    store.set({ project: { ...project, name: saved }, renameError: "" });
    document.title = saved + " · Macaron studio";
    return true;
  }

  function select(selection) {
    store.set({ selection, editErrors: {} });
    preview.outline(selection ? selection.node : null);
  }

  function setMode(mode) {
    store.set({ mode });
    preview.design(mode === "select");
  }

  return {
    loadVersions, loadCurrent, openVersion, showCurrent, compare, focusChange, closeCompare,
    edit, undo: () => history("undo"), redo: () => history("redo"), revert, fork, rename,
    select, setMode, adopt,
  };
}
