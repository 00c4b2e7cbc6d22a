"""Content-Security-Policies: the studio page's, and a standalone view's.

The preview is a srcdoc frame, and srcdoc documents inherit their parent's policy on top of
their own; so the studio allows exactly the view's inline scripts and styles (as listed by
`ui4a.assets`) and its own import map by hash, and nothing else inline.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from asgiref.sync import markcoroutinefunction
from django.http import HttpRequest, HttpResponse

from studio.web import importmap
from ui4a import assets


def studio_policy() -> str:
    """The view's inline scripts and style (for the srcdoc preview) and the page's import map
    are allowed by hash; the page's own modules come from 'self'."""
    inline = [*assets.scripts(), importmap.import_map()]
    scripts = " ".join(assets.csp_hash(s) for s in inline)
    style = " ".join(assets.csp_hash(s) for s in assets.styles())
    return (
        f"default-src 'self'; script-src 'self' {scripts}; style-src 'self' {style}; "
        "img-src 'self' https: data:; connect-src 'self'; frame-src 'self'; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )


def view_policy(*, frame_ancestors: str = "'none'") -> str:
    """A standalone view's header policy: its meta policy's rules (no network, our runtime
    only), no framing (or only by `frame_ancestors`, for the projects page's thumbnails), and
    a CSP sandbox so even a top-level view gets an opaque origin."""
    # Exactly what `ui4a.render_document` inlines (chart.js included, or charts never draw).
    policy = assets.content_security_policy(assets.scripts(), assets.styles())
    return f"{policy}; frame-ancestors {frame_ancestors}; sandbox allow-scripts allow-forms"


class ContentSecurityPolicyMiddleware:
    """Async-capable, so it never pushes async views into a worker thread (where a client's
    disconnect could not cancel them; see `studio.web.static_files`)."""

    sync_capable = False
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Awaitable[HttpResponse]]) -> None:
        self.get_response = get_response
        markcoroutinefunction(self)

    async def __call__(self, request: HttpRequest) -> HttpResponse:
        response = await self.get_response(request)
        if response.get("Content-Type", "").startswith("text/html"):
            response.setdefault("Content-Security-Policy", studio_policy())
        return response
