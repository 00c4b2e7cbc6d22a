"""A head's select spells the options the request gives it (`macaron_field_options`).

The request often says a select's options right after naming it: "a dropdown asking how they
heard about us with Instagram, A friend, Walk-in", "species dropdown (Dog, Cat, Rabbit, Other)",
"choose your room (Living room, Bedroom, Office)". The named-field rule draws such a select
(field_completion.py), but the model writes its options, and wrote "Yes" and "No" for how they
heard about us (auth-02, bench/RESULTS.md, 2026-12-07, 11:00); the list rule goes on with a
list only once an array shows two of its items. So where a head begins a select's or radios'
options, and its label is a select the request names with options (it holds the name or is
held in it), the options are spelled as the request says them; the model then closes the array
or writes on. A filter's "All" first is the model's: the options are spelled after it.

The options are read without a model: after a select's name and its cue word, a parenthesised
list, or a list after "with", up to the clause's end; two to MAX_OPTIONS items of at most
MAX_OPTION_WORDS words, cut at commas, slashes, "and" and "or". The message is read up to
named_buttons.MAX_CHARS characters, so the cost is bounded.
"""

from __future__ import annotations

import json
import re

from inference.serving.named_buttons import MAX_CHARS
from inference.serving.named_fields import CUE, OPTIONS, Field, labels_field

EXTRA_ARG = "macaron_field_options"
# A select's name and its options, as the request says them.
Options = tuple[str, list[str]]
MAX_OPTIONS = 8
MAX_OPTION_WORDS = 3
# What follows a select's name (and cue): its options in parentheses, or after "with".
LISTED = re.compile(
    r"^\s*(?:" + CUE.pattern + r")?\s*(?:\(([^()]*)\)|with\s+([^.;:()\n]*))", re.IGNORECASE
)
# Where a head's text is in the first items of a select's or radios' options, with its label and
# what the options hold so far, as the grammar writes them (no whitespace).
OPENED = re.compile(
    r'\{"t":"(?:select|radio)","label":"((?:[^"\\]|\\.)*)"[^{}\[\]]*"opts":\[([^\[\]{}]{0,80})\Z'
)
ALL = '"All",'
TAIL = 300


def named_options(message: str, fields: list[Field]) -> list[Options]:
    """Each named select's options, where the request lists them right after a mention of its
    name."""
    text = message[:MAX_CHARS]
    found: list[Options] = []
    for name, kind in fields:
        mentions = re.finditer(re.escape(name), text, re.IGNORECASE) if kind == "select" else ()
        for mention in mentions:
            listed = LISTED.match(text[mention.end() :])
            said = listed.group(1) or listed.group(2) if listed else ""
            options = [o.strip() for o in OPTIONS.split(said) if o.strip()]
            if 2 <= len(options) <= MAX_OPTIONS and all(
                len(o.split()) <= MAX_OPTION_WORDS for o in options
            ):
                found.append((name, options))
                break
    return found


def opening(options: list[Options], text: str, best: str) -> str | None:
    """Where a head's `text` is at the start of the options of a select (or radios) named with
    options, and has written none of its own: how it goes on to those options, spelled as JSON
    strings, after the model's "All" where it writes one (what it has written of its options
    and `best`, the row's best token, begin it); None elsewhere, and while they are too short
    to tell (a lone quote)."""
    tail = text[-TAIL:]
    begun = OPENED.search(tail) if '"opts":[' in tail else None
    if begun is None:
        return None
    label, written = begun.group(1), begun.group(2)
    for name, listed in options:
        if not labels_field(label, name):
            continue
        spelled = ",".join(json.dumps(option, ensure_ascii=False) for option in listed)
        going = written + best
        if ALL.startswith(going) and len(going) < len('"All'):
            return None  # a quote, or "A": the next token says whether an "All" comes first
        wanted = ALL + spelled if going.startswith('"All') else spelled
        if wanted.startswith(written) and len(written) < len(wanted):
            return wanted[len(written) :]
        return None
    return None
