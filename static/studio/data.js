// The data panel: the project's datasets (uploaded files and pasted tables) with their size and
// version; upload or paste a new one; open one to preview its first rows, correct a column's
// type (a new version), upload a new version, rename or delete it. Errors show in place, and
// what the designer typed or picked stays put when the server refuses it.
import { html, useEffect, useRef, useState } from "./lib.js";
import { call } from "./api.js";
import { ago } from "./timeline.js";
import { Icon } from "./icons.js";

const TYPES = ["number", "date", "category", "text", "boolean"];
const ACCEPT = ".csv,.tsv,.tab,.txt,.json,.xlsx,text/csv,application/json";
const UPLOAD_TIMEOUT_MS = 120000;

const base = (project) => "/p/" + encodeURIComponent(project) + "/datasets";
const one = (project, name, rest) => base(project) + "/" + encodeURIComponent(name) + "/" + rest;

export const dataApi = {
  list: (project) => call("GET", base(project)),
  upload(project, file, name) {
    const form = new FormData();
    form.append("file", file);
    if (name) form.append("name", name);
    return call("POST", base(project) + "/upload", form, { timeoutMs: UPLOAD_TIMEOUT_MS });
  },
  paste: (project, text, name) => call("POST", base(project) + "/paste", { text, name }),
  rows: (project, name) => call("GET", one(project, name, "rows")),
  setType: (project, name, column, type) => call("POST", one(project, name, "type"), { column, type }),
  rename: (project, name, to) => call("POST", one(project, name, "rename"), { name: to }),
  remove: (project, name) => call("POST", one(project, name, "delete")),
};

const plural = (n, word) => `${n.toLocaleString()} ${word}${n === 1 ? "" : "s"}`;

function megabytes(bytes) {
  return bytes >= 1048576 ? `${Math.round(bytes / 1048576)} MB` : `${bytes.toLocaleString()} bytes`;
}

// Checked here first: a browser still sending a 200 MB body often reports the server's early
// refusal as a network error, so the designer would not see the server's message.
function tooLarge(file, limits) {
  if (!limits || file.size <= limits.max_bytes) return "";
  return `${file.name} is ${megabytes(file.size)}; files are limited to ${megabytes(limits.max_bytes)}.`;
}

// What an upload did, in a sentence: a new dataset or a new version, and the columns it added
// or dropped (a view that used a dropped column has nothing to show there).
export function savedMessage(source, data) {
  let text = data.version > 1
    ? `${source} is version ${data.version} of “${data.dataset}”.`
    : `Added ${source} as “${data.dataset}”.`;
  const changes = data.changes || {};
  if (changes.removed && changes.removed.length) {
    text += ` Columns gone: ${changes.removed.join(", ")}; views that used them show nothing there.`;
  }
  if (changes.added && changes.added.length) text += ` New columns: ${changes.added.join(", ")}.`;
  return text;
}

function FileButton({ id, label, onFile, disabled }) {
  return html`<label class=${"file-button" + (disabled ? " disabled" : "")} for=${id}>
    <${Icon} name="upload" />${label}
    <input id=${id} type="file" class="sr-only" accept=${ACCEPT} disabled=${disabled}
      onChange=${(e) => { const file = e.currentTarget.files[0]; e.currentTarget.value = ""; if (file) onFile(file); }} />
  </label>`;
}

function Cell({ value, type }) {
  if (value === null || value === undefined) return html`<td class="missing"><span aria-label="missing">–</span></td>`;
  if (type === "boolean") return html`<td>${value ? "true" : "false"}</td>`;
  return html`<td class=${type === "number" ? "num" : undefined}>${String(value)}</td>`;
}

