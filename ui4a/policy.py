"""Every Content-Security-Policy a view is shown under, built in one place from `ui4a.assets`.

Each surface (the studio page that holds the preview, a standalone view's response header, the
`<meta>` policy inside every view document, an exported file) once had its own hand-written
policy, and one of them forgot Chart.js. Here the view's inline scripts and styles are hashed
once, from the same lists `render_document` inlines, and the surfaces differ only in the
directives that are theirs: the page's own sources, framing, a CSP sandbox, images.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum

from ui4a import assets
from ui4a.images import image_origins


class Surface(StrEnum):
    VIEW_META = "view-meta"  # the <meta> policy inside every view document
    VIEW_HEADER = "view-header"  # a standalone view's header: API view, thumbnail, widget
    EXPORTED_FILE = "exported-file"  # the <meta> policy of a download opened from file://
    STUDIO_PAGE = "studio-page"  # the page whose srcdoc preview inherits its policy


# A frame-ancestors source: a keyword, or a scheme://host[:port] origin. Anything else (a ";"
# or "," above all) could smuggle a directive into the header, so it is refused.
_ANCESTOR = re.compile(r"'none'|'self'|https?://[a-z0-9.-]+(:[0-9]{1,5})?|\*\.[a-z0-9.-]+", re.I)

# The view's rules, shared by every surface that shows one; a page-level surface widens them.
_VIEW_RULES = {
    "default-src": ["'none'"],
    "img-src": ["data:"],  # and the operator's image origins (ui4a/images.py)
    "connect-src": ["'none'"],
    "form-action": ["'none'"],
    "base-uri": ["'none'"],
}


def policy_for(
    surface: Surface,
    *,
    frame_ancestors: Sequence[str] | str = "'none'",
    page_scripts: Sequence[str] = (),
) -> str:
    """The policy of `surface`.

    `frame_ancestors`: who may frame a view served with a header (VIEW_HEADER only; a meta
    policy cannot carry it). `page_scripts`: the hosting page's own inline scripts (the studio's
    import map), allowed by hash beside the view's (STUDIO_PAGE only).
    """
    ancestors = _ancestors(frame_ancestors)
    if page_scripts and surface is not Surface.STUDIO_PAGE:
        raise ValueError(f"only the studio page has inline scripts of its own, not {surface}")
    if ancestors != ["'none'"] and surface is not Surface.VIEW_HEADER:
        raise ValueError(f"frame-ancestors only applies to a view's header, not {surface}")
    view_scripts = [assets.csp_hash(s) for s in assets.scripts()]
    view_styles = [assets.csp_hash(s) for s in assets.styles()]
    rules = {
        "default-src": _VIEW_RULES["default-src"],
        "script-src": view_scripts,
        "style-src": view_styles,
        **{k: v for k, v in _VIEW_RULES.items() if k != "default-src"},
    }
    # No remote image unless the operator allows its origin: an image URL the model wrote could
    # carry the page's data to any host (ui4a/images.py).
    rules["img-src"] = ["data:", *image_origins()]
    if surface is Surface.EXPORTED_FILE:
        # A file is opened wherever it travels: it makes no request at all, not even for an
        # image (a remote image would tell its host each time someone opens the file).
        rules["img-src"] = ["data:"]
    elif surface is Surface.VIEW_HEADER:
        rules["frame-ancestors"] = ancestors
        # A CSP sandbox: even a view opened at top level gets an opaque origin.
        rules["sandbox"] = ["allow-scripts", "allow-forms"]
    elif surface is Surface.STUDIO_PAGE:
        page = [assets.csp_hash(s) for s in page_scripts]
        rules = {
            "default-src": ["'self'"],
            "script-src": ["'self'", *view_scripts, *page],
            "style-src": ["'self'", *view_styles],
            "img-src": ["'self'", "data:", *image_origins()],
            "connect-src": ["'self'"],
            "frame-src": ["'self'"],
            "object-src": ["'none'"],
            "base-uri": ["'none'"],
            "form-action": ["'self'"],
            "frame-ancestors": ["'none'"],
        }
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in rules.items())


def _ancestors(frame_ancestors: Sequence[str] | str) -> list[str]:
    sources = frame_ancestors.split() if isinstance(frame_ancestors, str) else list(frame_ancestors)
    if not sources:
        return ["'none'"]
    for source in sources:
        if not _ANCESTOR.fullmatch(source):
            raise ValueError(f"{source!r} is not a frame-ancestors source (an origin or 'self')")
    if "'none'" in sources and len(sources) > 1:
        raise ValueError("'none' cannot be combined with other frame-ancestors sources")
    return sources
