"""The fields a designer's request names: text fields ("a search box", "a why box", "a promo code
field", "reason for visit textarea", "a text box "Type a message"", "email and question fields",
"a form with name and phone number", "enter order number and email"), and selects, switches,
checkboxes and sliders ("a timezone select", "a department filter", "a remote only switch", "a
monthly donation checkbox", "a difficulty slider").

The ui expert leaves them out: a recruiter's inbox with no search box, an NPS question with no "why"
box, a contacts form with a name and no phone number, an order lookup whose form has no fields at
all, a job search with no remote switch, a workspace's settings with no timezone select
(bench/RESULTS.md, 2026-12-07). A head writes the ones it has not shown (field_completion.py); this
reads them from the request, with no model.

The reading is a heuristic, and errs towards finding none, as named_buttons.py's does: a name is the
words just before a word that names a field ("field", "box", "textarea", "input", "text box",
"select", "dropdown", "picker", "filter", "switch", "toggle", "checkbox", "slider"), back to an
article or a conjunction ("for" and "of" stay in it: "reason for visit"), or a quoted string next to
the cue ("a text box "Type a message""); or the two or more phrases after "a form with", "enter" or
"asks for". A select is also read by what it filters or sorts by ("a filter by priority", "sort by
price"), by the question it asks ("a dropdown asking how they heard about us"), or by what is
chosen where the options follow in parentheses ("choose your room (Living room, Bedroom,
Office)"). A text field is also read by what it asks for, bare, in a list of two or more
("member number, PIN", "name and phone": asked_fields.py). A field drawn on each item of a list,
or one a refinement takes away, is not read; nor is a box that is a panel ("a sign-in box"), nor
a cue that is a verb ("switch it to pause"). The message is read up to named_buttons.MAX_CHARS
characters, so the cost is bounded.
"""

from __future__ import annotations

import re

from inference.serving.asked_fields import asked_fields
from inference.serving.named_buttons import (
    MAX_CHARS,
    SPLIT_NAMES,
    cued,
    name_from,
    names_after,
    names_before,
    once,
    parts,
)

# At most this many fields are kept (a message is read as far as named_buttons.MAX_CHARS).
MAX_FIELDS = 6
# A named field, and the component that draws it: the one its cue word names ("select" for
# "dropdown"); for a text field, a "textarea" where the request says so, or says a box for words
# ("a why box", "a comments box"), and an "input" otherwise. Drawn as an input, "why" was a
# number with +10 and -10 steppers (bench/RESULTS.md, 2026-12-07).
Field = tuple[str, str]
CUES = {
    **dict.fromkeys(["text box", "textarea", "field", "fields", "box", "input", "inputs"], "input"),
    **dict.fromkeys(["select", "selects", "dropdown", "dropdowns", "picker", "filter"], "select"),
    **dict.fromkeys(["switch", "toggle"], "switch"),
    **dict.fromkeys(["checkbox"], "checkbox"),
    **dict.fromkeys(["slider"], "slider"),
}
# A cue that is a verb here names no field ("pressing play should switch it to pause", "select
# a plan").
VERB_AFTER = re.compile(
    r"^\s+(?:it|them|the|a|an|to|between|from|by|on|off|its|your|my|one|all|any)\b", re.IGNORECASE
)
PLURAL_CUES = frozenset({"fields", "inputs", "selects", "dropdowns"})
CUE = re.compile(r"\b(?:" + "|".join(c.replace(" ", r"\s+") for c in CUES) + r")\b", re.IGNORECASE)
# Words a field's name begins after; unlike a button's, "for" and "of" stay in the name.
BEGINS_AFTER = re.compile(
    r".*\b(?:a|an|the|plus|with|then|has|have|its|also|one|two)\s+", re.IGNORECASE
)
# "a form with name and phone number", "enter order number and email".
LISTS_AFTER = re.compile(r"\b(?:form\s+with|enter|asks?\s+for)\s+(.+)$", re.IGNORECASE)
# Names that say a panel or another control, not a field ("a sign-in box", "a check box"), or
# the field's kind, not its name ("a number input", "a date picker").
NOT_FIELDS = frozenset(
    {"sign-in", "sign in", "login", "log-in", "log in", "check", "dialog", "number", "text"}
    | {"date", "time", "color", "colour"}
)
# A box named by one of these takes one line ("a search box", "an email box").
ONE_LINE = re.compile(
    r"\b(?:search|e-?mail|code|name|number|phone|zip|postcode|url|website|amount|price)\b",
    re.IGNORECASE,
)
# A listed name longer than this is a description, not a field's label.
MAX_LISTED_WORDS = 3
# "a filter by priority", "filter by track", "sort by price": a select of the key the rows are
# filtered by ("Priority"), or one that sorts them ("Sort by"). The key is one to three words,
# up to a word that ends it ("track and see team", "status dropdown").
BY = re.compile(r"\b(filter|sort)(?:s|ed|ing)?\s+(?:them\s+|it\s+|results\s+)?by\s+(.+)$", re.I)
KEY_ENDS = re.compile(
    r"\s+(?:and|or|with|to|in|on|from|then|that|which|so|" + CUE.pattern + r").*$", re.I
)
MAX_KEY_WORDS = 3
# "choose your room (Living room, Bedroom, Office)", "choose stylist (Ana, Ben, Chloe)": a select
# of the thing chosen, where its options follow in parentheses. Read in the message as said: its
# parts (named_buttons.parts) leave parentheses out.
CHOSEN = re.compile(
    r"\b(?:choose|chooses|choosing|pick|picks|picking)\s+(?:your\s+|a\s+|an\s+|the\s+)?"
    r"([\w'-]+(?:\s+[\w'-]+){0,2})\s*\(([^()]*)\)",
    re.IGNORECASE,
)
# Where a list of options is cut (field_options.py reads them with it too); "&" stays in an
# option ("Cut & colour").
OPTIONS = re.compile(r"\s*(?:,|/|\band\b|\bor\b)\s*", re.IGNORECASE)
# "a dropdown asking how they heard about us": a field named by its question, up to its options.
ASKING = re.compile(r"^\s*(?:asking|that\s+asks|which\s+asks)\s+(.+)$", re.IGNORECASE)
QUESTION_ENDS = re.compile(r"\s+(?:with|from|between|like|such\s+as)\b.*$", re.IGNORECASE)
MAX_QUESTION_WORDS = 6