function Preview({ project, name, onChanged, onClose }) {
  const [preview, setPreview] = useState(null);
  const [error, setError] = useState("");
  const [typeError, setTypeError] = useState("");
  const [busy, setBusy] = useState("");
  const [newName, setNewName] = useState(name);
  const [renameError, setRenameError] = useState("");
  const [notice, setNotice] = useState("");
  const dialog = useRef(null);

  async function load() {
    const result = await dataApi.rows(project, name);
    if (result.ok) { setPreview(result.data); setError(""); } else setError(result.error.message);
  }
  useEffect(() => { setNewName(name); load(); }, [name]);
  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
  }, []);

  async function setType(column, type) {
    setBusy("type"); setTypeError("");
    const result = await dataApi.setType(project, name, column, type);
    setBusy("");
    if (!result.ok) { setTypeError(result.error.message); return; }
    setPreview(result.data.preview);
    onChanged(result.data);
  }

  async function rename(event) {
    event.preventDefault();
    if (newName === name) return;
    setBusy("rename"); setRenameError("");
    const result = await dataApi.rename(project, name, newName);
    setBusy("");
    if (!result.ok) { setRenameError(result.error.message); return; }
    onChanged(result.data, result.data.dataset);
  }

  async function uploadVersion(file) {
    setBusy("upload"); setError(""); setNotice("");
    const result = await dataApi.upload(project, file, name);
    setBusy("");
    if (!result.ok) { setError(`${file.name}: ${result.error.message}`); return; }
    onChanged(result.data);
    setNotice(savedMessage(file.name, result.data));
    load();
  }

  async function remove() {
    if (!window.confirm(`Delete the dataset "${name}" and all its versions? Views that use it will show no rows.`)) return;
    setBusy("delete");
    const result = await dataApi.remove(project, name);
    setBusy("");
    if (!result.ok) { setError(result.error.message); return; }
    onChanged(result.data, null);
  }

  const version = preview && preview.version;
  const columns = version ? version.columns : [];
  return html`<dialog class="data-dialog" ref=${dialog} aria-labelledby="data-dialog-title"
      onClose=${onClose} onCancel=${onClose}>
    <div class="data-dialog-head">
      <h2 id="data-dialog-title">Dataset <code>${name}</code></h2>
      <button type="button" class="icon-only" aria-label="Close the dataset" onClick=${onClose}>
        <${Icon} name="close" /></button>
    </div>
    ${version && html`<p class="data-meta">${[
      `Version ${version.number}`, plural(version.row_count, "row"), plural(columns.length, "column"),
      version.label, version.author, ago(version.created_at),
    ].filter(Boolean).join(" · ")}</p>`}
    <div class="data-tools">
      <form class="rename-form" onSubmit=${rename}>
        <label for="dataset-name">Name in specs</label>
        <input id="dataset-name" value=${newName} spellcheck="false" aria-invalid=${renameError ? "true" : undefined}
          aria-describedby=${renameError ? "dataset-name-error" : undefined}
          onInput=${(e) => setNewName(e.currentTarget.value)} />
        <button type="submit" class="quiet small" disabled=${!!busy || newName === name}>Rename</button>
      </form>
      <span class="grow"></span>
      <${FileButton} id="dataset-version-file" label="Upload a new version" disabled=${!!busy}
        onFile=${uploadVersion} />
      <button type="button" class="quiet small danger-text" disabled=${!!busy} onClick=${remove}>
        <${Icon} name="trash" />Delete</button>
    </div>
    ${renameError && html`<p id="dataset-name-error" class="inline-error" role="alert">${renameError}</p>`}
    ${error && html`<p class="inline-error" role="alert">${error}</p>`}
    ${typeError && html`<p class="inline-error" role="alert">${typeError}</p>`}
    ${notice && html`<p class="status" role="status">${notice}</p>`}
    ${busy && html`<p class="status" role="status">${busy === "upload" ? "Uploading…" : "Saving…"}</p>`}
    ${!preview && !error && html`<p class="status" role="status">Loading rows…</p>`}
    ${preview && html`<div class="table-scroll data-table" tabindex="0" role="region" aria-label="Rows of ${name}">
      <table>
        <caption class="sr-only">The first ${preview.rows.length} rows of ${name}</caption>
        <thead><tr>
          <th scope="col" class="row-number">Row</th>
          ${columns.map((c) => html`<th scope="col" key=${c.name}>
            <span class="col-label">${c.label}</span>
            ${c.label !== c.name && html`<code class="col-name">${c.name}</code>`}
            <label class="sr-only" for=${"type-" + c.name}>Type of ${c.label}</label>
            <select id=${"type-" + c.name} value=${c.type} disabled=${!!busy}
              onChange=${(e) => setType(c.name, e.currentTarget.value)}>
              ${TYPES.map((t) => html`<option value=${t}>${t}${t === c.inferred && c.type !== c.inferred ? " (guessed)" : ""}</option>`)}
            </select>
          </th>`)}
        </tr></thead>
        <tbody>
          ${preview.rows.map((row, i) => html`<tr key=${i}>
            <th scope="row" class="row-number">${preview.row_numbers ? preview.row_numbers[i] : version.first_row + i}</th>
            ${row.map((value, j) => html`<${Cell} value=${value} type=${columns[j].type} />`)}
          </tr>`)}
        </tbody>
      </table>
    </div>
    <p class="data-foot">${preview.rows.length < version.row_count
      ? `Showing the first ${preview.rows.length} of ${plural(version.row_count, "row")}.`
      : `All ${plural(version.row_count, "row")}.`} Specs refer to this dataset as <code>${name}</code> and
      to each column by its name (shown under its header where it differs); views get the real
      rows when they are drawn.</p>`}
  </dialog>`;
}

