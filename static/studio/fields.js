// One editor per field kind of the catalog. Text-like fields commit when they lose focus (or
// on Enter), choices commit at once; each commit is one edit, so one version. What was typed
// stays in the field when the server refuses it, with the refusal right under it.
import { html, useRef, useState } from "./lib.js";
import { fieldLabel } from "./catalog.js";

const LINES = new Set(["strs", "filter"]);
const JSON_KINDS = new Set(["action", "record"]);
const LONG = new Set(["text", "md"]);

// The field's value as the editor shows it.
export function shown(kind, value) {
  if (value === undefined || value === null) return kind === "bool" ? false : "";
  if (LINES.has(kind)) return Array.isArray(value) ? value.join("\n") : String(value);
  if (JSON_KINDS.has(kind)) return JSON.stringify(value, null, 2);
  if (kind === "bool") return !!value;
  return String(value);
}

// What the editor's text means as a spec value; {error} when it cannot mean anything.
export function parse(kind, text) {
  if (kind === "bool") return { value: !!text };
  if (typeof text === "string" && !text.trim()) return { empty: true };
  if (LINES.has(kind)) return { value: text.split("\n").map((s) => s.trim()).filter(Boolean) };
  if (JSON_KINDS.has(kind)) {
    try {
      return { value: JSON.parse(text) };
    } catch (err) {
      return { error: "This is not valid JSON (" + err.message + "); nothing was changed." };
    }
  }
  if (kind === "num") {
    const n = Number(text);
    return isFinite(n) ? { value: n } : { error: "Enter a number; nothing was changed." };
  }
  if (kind === "scalar") {
    if (text === "true" || text === "false") return { value: text === "true" };
    if (/^-?[0-9]+(\.[0-9]+)?$/.test(text.trim())) return { value: Number(text) };
  }
  return { value: text };
}

export function FieldEditor({ field, value, error, disabled, onCommit, idPrefix = "field" }) {
  const kind = field.kind;
  const [text, setText] = useState(() => shown(kind, value));
  const [localError, setLocalError] = useState("");
  const sent = useRef(null); // Enter then blur must not send the same edit twice
  const id = idPrefix + "-" + field.name;
  const message = localError || error;
  const described = [field.doc ? id + "-doc" : "", message ? id + "-error" : ""].filter(Boolean).join(" ");

  function commit(next) {
    if (next === shown(kind, value) || next === sent.current) return;
    const parsed = parse(kind, next);
    if (parsed.error) {
      setLocalError(parsed.error);
      return;
    }
    setLocalError("");
    sent.current = next;
    onCommit(parsed);
  }

  const common = {
    id,
    disabled,
    "aria-invalid": message ? "true" : undefined,
    "aria-describedby": described || undefined,
  };
  let control;
  if (kind === "bool") {
    control = html`<input type="checkbox" ...${common} checked=${!!text}
      onChange=${(e) => { setText(e.currentTarget.checked); commit(e.currentTarget.checked); }} />`;
  } else if (kind === "enum") {
    const values = field.values.map(String);
    control = html`<select ...${common} value=${text}
      onChange=${(e) => { setText(e.currentTarget.value); commit(e.currentTarget.value); }}>
      ${!values.includes(text) && html`<option value="">${field.default !== null ? "Default (" + field.default + ")" : "—"}</option>`}
      ${values.map((v) => html`<option value=${v}>${v}</option>`)}
    </select>`;
  } else if (LONG.has(kind) || LINES.has(kind) || JSON_KINDS.has(kind)) {
    const rows = JSON_KINDS.has(kind) ? 4 : LINES.has(kind) ? 3 : 2;
    control = html`<textarea ...${common} rows=${rows} class=${JSON_KINDS.has(kind) ? "mono" : ""}
      value=${text} spellcheck=${JSON_KINDS.has(kind) ? "false" : undefined}
      onInput=${(e) => setText(e.currentTarget.value)}
      onBlur=${(e) => commit(e.currentTarget.value)}></textarea>`;
  } else {
    control = html`<input type=${kind === "num" ? "number" : "text"} ...${common} value=${text}
      onInput=${(e) => setText(e.currentTarget.value)}
      onBlur=${(e) => commit(e.currentTarget.value)}
      onKeyDown=${(e) => { if (e.key === "Enter") commit(e.currentTarget.value); }} />`;
  }
  const hint = LINES.has(kind) ? " (one per line)" : JSON_KINDS.has(kind) ? " (JSON)" : "";
  return html`<div class=${"field" + (kind === "bool" ? " field-check" : "")} data-field=${field.name}>
    <label for=${id}>${fieldLabel(field.name)}${hint}${field.required && html`<span class="req" aria-hidden="true"> *</span>`}</label>
    ${control}
    ${field.doc && html`<p class="field-doc" id=${id + "-doc"}>${field.doc}</p>`}
    ${message && html`<p class="field-error" id=${id + "-error"} role="alert">${message}</p>`}
  </div>`;
}
