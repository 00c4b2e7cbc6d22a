// The studio's icons: stroked 24px paths, decorative (their buttons carry the names).
import { html } from "./lib.js";

const PATHS = {
  generated: "M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8zM19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z",
  refined: "M4 20h4L19 9l-4-4L4 16zM14 6l4 4M17 17l1 2 2 1-2 1-1 2-1-2-2-1 2-1z",
  targeted: "M12 3v4M12 17v4M3 12h4M17 12h4M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8z",
  edited: "M4 20h4L19 9l-4-4L4 16zM14 6l4 4",
  reverted: "M4 12a8 8 0 1 0 2.3-5.7M4 4v4h4",
  forked: "M7 4v5a3 3 0 0 0 3 3h4a3 3 0 0 1 3 3v5M17 4v5M7 20v-4",
  undo: "M9 14L4 9l5-5M4 9h10a6 6 0 0 1 0 12h-3",
  redo: "M15 14l5-5-5-5M20 9H10a6 6 0 0 0 0 12h3",
  close: "M6 6l12 12M18 6L6 18",
  up: "M12 19V5M6 11l6-6 6 6",
  down: "M12 5v14M6 13l6 6 6-6",
  duplicate: "M8 8h11v11H8zM5 16V5h11",
  trash: "M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13",
  wrap: "M3 7V4h3M18 4h3v3M21 17v3h-3M6 20H3v-3M8 9h8v6H8z",
  compare: "M9 4v16M15 4v16M4 8h5M15 16h5",
  cursor: "M5 3l6 16 2-7 7-2z",
  hand: "M8 13V5.5a1.5 1.5 0 0 1 3 0V12M11 11.5v-2a1.5 1.5 0 0 1 3 0V12M14 10.5a1.5 1.5 0 0 1 3 0V12M17 11.5a1.5 1.5 0 0 1 3 0V16a6 6 0 0 1-6 6h-2a6 6 0 0 1-5-2.7L4 15a1.5 1.5 0 0 1 2.5-1.6L8 15",
  stop: "M7 7h10v10H7z",
  back: "M15 6l-6 6 6 6",
  download: "M12 4v11M7 10l5 5 5-5M5 20h14",
  upload: "M12 16V4M7 9l5-5 5 5M5 20h14",
  terminal: "M4 6l6 6-6 6M12 19h8",
};

export function Icon({ name, size = 16 }) {
  return html`<svg class="icon" width=${size} height=${size} viewBox="0 0 24 24" aria-hidden="true"
    focusable="false" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"
    stroke-linejoin="round"><path d=${PATHS[name] || ""} /></svg>`;
}
