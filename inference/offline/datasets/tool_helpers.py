# ruff: noqa: E501  (code templates and task rows read best on one line each)
"""Small helper functions the tool-loop examples define, test, promote and later import from
`macaron_tools`: each with its signature, docstring, source, the asserts it is promoted with,
and a task that a saved copy of it answers."""

from __future__ import annotations

from dataclasses import dataclass


def same(*literals: str) -> tuple[tuple[str, str], ...]:
    """Inputs a request quotes exactly as the call passes them."""
    return tuple((literal, literal) for literal in literals)


@dataclass(frozen=True)
class Helper:
    name: str
    signature: str
    doc: str
    body: str  # the function's body, indented four spaces
    tests: str  # asserts, one a line
    does: str  # what it does, as a request says it
    task: str  # a request a saved copy answers, "{x}" filled with an input's words
    inputs: tuple[tuple[str, str], ...]  # (the input as the request says it, the call's args)

    @property
    def source(self) -> str:
        return f'def {self.name}{self.signature}:\n    """{self.doc}"""\n{self.body}'


HELPERS: tuple[Helper, ...] = (
    Helper(
        "kebab_case",
        "(text: str) -> str",
        "Lowercase words of text joined by dashes.",
        "    return '-'.join(text.lower().split())\n",
        "assert kebab_case('Big Blue Sky') == 'big-blue-sky'\nassert kebab_case('') == ''",
        "turns a phrase into lowercase words joined by dashes",
        "Make a dashed lowercase slug out of {x}.",
        same("'Quarterly Sales Review'", "'New Garden Shed Plans'", "'Team Offsite Agenda'"),
    ),
    Helper(
        "is_palindrome",
        "(text: str) -> bool",
        "True when text reads the same backwards, ignoring case and non-letters.",
        "    letters = [c.lower() for c in text if c.isalnum()]\n    return letters == letters[::-1]\n",
        "assert is_palindrome('Never odd or even')\nassert not is_palindrome('python')",
        "checks whether a text is a palindrome, ignoring case, spaces and punctuation",
        "Is {x} a palindrome once spaces and case are ignored?",
        same("'Was it a car or a cat I saw'", "'Step on no pets'", "'Palindromes are fun'"),
    ),
    Helper(
        "word_count",
        "(text: str) -> int",
        "The number of whitespace-separated words in text.",
        "    return len(text.split())\n",
        "assert word_count('one two  three') == 3\nassert word_count('') == 0",
        "counts the words in a piece of text",
        "How many words does {x} have?",
        same("'the early bird catches the worm'", "'a stitch in time saves nine'"),
    ),
    Helper(
        "c_to_f",
        "(celsius: float) -> float",
        "Celsius to Fahrenheit.",
        "    return celsius * 9 / 5 + 32\n",
        "assert c_to_f(100) == 212\nassert c_to_f(-40) == -40",
        "converts a temperature from Celsius to Fahrenheit",
        "Convert {x} degrees Celsius to Fahrenheit.",
        same("37", "21.5", "-12"),
    ),
    Helper(
        "initials",
        "(name: str) -> str",
        "The capitalised first letters of each part of a name.",
        "    return ''.join(part[0].upper() for part in name.split())\n",
        "assert initials('ada lovelace') == 'AL'\nassert initials('Grace Brewster Hopper') == 'GBH'",
        "returns the initials of a full name in capitals",
        "What are the initials of {x}?",
        same("'margaret heafield hamilton'", "'Alan Mathison Turing'", "'katherine johnson'"),
    ),
    Helper(
        "digit_sum",
        "(n: int) -> int",
        "The sum of the decimal digits of n.",
        "    return sum(int(d) for d in str(abs(n)))\n",
        "assert digit_sum(1234) == 10\nassert digit_sum(0) == 0",
        "adds up the decimal digits of an integer",
        "What is the sum of the digits of {x}?",
        same("987654321", "2 ** 50", "31415926"),
    ),
    Helper(
        "is_leap_year",
        "(year: int) -> bool",
        "True for Gregorian leap years.",
        "    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n",
        "assert is_leap_year(2024)\nassert not is_leap_year(1900)\nassert is_leap_year(2000)",
        "tells whether a year is a leap year in the Gregorian calendar",
        "Is {x} a leap year?",
        same("2100", "1996", "2028", "1800"),
    ),
    Helper(
        "rot13",
        "(text: str) -> str",
        "Each letter moved 13 places along the alphabet.",
        "    import codecs\n    return codecs.encode(text, 'rot13')\n",
        "assert rot13('abc') == 'nop'\nassert rot13(rot13('Hello')) == 'Hello'",
        "applies the ROT13 letter rotation to a string",
        "Decode {x} from ROT13.",
        same("'Uryyb jbeyq'", "'Frperg zrffntr'", "'Clguba ehyrf'"),
    ),
    Helper(
        "dedupe",
        "(items: list) -> list",
        "Items without repeats, in first-seen order.",
        "    return list(dict.fromkeys(items))\n",
        "assert dedupe([3, 1, 3, 2, 1]) == [3, 1, 2]\nassert dedupe([]) == []",
        "removes repeated items from a list but keeps the original order",
        "Drop the repeats from {x}, keeping the order.",
        same("[5, 5, 2, 9, 2, 7]", "['ox', 'elk', 'ox', 'yak', 'elk']"),
    ),
    Helper(
        "percent_change",
        "(old: float, new: float) -> float",
        "The change from old to new in percent, rounded to 2 places.",
        "    return round((new - old) / old * 100, 2)\n",
        "assert percent_change(50, 75) == 50.0\nassert percent_change(200, 150) == -25.0",
        "gives the percentage change between an old and a new value",
        "A price went from {x}. What is the change in percent?",
        (("80 to 92", "80, 92"), ("1250 to 1100", "1250, 1100"), ("19.5 to 23.4", "19.5, 23.4")),
    ),
    Helper(
        "snake_case",
        "(text: str) -> str",
        "Lowercase words of text joined by underscores.",
        "    return '_'.join(text.lower().split())\n",
        "assert snake_case('Total Order Value') == 'total_order_value'\nassert snake_case('x') == 'x'",
        "turns a phrase into a snake_case identifier",
        "Give me a snake_case name for {x}.",
        same("'Monthly Active Users'", "'Last Login Date'", "'Shipping Cost Estimate'"),
    ),
    Helper(
        "truncate_words",
        "(text: str, limit: int) -> str",
        "The first `limit` words of text, with '...' when some were cut.",
        "    parts = text.split()\n"
        "    return ' '.join(parts[:limit]) + (' ...' if len(parts) > limit else '')\n",
        "assert truncate_words('a b c d', 2) == 'a b ...'\nassert truncate_words('a b', 5) == 'a b'",
        "shortens a text to a number of words and marks the cut with '...'",
        "Cut {x} words.",
        (
            (
                "'the quick brown fox jumps over the lazy dog' down to 4",
                "'the quick brown fox jumps over the lazy dog', 4",
            ),
            ("'rain falls softly on tin roofs' down to 3", "'rain falls softly on tin roofs', 3"),
        ),
    ),
)
