// Keyboard shortcuts, and the small help that lists them. Undo and redo leave a text field's
// own undo alone: they act only when the focus is not in a field.
import { html } from "./lib.js";

const isMac = /Mac|iPhone|iPad/.test(navigator.platform || "");
const MOD = isMac ? "⌘" : "Ctrl";

export const SHORTCUTS = [
  [MOD + " Enter", "Generate, or refine the current version"],
  [MOD + " Z", "Undo the last edit"],
  [MOD + " Shift Z", "Redo (also Ctrl Y)"],
  ["Escape", "Clear the selection"],
];

function typing(target) {
  if (!target || !target.closest) return false;
  return !!target.closest("input, textarea, select, [contenteditable='true']");
}

export function installShortcuts({ generate, undo, redo, clearSelection }) {
  document.addEventListener("keydown", (event) => {
    const mod = isMac ? event.metaKey : event.ctrlKey;
    const key = event.key.toLowerCase();
    if (mod && key === "enter") {
      event.preventDefault();
      generate();
    } else if (mod && key === "z" && !typing(event.target)) {
      event.preventDefault();
      if (event.shiftKey) redo();
      else undo();
    } else if (event.ctrlKey && key === "y" && !typing(event.target)) {
      event.preventDefault();
      redo();
    } else if (key === "escape" && !event.defaultPrevented) {
      clearSelection();
    }
  });
}

export function ShortcutsHelp() {
  return html`<details class="shortcuts">
    <summary>Shortcuts</summary>
    <dl class="shortcuts-list">
      ${SHORTCUTS.map(([keys, what]) => html`<div>
        <dt>${keys.split(" ").map((k) => html`<kbd>${k}</kbd>`)}</dt><dd>${what}</dd></div>`)}
    </dl>
  </details>`;
}
