// The studio page's entry point: reads what the server put in the page, creates the store,
// connects the preview frame and the WebSocket, mounts the panels, and loads the timeline and
// the component catalog.
import { html, render } from "./lib.js";
import { createStore } from "./store.js";
import { connectPreview } from "./preview.js";
import { connectSocket } from "./socket.js";
import { createActions } from "./actions.js";
import { createGeneration } from "./generation.js";
import { api } from "./api.js";
import { normalizeCatalog } from "./catalog.js";
import { installShortcuts } from "./shortcuts.js";
import { TopBar } from "./topbar.js";
import { Timeline } from "./timeline.js";
import { Compare } from "./compare.js";
import { PromptBox } from "./prompt.js";
import { StageBar } from "./stagebar.js";
import { Inspector } from "./inspector.js";
import { DataPanel } from "./data.js";
import { ReplPanel } from "./repl.js";

function pageData(id) {
  const el = document.getElementById(id);
  try {
    return el ? JSON.parse(el.textContent) : null;
  } catch (_) {
    return null;
  }
}

const project = pageData("studio-project");
const version = pageData("studio-version");
const experts = pageData("studio-experts") || [];
const uiDrafts = pageData("studio-ui-drafts") || 1;
const themeFields = pageData("studio-theme-fields") || [];

const store = createStore({
  project,
  connection: "connecting",
  versions: [],
  current: version, // {id, number, spec} now; html and state once loaded
  canUndo: false,
  canRedo: false,
  viewing: null,
  compare: null,
  selection: null,
  mode: "interact",
  catalog: null,
  catalogError: "",
  generation: null,
  draft: "",
  status: "Ready.",
  error: "",
  timelineError: "",
  historyError: "",
  renameError: "",
  editErrors: {},
  editing: false,
  viewState: {},
  problems: [],
  timings: {},
  replOpen: false,
});

const preview = connectPreview(document.getElementById("preview"), {
  onSelect: (selection) => actions.select(selection),
  onState: (state) => store.set({ viewState: state }),
});
const actions = createActions(store, preview);
const generation = createGeneration(store, preview, actions);
const socket = connectSocket({
  projectId: project && project.id,
  handlers: generation.handlers,
  onState: (connection) => store.set({ connection }),
  onOpen: () => generation.resume(),
});
generation.attach(socket);
generation.restore(pageData("studio-generation"));

function mount(id, component) {
  const el = document.getElementById(id);
  el.replaceChildren();
  render(component, el);
}

mount("topbar", html`<${TopBar} store=${store} actions=${actions} />`);
mount("side", html`
  <${Timeline} store=${store} actions=${actions} />
  <${DataPanel} project=${project} />
  <${Compare} store=${store} actions=${actions} />
  <${PromptBox} store=${store} actions=${actions} generation=${generation} experts=${experts} uiDrafts=${uiDrafts} />`);
mount("stage-bar", html`<${StageBar} store=${store} actions=${actions} />`);
mount("repl", html`<${ReplPanel} store=${store} />`);
mount("inspector", html`<${Inspector} store=${store} actions=${actions} experts=${experts} />`);

installShortcuts({
  generate: () => document.getElementById("generate-form").requestSubmit(),
  undo: () => store.get().canUndo && actions.undo(),
  redo: () => store.get().canRedo && actions.redo(),
  clearSelection: () => store.get().selection && actions.select(null),
});

actions.loadVersions();
api.catalog().then((result) => {
  store.set(result.ok
    ? { catalog: normalizeCatalog(result.data, themeFields), catalogError: "" }
    : { catalog: normalizeCatalog({}, themeFields), catalogError: "The inspector could not load the component catalog: " + result.error.message });
});
