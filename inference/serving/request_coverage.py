"""How much of a request's own wording a UI4A spec shows: the share of the request's content
words (inference/serving/copy_bias.py's, first appearance first) found among the spec's
strings that a user reads (titles, labels, texts, options, columns, row values), not its
structure (component types, bindings, paths, conditions).

It ranks drafts of one request against each other (studio/worker/candidates.py). It reads only
the request and the spec, never a requirement written about either, so it can be fooled by a
spec that shows a word in the wrong place; what a designer asked for is judged by UI4A-Bench's
hand-written requirements, in Chromium (bench/RESULTS.md).
"""

from __future__ import annotations

import re
from typing import Any

from inference.serving.copy_bias import content_words

# Keys whose string values are a spec's structure, never shown as text.
STRUCTURE_KEYS = frozenset(
    {"t", "bind", "path", "do", "kind", "tone", "if", "data", "id", "icon", "src", "level", "by"}
)
# At most this many characters of a spec's strings are read: a score's cost stays bounded.
MAX_CHARS = 200_000
# A word this long or longer also matches its stem (all but its last two letters), so
# "suppliers" finds "Supplier" and "booking" finds "Book".
STEM_FROM = 6


def shown_text(spec: Any) -> str:
    """The spec's user-facing strings (and numbers), lower case, one per line, at most
    MAX_CHARS characters. Iterative: depth is whatever the spec has."""
    found: list[str] = []
    size = 0
    stack: list[Any] = [spec]
    while stack and size < MAX_CHARS:
        value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if not (key in STRUCTURE_KEYS and isinstance(item, str)):
                    stack.append(item)
        elif isinstance(value, list):
            stack.extend(reversed(value))
        elif isinstance(value, str):
            found.append(value)
            size += len(value)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            found.append(str(value))
    return "\n".join(found)[:MAX_CHARS].lower()


def _pattern(word: str) -> re.Pattern[str]:
    lowered = word.lower()
    stem = lowered[:-2] if len(lowered) >= STEM_FROM else lowered
    return re.compile(r"(?<![a-z0-9])" + re.escape(stem))


def coverage(request: str, spec: Any, vocabulary: frozenset[str] = frozenset()) -> float:
    """The share (0 to 1) of the request's content words the spec shows, words of
    `vocabulary` aside (the schema's own: a "checkbox" asked for is a component, and a label
    "Terms checkbox" shows it no better); 0.0 for a request with none."""
    words = content_words(request, vocabulary)
    if not words:
        return 0.0
    text = shown_text(spec)
    return sum(1 for word in words if _pattern(word).search(text)) / len(words)
