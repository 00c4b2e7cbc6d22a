"""The values a designer's request gives to be shown: "$199", "order #58213", "showing 25:00",
"a 4.6 rating", "you scored 8/10", "refund issued ($42.00)", "Biscuit, 3 years".

The ui expert writes values of its own where the request gives them: a product page for
headphones at $199 with a 4.6 rating showed neither, "Track order #58213" no order number, a
Pomodoro timer "showing 25:00" no time, a return's "$42.00" refund no amount (bench/RESULTS.md,
2026-12-07, 21:40). So such values are read here, with no model, and shown where the head
leaves them out (named_texts.py writes them with the names and quoted phrases).

A value is a money amount, an identifier after "#", a clock time, a score ("8/10"), a decimal
followed by a rating's word, or a number followed by a unit of time or measure ("14 days",
"8 minutes", "12 kWh"). A count of things ("4 meetings", "at least 5 emails") is not a value:
it says how many to draw, not what to show. Nor is a value in a clause that says an action
shows it ("Choosing an amount shows it", "amount buttons $10 $25 $50"), which is the model's
to show on that action (ON_ACTION, by which named_texts.py reads quoted phrases too). The
message is read up to MAX_CHARS characters, and at most MAX_VALUES values are kept, so the cost
is bounded.
"""

from __future__ import annotations

import re

from inference.serving.listed_items import MAX_CHARS

MAX_VALUES = 3
# A clause that says when something shows: what it gives shows on that action, not before.
ON_ACTION = re.compile(
    r"\b(?:button|after|when|once|until|then|press\w*|click\w*|tap\w*|typ\w*|answer\w*|submit\w*)\b",
    re.IGNORECASE,
)
CLAUSE_MARK = re.compile(r"[,;:.!?(]")
UNITS = (
    r"days?|weeks?|months?|years?|yrs?|hours?|hrs?|minutes?|mins?|seconds?|secs?"
    r"|kwh|kw|gb|mb|tb|km|kg|lbs?|mp|%"
)
VALUE = re.compile(
    r"[$£€]\d{1,3}(?:,\d{3})*(?:\.\d{1,2})?(?![\d,]\d)"  # $42.00, €1,200
    r"|#[A-Za-z0-9][\w-]{2,15}"  # #58213
    r"|\b\d{1,2}:\d{2}(?:\s?[ap]m)?(?!\d)"  # 25:00, 9:30 am
    r"|\b\d{1,2}\s?[ap]m\b"  # 8am
    r"|\b\d{1,3}\s?/\s?\d{1,3}\b(?!\s*[/\d])"  # 8/10, not a date
    r"|\b\d+\.\d+\s+(?:rating|stars?)\b"  # 4.6 rating
    r"|(?<!last )(?<!past )(?<!next )(?<!every )\b\d+(?:\.\d+)?\s?(?:" + UNITS + r")(?![\w%])",
    re.IGNORECASE,
)
# A value next to another number, with only a comma, a slash, "or" or "and" between them, is an
# option of a list ("tip options 10%, 15%, 20%", "durations 5, 10 or 20 minutes", "time slots
# 18:00 18:30"): the list's to draw, not a value to show.
NUMBER = re.compile(r"\d")
JOINED = re.compile(r"^[\s,/]*(?:(?:or|and)\s+)?[$£€#]?$", re.IGNORECASE)
NEAR = 12
# A value's clause ends at "and" or "with" too: "a 4.8 rating and an Add to cart button" says no
# button shows the rating.
JOINS = re.compile(r"\b(?:and|with)\b", re.IGNORECASE)


def named_values(message: str) -> list[str]:
    """The values `message` gives to show from the start, in its order, at most MAX_VALUES: none
    in a clause (cut at CLAUSE_MARK, "and" and "with") that ON_ACTION says shows it on an
    action."""
    text = message[:MAX_CHARS]
    found: list[str] = []
    for value in VALUE.finditer(text):
        marks = [m.end() for m in CLAUSE_MARK.finditer(text, 0, value.start())]
        marks += [m.end() for m in JOINS.finditer(text, 0, value.start())]
        ends = [
            m.start()
            for m in (CLAUSE_MARK.search(text, value.end()), JOINS.search(text, value.end()))
            if m
        ]
        clause = text[max(marks, default=0) : min(ends, default=len(text))]
        said = value.group().strip()
        if (
            ON_ACTION.search(clause)
            or listed(text, value)
            or said.lower() in (f.lower() for f in found)
        ):
            continue
        found.append(said)
    return found[:MAX_VALUES]


def listed(text: str, value: re.Match[str]) -> bool:
    """Whether `value` is one of a list of numbers in `text`: a number ends just before it, or
    begins just after it, with only a list's joining words between."""
    before = text[max(0, value.start() - NEAR) : value.start()]
    after = text[value.end() : value.end() + NEAR]
    digits_before = [m.end() for m in NUMBER.finditer(before)]
    digit_after = NUMBER.search(after)
    return bool(
        (digits_before and JOINED.match(before[digits_before[-1] :].lstrip("%")))
        or (digit_after and JOINED.match(after[: digit_after.start()]))
    )


# The number a value shows: "$1,200.50" shows as 1200.50 as well, "73%" as a progress bar's 73.
CORE = re.compile(r"\d+(?:[.,]\d+)*")
CLOCK_OR_SCORE = re.compile(r"[:/]")


def value_shown(phrase: str, written: str) -> bool:
    """Whether `phrase`, where it is a value, shows in `written` (a spec's text, lower case) as
    written, or as its number: a bar at 73 shows "73%", a price of 1200.5 "$1,200.50". A clock
    time or a score shows only as written, spaces aside ("8/10")."""
    if not VALUE.fullmatch(phrase):
        return False
    if phrase.lower() in written:
        return True
    if CLOCK_OR_SCORE.search(phrase):
        return phrase.replace(" ", "").lower() in written.replace(" ", "")
    core = CORE.search(phrase)
    if core is None:
        return False
    number = core.group().replace(",", "")
    forms = {number, number.rstrip("0").rstrip(".") if "." in number else number}
    return any(
        re.search(r"(?<![\d.])" + re.escape(f) + r"(?!\d|\.0*[1-9])", written) for f in forms
    )
