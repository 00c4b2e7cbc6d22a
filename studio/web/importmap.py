"""The studio page's import map: where its ES modules find Preact, its hooks and htm.

The map is an inline script, so the page's policy allows it by hash (studio.web.security); it
is built in one place so the template and the policy always agree on its exact text.
"""

from __future__ import annotations

import json
from functools import cache

from django.templatetags.static import static

MODULES = {
    "preact": "vendor/preact/preact.module.js",
    "preact/hooks": "vendor/preact-hooks/hooks.module.js",
    "htm": "vendor/htm/htm.module.js",
}


@cache
def import_map() -> str:
    """The import map's JSON text (no `<`, so it cannot end its script element early)."""
    text = json.dumps({"imports": {name: static(path) for name, path in MODULES.items()}})
    assert "<" not in text
    return text