def cue_names(before: str, cue: str, after: str) -> list[Field]:
    """The fields a cue word (lower case, one space) names ("why" for "a why box")."""
    said = (
        names_after(after)
        or asked_name(after)
        or names_before(before, cue in PLURAL_CUES, BEGINS_AFTER)
    )
    return [(name, tag(cue, name)) for name in said if name.lower() not in NOT_FIELDS]


def tag(cue: str, name: str) -> str:
    """The component a field named `name` with `cue` is drawn as."""
    words = cue == "textarea" or (cue == "box" and not ONE_LINE.search(name))
    return "textarea" if words else CUES[cue]


def asked_name(after: str) -> list[str]:
    """The question a field asks, as its name ("how they heard about us")."""
    asking = ASKING.match(after)
    question = QUESTION_ENDS.sub("", asking.group(1)).strip(" ?.") if asking else ""
    return [question] if question and len(question.split()) <= MAX_QUESTION_WORDS else []


def by_names(part: str) -> list[Field]:
    """The select a part names by what it filters or sorts by ("a filter by priority":
    "priority"; "sort by price": "Sort by")."""
    found = BY.search(part)
    if found is None:
        return []
    if found.group(1).lower() == "sort":
        return [("Sort by", "select")]
    key = KEY_ENDS.sub("", found.group(2)).strip(" .")
    return [(key, "select")] if key and len(key.split()) <= MAX_KEY_WORDS else []


def chosen_names(message: str) -> list[Field]:
    """The selects a message names by what is chosen, with its options in parentheses ("choose
    your room (Living room, Bedroom, Office)": "room")."""
    chosen = CHOSEN.finditer(message[:MAX_CHARS])
    return [
        (found.group(1), "select") for found in chosen if len(OPTIONS.split(found.group(2))) > 1
    ]


def listed_names(part: str) -> list[Field]:
    """The fields a form lists ("name and phone number" after "a form with"), two at least."""
    listed = LISTS_AFTER.search(part)
    if listed is None:
        return []
    parts = [p for p in SPLIT_NAMES.split(listed.group(1).strip()) if p]
    names = [name_from(p.split()) for p in parts if len(p.split()) <= MAX_LISTED_WORDS]
    if len(parts) < 2 or len(names) < len(parts) or not all(names):
        return []
    return [(name, "input") for name in names]


def named_fields(message: str) -> list[Field]:
    """The fields the message names, each once, in the order it names them; none of those drawn
    on each item of a list, and at most MAX_FIELDS."""
    fields: list[Field] = []
    for part in parts(message):
        fields += by_names(part)
        for before, cue, after in cued(part, CUE):
            said_cue = " ".join(cue.group().lower().split())
            if CUES[said_cue] == "input" or not VERB_AFTER.match(after):
                fields += cue_names(before, said_cue, after)
        if not CUE.search(part):
            fields += listed_names(part)
    return once(apart(fields + chosen_names(message) + asked_fields(message)), MAX_FIELDS)


def apart(fields: list[Field]) -> list[Field]:
    """The fields less any whose name holds, or is held in, an earlier one's of the same kind
    ("Filter by status" after "status"): one field drawn meets both."""
    kept: list[Field] = []
    for name, kind in fields:
        if not any(k == kind and labels_field(n, name) for n, k in kept):
            kept.append((name, kind))
    return kept


def labels_field(label: str, name: str) -> bool:
    """Whether a drawn `label` is the field named `name`: it holds the name or is held in it, in
    any case, a hyphen read as a space ("Date range" for "date-range")."""
    said, shown = (" ".join(t.lower().replace("-", " ").split()) for t in (name, label))
    return bool(shown) and (said in shown or shown in said)
