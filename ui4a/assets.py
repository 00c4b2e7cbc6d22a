"""The browser assets a view document inlines and their CSP hashes.

A view inlines idiomorph, Chart.js and the runtime (in that order) and one stylesheet. The
runtime is the core (`static/ui4a/runtime.js`) with every component's `behaviour.js` joined in
at its parts mark, followed by the studio's design mode (`static/ui4a/design.js`, inert unless
a parent frame turns it on); the stylesheet is `static/ui4a/view.css` followed by every
component's `style.css` and the design mode's `design.css`. Both are joined once and re-joined
only when a piece changes, so their CSP hash is of exactly what is inlined.
Third-party code is read from the project's npm install (never copied into the repository);
the root of node_modules can be moved with MACARON_NODE_MODULES. `scripts()` and `styles()`
are the whole list; `ui4a.policy` builds every surface's policy from them.
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path

from ui4a import registry

PROJECT_ROOT = Path(__file__).resolve().parents[1]
STATIC_DIR = PROJECT_ROOT / "static" / "ui4a"
RUNTIME_JS = STATIC_DIR / "runtime.js"
VIEW_CSS = STATIC_DIR / "view.css"
DESIGN_JS = STATIC_DIR / "design.js"
DESIGN_CSS = STATIC_DIR / "design.css"

PARTS_MARK = "  /* ui4a:parts */\n"

_cache: dict[Path, tuple[int, str]] = {}
_joined: dict[str, tuple[tuple[int, ...], str]] = {}


def node_modules() -> Path:
    return Path(os.environ.get("MACARON_NODE_MODULES") or PROJECT_ROOT / "node_modules")


def idiomorph_path() -> Path:
    return node_modules() / "idiomorph" / "dist" / "idiomorph.js"


def _read(path: Path, closing_tag: str) -> str:
    """The file's text, re-read only when it changes (so a dev server sees edits)."""
    try:
        mtime = path.stat().st_mtime_ns
    except FileNotFoundError:
        raise FileNotFoundError(
            f"{path} is missing; run `npm ci` at the project root (or set MACARON_NODE_MODULES)"
        ) from None
    cached = _cache.get(path)
    if cached is None or cached[0] != mtime:
        text = path.read_text(encoding="utf-8")
        # Inlined as is (so its hash matches); a closing tag inside would end the element early.
        if closing_tag in text.lower():
            raise ValueError(f"{path} contains {closing_tag!r} and cannot be inlined")
        cached = _cache[path] = (mtime, text)
    return cached[1]


def chartjs_path() -> Path:
    return node_modules() / "chart.js" / "dist" / "chart.umd.min.js"


def axe_path() -> Path:
    """axe-core, for the accessibility tests only (a dev dependency, never inlined)."""
    return node_modules() / "axe-core" / "axe.min.js"


def idiomorph_js() -> str:
    return _read(idiomorph_path(), "</script")


@cache
def component_pieces(filename: str) -> tuple[Path, ...]:
    """Every component's piece called `filename`, in the catalog's (alphabetical) order; found
    once, like the catalog itself (edits to a piece are still picked up)."""
    return tuple(p for folder in registry.component_dirs() if (p := folder / filename).is_file())


def _join(
    name: str,
    base: Path,
    filename: str,
    closing_tag: str,
    glue: Callable[[str, str], str],
    tail: Path,
) -> str:
    """`base` with the components' pieces glued in and `tail` after it all; the same string
    object until one changes (csp_hash is cached by string, and Python keeps a string's hash)."""
    components = component_pieces(filename)
    pieces = [base, *components, tail]
    texts = [_read(p, closing_tag) for p in pieces]
    stamp = tuple(_cache[p][0] for p in pieces)
    cached = _joined.get(name)
    if cached is None or cached[0] != stamp:
        parts = "\n".join(
            f"  /* {p.parent.name}/{filename} */\n{t}"
            for p, t in zip(components, texts[1:-1], strict=True)
        )
        joined = f"{glue(texts[0], parts)}\n/* {tail.name} */\n{texts[-1]}"
        cached = _joined[name] = (stamp, joined)
    return cached[1]


def _into_core(core: str, parts: str) -> str:
    if core.count(PARTS_MARK) != 1:
        raise ValueError(f"{RUNTIME_JS} needs exactly one {PARTS_MARK.strip()!r} line")
    return core.replace(PARTS_MARK, parts)


def runtime_js() -> str:
    """The runtime core with every component's behaviour.js joined in, then design mode."""
    return _join("runtime", RUNTIME_JS, "behaviour.js", "</script", _into_core, DESIGN_JS)


def chartjs_js() -> str:
    return _read(chartjs_path(), "</script")


def view_css() -> str:
    """The base stylesheet followed by every component's style.css, then design mode's."""
    return _join(
        "view", VIEW_CSS, "style.css", "</style", lambda base, parts: base + parts, DESIGN_CSS
    )


def scripts() -> list[str]:
    """Every script a view document inlines, in document order."""
    return [idiomorph_js(), chartjs_js(), runtime_js()]


def styles() -> list[str]:
    """Every stylesheet a view document inlines."""
    return [view_css()]


@lru_cache(maxsize=32)
def csp_hash(text: str) -> str:
    """A CSP source expression allowing exactly this inline script or style."""
    # Cached: every document hashes the same ~200 kB of scripts, and _read hands out the same
    # string objects, whose hash Python keeps, so the lookup costs nothing.
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"
