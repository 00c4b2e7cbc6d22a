"""Where a view's images may come from: inline `data:image/` URLs, or origins the operator
allows. Nothing else, so that no view makes a request of its own.

An image URL is written by the model, and the model's context holds text others wrote (a pasted
page, an injected email): an `https://evil.example/?d=...` image would make every viewer's
browser report to that host, or fire GETs at intranet hosts. The operator may allow a few https
origins (`MACARON_IMAGE_ORIGINS`, space- or comma-separated, e.g. "https://cdn.example.com");
the default is none. Any other image is drawn as a local placeholder, and the views' CSP
img-src names the same origins (ui4a/policy.py).
"""

from __future__ import annotations

import os
import re
from urllib.parse import urlsplit

IMAGE_ORIGINS_ENV = "MACARON_IMAGE_ORIGINS"
# What a CSP source list and an origin comparison can both take, and nothing that could smuggle
# a directive into a policy (";", ",", quotes, spaces).
_ORIGIN = re.compile(r"https://[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?(?::[0-9]{1,5})?")
DATA_IMAGE = re.compile(r"data:image/(?:png|jpeg|gif|webp|svg\+xml)[;,][^\s\"'<>]*")


def image_origins() -> tuple[str, ...]:
    """The https origins the operator allows images from (a malformed entry is ignored)."""
    raw = os.environ.get(IMAGE_ORIGINS_ENV, "")
    entries = (e.strip().lower().rstrip("/") for e in raw.replace(",", " ").split())
    return tuple(dict.fromkeys(e for e in entries if _ORIGIN.fullmatch(e)))


def image_allowed(src: str) -> bool:
    """Whether a view may load `src`: an inline image, or an https URL of an allowed origin."""
    if DATA_IMAGE.fullmatch(src):
        return True
    origins = image_origins()
    if not origins or src[:8].lower() != "https://":
        return False
    try:
        parts = urlsplit(src)
    except ValueError:
        return False
    if "@" in parts.netloc or "\\" in src or any(c.isspace() for c in src):
        return False
    return f"https://{parts.netloc.lower()}" in origins
