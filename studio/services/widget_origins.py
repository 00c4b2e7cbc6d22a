"""Allowed origins of a published widget: parsed, checked and normalised to the exact
`scheme://host[:port]` form a browser sends, so they can go into `frame-ancestors` and be
compared with a `?host=` parameter as plain strings."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from studio.errors import InvalidRequest

MAX_ORIGINS = 10
MAX_ORIGIN_CHARS = 200
DEFAULT_PORTS = {"http": 80, "https": 443}
# A DNS name (after IDNA encoding) or an IPv4 address; IPv6 comes in brackets, checked apart.
HOST_NAME = re.compile(
    r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$"
)
IPV6 = re.compile(r"^\[[0-9a-f:.]{2,45}\]$")


def origin_normalise(value: object) -> str:
    """`https://Example.com:443/` -> `https://example.com`; anything that is not one exact web
    origin (a path, a wildcard, credentials, another scheme) is refused, naming the value."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidRequest(
            "bad_origin", "An allowed origin must be text like https://example.com."
        )
    text = value.strip()
    shown = text[:80]
    if len(text) > MAX_ORIGIN_CHARS:
        raise InvalidRequest(
            "bad_origin", f"{shown!r}… is longer than {MAX_ORIGIN_CHARS} characters."
        )
    if "*" in text:
        raise InvalidRequest("bad_origin", f"{shown!r}: wildcards are not allowed; list each site.")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise InvalidRequest("bad_origin", f"{shown!r} is not a web origin.") from None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise InvalidRequest("bad_origin", f"{shown!r}: an origin starts with https:// or http://.")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise InvalidRequest(
            "bad_origin", f"{shown!r}: an origin carries no user name or password."
        )
    if parts.path not in ("", "/") or parts.query or parts.fragment or text.endswith(("?", "#")):
        raise InvalidRequest(
            "bad_origin",
            f"{shown!r}: an origin has no path, query or fragment (just scheme://host).",
        )
    host = _host(parts.hostname or "", shown)
    if port is not None and port != DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}:{port}"
    return f"{scheme}://{host}"


def _host(hostname: str, shown: str) -> str:
    if ":" in hostname:  # urlsplit strips an IPv6 literal's brackets
        bracketed = f"[{hostname.lower()}]"
        if IPV6.match(bracketed):
            return bracketed
        raise InvalidRequest("bad_origin", f"{shown!r} has an unreadable IPv6 address.")
    try:
        ascii_host = hostname.rstrip(".").encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise InvalidRequest("bad_origin", f"{shown!r} has an invalid host name.") from None
    if not HOST_NAME.match(ascii_host):
        raise InvalidRequest("bad_origin", f"{shown!r} has no valid host name.")
    return ascii_host


def origins_clean(values: object) -> list[str]:
    """A list of origins, normalised, duplicates dropped, in the order given."""
    if values is None:
        return []
    if isinstance(values, str):
        values = values.split()
    if not isinstance(values, list):
        raise InvalidRequest("bad_origin", "'origins' must be a list of origins.")
    if len(values) > MAX_ORIGINS:
        raise InvalidRequest("too_many_origins", f"A widget allows at most {MAX_ORIGINS} origins.")
    clean: list[str] = []
    for value in values:
        origin = origin_normalise(value)
        if origin not in clean:
            clean.append(origin)
    return clean
