"""The WebSocket's origin check: scheme, host and port must all match an allowed origin.

A session cookie is sent to every port of a host, so a page served by anything else on the
studio's host (`http://localhost:9999`) could otherwise open the studio's socket as its user.
Channels' `AllowedHostsOriginValidator` compares host names only; this compares whole origins.

Allowed: the origin the request was addressed to (its Host header, which must be in
ALLOWED_HOSTS, with https when the connection or a trusted proxy says TLS), and each of
CSRF_TRUSTED_ORIGINS (exact origins, as `MACARON_PUBLIC_ORIGIN` sets them). A socket with no
Origin header is refused, as before: browsers always send one."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

Origin = tuple[str, str, int]
DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(text: str) -> Origin | None:
    """(scheme, host, port) with the scheme's default port filled in; None if malformed."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _behind_tls(scope: dict[str, Any]) -> bool:
    if scope.get("scheme") == "wss":
        return True
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not proxy_header:
        return False
    name, expected = proxy_header  # e.g. ("HTTP_X_FORWARDED_PROTO", "https")
    header = name.removeprefix("HTTP_").lower().replace("_", "-").encode()
    return bool(_header(scope, header) == expected)


def own_origin(scope: dict[str, Any]) -> Origin | None:
    """The origin the socket was addressed to, if its host is one this site serves."""
    host = _header(scope, b"host")
    if not host or not validate_host(split_domain_port(host)[0], settings.ALLOWED_HOSTS):
        return None
    return origin_of(("https" if _behind_tls(scope) else "http") + "://" + host)


def allowed_origins(scope: dict[str, Any]) -> set[Origin]:
    trusted: Iterable[str] = getattr(settings, "CSRF_TRUSTED_ORIGINS", ())
    origins = {origin for text in trusted if (origin := origin_of(text))}
    if own := own_origin(scope):
        origins.add(own)
    return origins


class SameOriginWebSockets:
    """ASGI middleware: a WebSocket whose Origin is not allowed is refused before its app."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        header = _header(scope, b"origin")
        origin = origin_of(header) if header else None
        if origin is None or origin not in allowed_origins(scope):
            await WebsocketDenier()(scope, receive, send)
            return
        await self.app(scope, receive, send)
