// The inspector: the selected node's fields (from the catalog), its structure (move, duplicate,
// wrap, delete), the page's title and theme, and the developer's view of spec and state.
import { html } from "./lib.js";
import { useStore } from "./store.js";
import { describe, nodeAt, parentOf } from "./spec.js";
import { FieldEditor } from "./fields.js";
import { ops } from "./ops.js";
import { Icon } from "./icons.js";
import { Developer } from "./developer.js";

function Structure({ pointer, spec, actions, disabled, error }) {
  const at = parentOf(pointer);
  const siblings = at ? (nodeAt(spec, at.parent) || {}).c || [] : [];
  const button = (label, icon, op, off, danger) => html`<button type="button"
    class=${"tool" + (danger ? " danger" : "")} disabled=${disabled || off} title=${label}
    onClick=${() => actions.edit(op(), "structure")}><${Icon} name=${icon} /><span>${label}</span></button>`;
  return html`<div class="structure" role="group" aria-label="Structure">
    ${button("Move up", "up", () => ops.move(pointer, -1), !at || at.index === 0)}
    ${button("Move down", "down", () => ops.move(pointer, 1), !at || at.index >= siblings.length - 1)}
    ${button("Duplicate", "duplicate", () => ops.duplicate(pointer), !at)}
    ${button("Wrap in card", "wrap", () => ops.wrap(pointer), !at)}
    ${button("Delete", "trash", () => ops.remove(pointer), !at, true)}
  </div>
  ${error && html`<p class="field-error" role="alert">${error}</p>`}`;
}

function NodeFields({ node, pointer, catalog, version, actions, errors, disabled }) {
  const component = catalog.components[node.t];
  if (!component) {
    return html`<p class="empty-note">The catalog has no component "${node.t}"; edit it by prompt.</p>`;
  }
  const fields = [...component.fields, ...catalog.common.filter((c) => !component.fields.some((f) => f.name === c.name))];
  return html`<div class="fields">
    ${fields.map((field) => html`<${FieldEditor} key=${version + pointer + field.name} field=${field}
      value=${node[field.name]} error=${errors[field.name]} disabled=${disabled}
      onCommit=${(parsed) => actions.edit(
        parsed.empty && !field.required ? ops.unset(pointer, field.name)
          : ops.set(pointer, field.name, parsed.empty ? "" : parsed.value),
        field.name)} />`)}
  </div>`;
}

function Selected({ store, actions }) {
  const [selection, current, catalog, catalogError, errors, readOnly] = useStore(store, (s) => [
    s.selection, s.current, s.catalog, s.catalogError, s.editErrors, !!(s.viewing || s.compare),
  ]);
  if (!selection || !current) return null;
  const node = nodeAt(current.spec, selection.node);
  if (!node) {
    return html`<section class="inspector-section" aria-labelledby="selected-title">
      <h2 id="selected-title" class="section-title">Selected</h2>
      <p class="empty-note">The selected element is not in the current version any more.</p>
    </section>`;
  }
  const name = describe(node, selection.kind, selection.label);
  return html`<section class="inspector-section" aria-labelledby="selected-title">
    <div class="selected-head">
      <h2 id="selected-title" class="section-title">${name}</h2>
      <button type="button" class="icon-only" aria-label="Clear the selection" title="Clear the selection (Escape)"
        onClick=${() => actions.select(null)}><${Icon} name="close" /></button>
    </div>
    <p class="pointer"><code>${selection.node}</code></p>
    ${readOnly && html`<p class="empty-note">This is the current version's element; go back to the current version to edit it.</p>`}
    <${Structure} pointer=${selection.node} spec=${current.spec} actions=${actions}
      disabled=${readOnly} error=${errors.structure} />
    ${catalogError && html`<p class="inline-error" role="alert">${catalogError}</p>`}
    ${catalog && html`<${NodeFields} node=${node} pointer=${selection.node} catalog=${catalog}
      version=${current.id} actions=${actions} errors=${errors} disabled=${readOnly} />`}
  </section>`;
}

function Page({ store, actions }) {
  const [current, catalog, errors, readOnly, selection] = useStore(store, (s) => [
    s.current, s.catalog, s.editErrors, !!(s.viewing || s.compare), s.selection,
  ]);
  if (!current) {
    return html`<section class="inspector-section"><h2 class="section-title">Inspector</h2>
      <p class="empty-note">Once the first version exists, select an element in the preview to edit it here.</p></section>`;
  }
  const spec = current.spec || {};
  const theme = spec.theme && typeof spec.theme === "object" ? spec.theme : {};
  const themeFields = catalog ? catalog.theme : [];
  return html`
    ${!selection && html`<section class="inspector-section">
      <h2 class="section-title">Inspector</h2>
      <p class="empty-note">Switch the preview to <strong>Select</strong> and click an element to edit it.</p>
      <${FieldEditor} key=${current.id + "title"} idPrefix="page" field=${{ name: "title", kind: "str", required: false, values: [], default: null, doc: "" }}
        value=${spec.title} error=${errors.title} disabled=${readOnly}
        onCommit=${(parsed) => actions.edit(ops.title(parsed.empty ? "" : parsed.value), "title")} />
    </section>`}
    <section class="inspector-section" aria-labelledby="theme-title">
      <h2 id="theme-title" class="section-title">Theme</h2>
      <div class="theme-grid">
        ${themeFields.map((field) => html`<${FieldEditor} key=${current.id + "theme" + field.name}
          idPrefix="theme" field=${field} value=${theme[field.name] || field.default}
          error=${errors["theme:" + field.name]} disabled=${readOnly}
          onCommit=${(parsed) => actions.edit(ops.theme(field.name, parsed.value), "theme:" + field.name)} />`)}
      </div>
    </section>`;
}

export function Inspector({ store, actions, experts }) {
  return html`
    <${Selected} store=${store} actions=${actions} />
    <${Page} store=${store} actions=${actions} />
    <${Developer} store=${store} experts=${experts} />`;
}