export function DataPanel({ project }) {
  const [datasets, setDatasets] = useState(null);
  const [limits, setLimits] = useState(null);
  const [error, setError] = useState("");
  const [status, setStatus] = useState("");
  const [pasting, setPasting] = useState(false);
  const [pasteText, setPasteText] = useState("");
  const [pasteName, setPasteName] = useState("");
  const [open, setOpen] = useState(null);
  const projectId = project && project.id;

  useEffect(() => {
    if (!projectId) return;
    dataApi.list(projectId).then((result) => {
      if (result.ok) { setDatasets(result.data.datasets); setLimits(result.data.limits || null); }
      else setError("The data panel could not load the datasets: " + result.error.message);
    });
  }, [projectId]);

  function changed(data, nowOpen) {
    setDatasets(data.datasets);
    if (nowOpen !== undefined) setOpen(nowOpen);
  }

  async function uploadFile(file) {
    const refused = tooLarge(file, limits);
    if (refused) { setError(refused); return; }
    setError(""); setStatus(`Uploading ${file.name}…`);
    const result = await dataApi.upload(projectId, file, "");
    setStatus("");
    if (!result.ok) { setError(`${file.name}: ${result.error.message}`); return; }
    changed(result.data);
    setStatus(savedMessage(file.name, result.data));
  }

  async function paste(event) {
    event.preventDefault();
    setError(""); setStatus("Reading the table…");
    const result = await dataApi.paste(projectId, pasteText, pasteName.trim());
    setStatus("");
    if (!result.ok) { setError(result.error.message); return; }
    changed(result.data);
    setPasting(false); setPasteText(""); setPasteName("");
    setStatus(savedMessage("The pasted table", result.data));
  }

  if (!projectId) return null;
  return html`<section class="data-panel" aria-labelledby="data-title">
    <div class="data-head">
      <h2 id="data-title" class="section-title">Data</h2>
      <span class="grow"></span>
      <${FileButton} id="dataset-file" label="Upload" onFile=${uploadFile} />
      <button type="button" class="quiet small" aria-expanded=${pasting ? "true" : "false"}
        aria-controls="paste-form" onClick=${() => setPasting(!pasting)}>Paste</button>
    </div>
    ${pasting && html`<form id="paste-form" class="paste-form" onSubmit=${paste}>
      <label for="paste-text">Table (copy cells from a spreadsheet, or type CSV)</label>
      <textarea id="paste-text" rows="5" spellcheck="false" value=${pasteText}
        placeholder=${"region\trevenue\nNorth\t1200"} onInput=${(e) => setPasteText(e.currentTarget.value)}></textarea>
      <div class="paste-controls">
        <label for="paste-name">Name</label>
        <input id="paste-name" value=${pasteName} placeholder="pasted" spellcheck="false"
          onInput=${(e) => setPasteName(e.currentTarget.value)} />
        <button type="submit" class="small" disabled=${!pasteText.trim()}>Add table</button>
      </div>
    </form>`}
    <p class="status" role="status" aria-live="polite">${status}</p>
    ${error && html`<p class="inline-error" role="alert">${error}</p>`}
    ${datasets && datasets.length === 0 && !pasting && html`<p class="empty-note">No data yet. Upload a
      CSV, TSV, JSON or XLSX file${limits ? ` (up to ${megabytes(limits.max_bytes)}, ${limits.max_rows.toLocaleString()} rows)` : ""},
      or paste a table: dashboards then show your rows.</p>`}
    ${datasets && datasets.length > 0 && html`<ul class="datasets">
      ${datasets.map((d) => html`<li key=${d.name}>
        <button type="button" class="dataset" aria-haspopup="dialog" onClick=${() => setOpen(d.name)}>
          <code class="dataset-name">${d.name}</code>
          <span class="dataset-meta">${d.current
            ? `${plural(d.current.row_count, "row")} · ${plural(d.current.columns.length, "column")} · v${d.current.number}`
            : "no version"}</span>
        </button>
      </li>`)}
    </ul>`}
    ${open && html`<${Preview} key=${open} project=${projectId} name=${open} onChanged=${changed}
      onClose=${() => setOpen(null)} />`}
  </section>`;
}
