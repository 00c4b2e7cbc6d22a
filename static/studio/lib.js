// The studio's one view library: Preact components written with htm's tagged templates, so
// the page needs no build step and no eval (htm parses templates with plain string code).
import { h, render } from "preact";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import htm from "htm";

export const html = htm.bind(h);
export { render, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState };
