// The top bar: back to the projects, the project's name (renamed in place), the connection's
// state, publishing as a widget, the shortcuts' help and signing out.
import { html, useEffect, useRef, useState } from "./lib.js";
import { useStore } from "./store.js";
import { Icon } from "./icons.js";
import { ShortcutsHelp } from "./shortcuts.js";
import { Publish } from "./publish.js";

const CONNECTION = { connecting: "Connecting…", open: "Connected", closed: "Disconnected" };

function ProjectName({ store, actions }) {
  const [project, error] = useStore(store, (s) => [s.project, s.renameError]);
  const [value, setValue] = useState(project ? project.name : "");
  const [saving, setSaving] = useState(false);
  const focused = useRef(false);
  useEffect(() => {
    if (project && !focused.current) setValue(project.name);
  }, [project && project.name]);
  if (!project) return html`<span class="project-name-static">New project</span>`;

  async function save() {
    if (value.trim() === project.name) return;
    if (!value.trim()) {
      setValue(project.name);
      return;
    }
    setSaving(true);
    await actions.rename(value);
    setSaving(false);
  }
  return html`<div class="project-name">
    <input class="name-input" aria-label="Project name" maxlength="120" value=${value}
      aria-invalid=${error ? "true" : undefined} aria-describedby=${error ? "rename-error" : undefined}
      onInput=${(e) => setValue(e.currentTarget.value)}
      onFocus=${() => { focused.current = true; }}
      onBlur=${() => { focused.current = false; save(); }}
      onKeyDown=${(e) => {
        if (e.key === "Enter") e.currentTarget.blur();
        if (e.key === "Escape") { setValue(project.name); store.set({ renameError: "" }); }
      }} />
    ${saving && html`<span class="saving">Saving…</span>`}
    ${error && html`<span id="rename-error" class="inline-error" role="alert">${error}</span>`}
  </div>`;
}

export function TopBar({ store, actions }) {
  const connection = useStore(store, (s) => s.connection);
  return html`
    <a class="back" href="/"><${Icon} name="back" /> Projects</a>
    <span class="brand" aria-hidden="true">Macaron <span>studio</span></span>
    <${ProjectName} store=${store} actions=${actions} />
    <div class="topbar-end">
      <span class="connection" id="connection" role="status" data-state=${connection}>
        ${CONNECTION[connection] || connection}</span>
      <${Publish} store=${store} />
      <${ShortcutsHelp} />
      <button type="submit" form="signout" class="quiet">Sign out</button>
    </div>`;
}
