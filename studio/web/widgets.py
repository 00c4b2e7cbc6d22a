"""A published widget's public page (`/w/<id>`, no sign-in) and the embed loader (`/w/embed.js`).

The page is a view document under the standalone view policy, framed only by the widget's
allowed origins: its `frame-ancestors` lists exactly them ('none' for a link-only widget), and
Django's `X-Frame-Options: DENY` is lifted on these views alone, since a browser would obey it
over the CSP's allowlist.
"""

from __future__ import annotations

import html
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET

from studio.errors import InvalidRequest, NotFound
from studio.services.widgets import WidgetUnpublished, frame_ancestors_source, widget_page
from studio.web.security import view_policy

EMBED_JS = Path(settings.BASE_DIR) / "static" / "widgets" / "embed.js"
MAX_HOST_PARAM_CHARS = 300
_embed_cache: dict[str, tuple[int, bytes]] = {}


def _plain_page(status: int, title: str, message: str, frame_ancestors: str) -> HttpResponse:
    """A small page with no script or style; the widget's hosts may frame it (so a host shows
    why its widget is gone, not a browser error)."""
    body = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title></head><body><h1>{html.escape(title)}</h1>"
        f"<p>{html.escape(message)}</p></body></html>"
    )
    response = HttpResponse(body, status=status, content_type="text/html; charset=utf-8")
    response["Content-Security-Policy"] = (
        f"default-src 'none'; base-uri 'none'; form-action 'none'; "
        f"frame-ancestors {frame_ancestors}; sandbox"
    )
    response["Cache-Control"] = "no-store"
    return response


@require_GET
@xframe_options_exempt
def widget(request: HttpRequest, public_id: str) -> HttpResponse:
    host = request.GET.get("host")
    if host is not None and len(host) > MAX_HOST_PARAM_CHARS:
        host = host[:MAX_HOST_PARAM_CHARS] + "…"  # refused below, without echoing all of it
    try:
        page = widget_page(public_id=public_id[:64], host=host)
    except WidgetUnpublished as exc:
        ancestors = frame_ancestors_source(exc.frame_ancestors)
        return _plain_page(410, "Widget unpublished", exc.message, ancestors)
    except NotFound as exc:
        return _plain_page(404, "No such widget", exc.message, "'none'")
    except InvalidRequest as exc:
        return _plain_page(400, "Cannot show this widget", exc.message, "'none'")
    response = HttpResponse(page.html, content_type="text/html; charset=utf-8")
    response["Content-Security-Policy"] = view_policy(
        frame_ancestors=frame_ancestors_source(page.frame_ancestors)
    )
    # Every view is counted, an unpublish is immediate, and a "latest" widget moves on.
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def embed_js(request: HttpRequest) -> HttpResponse:
    """The loader host pages include: static, cacheable, loadable from any site."""
    mtime = EMBED_JS.stat().st_mtime_ns
    cached = _embed_cache.get("embed")
    if cached is None or cached[0] != mtime:
        cached = _embed_cache["embed"] = (mtime, EMBED_JS.read_bytes())
    response = HttpResponse(cached[1], content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "public, max-age=3600"
    response["Cross-Origin-Resource-Policy"] = "cross-origin"
    return response
