# ruff: noqa: E501  (code templates and task rows read best on one line each)
"""The tasks of the tool-loop examples: a request, the cells that answer it (some first fail,
then are fixed), and how the answer reads once the cells' real outcomes are known.

A task is a `Task`; its cells run later, all at once (cell_runner.py), and `answer` turns the
outcomes into the assistant's plain-words reply, so no number in a reply is made up here.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from inference.offline.datasets.cell_runner import Outcome
from inference.offline.datasets.common import pick, sample

WORDS = ("lantern", "orbit", "meadow", "cobalt", "saffron", "harbor", "quartz", "willow")
PHRASES = (
    "the river bends toward the old mill",
    "seven ravens circled the bell tower",
    "fresh bread cools on the window sill",
    "our printer jams every other Tuesday",
    "autumn leaves drift across the quiet lane",
    "a kettle whistles in the back kitchen",
)
ITEMS = ("bolts", "hinges", "washers", "brackets", "springs", "rivets", "gaskets")
CITIES = ("Bergen", "Porto", "Kyoto", "Tucson", "Dakar", "Hobart", "Tallinn", "Recife")


@dataclass(frozen=True)
class Task:
    kind: str
    prompt: str
    cells: tuple[str, ...]
    answer: Callable[[list[Outcome]], str]
    # A promote_tool call after the cells: (function name, its asserts).
    promote: tuple[str, str] | None = None
    must_fail_first: bool = False  # the first cell is the one that fails, on purpose


def shown(outcome: Outcome) -> str:
    """A cell's value as a person would quote it: a string result without its quotes."""
    if outcome.result is not None:
        try:
            value = ast.literal_eval(outcome.result)
        except (ValueError, SyntaxError):
            return outcome.result
        return value if isinstance(value, str) else outcome.result
    return outcome.stdout.strip()


def _say(what: str) -> Callable[[list[Outcome]], str]:
    """An answer that quotes the last cell's value: `{v}` in `what`."""
    return lambda outcomes: what.format(v=shown(outcomes[-1]))


def _print_or_value(rng: Random, expr: str, setup: str = "") -> str:
    head = f"{setup}\n" if setup else ""
    return head + (f"print({expr})" if rng.random() < 0.4 else expr)


def arithmetic(rng: Random) -> Task:
    a, b, c = rng.randint(12, 9999), rng.randint(3, 999), rng.randint(2, 97)
    expr = pick(
        rng,
        (f"{a} * {b} - {c}", f"({a} + {b}) * {c}", f"{a} ** 2 % {b}", f"{a} * {b} // {c}"),
    )
    ask = pick(
        rng,
        (
            "Use Python to work out {e}.",
            "Calculate {e} exactly.",
            "what does {e} come to?",
            "Run the numbers: {e}",
        ),
    )
    return Task(
        "tool_compute",
        ask.format(e=expr),
        (_print_or_value(rng, expr),),
        _say(pick(rng, (f"{expr} = {{v}}.", "It comes to {v}.", "The result is {v}."))),
    )


def text_task(rng: Random) -> Task:
    word, phrase = pick(rng, WORDS), pick(rng, PHRASES)
    kind = rng.randrange(4)
    if kind == 0:
        return Task(
            "tool_compute",
            pick(rng, (f"Spell '{word}' backwards.", f"What is {word} reversed?")),
            (_print_or_value(rng, f"{word!r}[::-1]"),),
            _say(f"'{word}' backwards is '{{v}}'."),
        )
    if kind == 1:
        return Task(
            "tool_compute",
            pick(
                rng, (f'Count the vowels in "{phrase}".', f'How many vowels does "{phrase}" have?')
            ),
            (_print_or_value(rng, f"sum(ch in 'aeiou' for ch in {phrase!r}.lower())"),),
            _say("It has {v} vowels."),
        )
    if kind == 2:
        code = (
            "from collections import Counter\n"
            f"letter, times = Counter({phrase!r}.replace(' ', '')).most_common(1)[0]\n"
            "print(letter, times)"
        )
        return Task(
            "tool_compute",
            pick(
                rng,
                (
                    f'Which letter is most frequent in "{phrase}"?',
                    f'most common letter in "{phrase}"',
                ),
            ),
            (code,),
            lambda o: "'{}' is the most frequent letter ({} times).".format(*shown(o[-1]).split()),
        )
    return Task(
        "tool_compute",
        pick(
            rng,
            (
                f'How long is the longest word in "{phrase}"?',
                f'Find the longest word of "{phrase}".',
            ),
        ),
        (_print_or_value(rng, f"max({phrase!r}.split(), key=len)"),),
        _say("The longest word is '{v}'."),
    )


def list_stats(rng: Random) -> Task:
    numbers = [rng.randint(1, 250) for _ in range(rng.randint(5, 9))]
    stat, how = pick(
        rng,
        (
            ("mean", "statistics.mean"),
            ("median", "statistics.median"),
            ("standard deviation", "statistics.pstdev"),
            ("spread (max minus min)", ""),
        ),
    )
    expr = f"max({numbers}) - min({numbers})" if not how else f"{how}({numbers})"
    setup = "import statistics" if how else ""
    code = _print_or_value(
        rng, f"round({expr}, 3)" if stat == "standard deviation" else expr, setup
    )
    ask = pick(
        rng, ("What is the {s} of {n}?", "Find the {s} of these numbers: {n}", "{s} of {n}?")
    )
    return Task(
        "tool_compute",
        ask.format(s=stat, n=", ".join(map(str, numbers))),
        (code,),
        _say(f"The {stat} is {{v}}."),
    )


def _day(rng: Random) -> tuple[int, int, int]:
    return rng.randint(2019, 2031), rng.randint(1, 12), rng.randint(1, 28)


def dates(rng: Random) -> Task:
    (y1, m1, d1), (y2, m2, d2) = sorted((_day(rng), _day(rng)))
    first, second = f"{y1}-{m1:02d}-{d1:02d}", f"{y2}-{m2:02d}-{d2:02d}"
    kind = rng.randrange(3)
    if kind == 0:
        code = f"from datetime import date\n(date({y2}, {m2}, {d2}) - date({y1}, {m1}, {d1})).days"
        ask = pick(
            rng,
            (f"Days from {first} to {second}?", f"Count the days between {first} and {second}."),
        )
        return Task("tool_compute", ask, (code,), _say("There are {v} days between them."))
    if kind == 1:
        code = f"from datetime import date\ndate({y1}, {m1}, {d1}).strftime('%A')"
        ask = pick(rng, (f"Which weekday was {first}?", f"What day of the week is {first}?"))
        return Task("tool_compute", ask, (code,), _say(f"{first} is a {{v}}."))
    n = rng.randint(10, 400)
    code = f"from datetime import date, timedelta\n(date({y1}, {m1}, {d1}) + timedelta(days={n})).isoformat()"
    ask = pick(rng, (f"What date is {n} days after {first}?", f"Add {n} days to {first}."))
    return Task("tool_compute", ask, (code,), _say(f"{n} days after {first} is {{v}}."))


def _csv(rng: Random) -> tuple[str, list[tuple[str, int, float]]]:
    rows = [
        (item, rng.randint(1, 60), round(rng.uniform(0.5, 40), 2))
        for item in sample(rng, ITEMS, rng.randint(3, 5))
    ]
    text = "item,qty,price\n" + "\n".join(f"{i},{q},{p}" for i, q, p in rows)
    return text, rows


def csv_task(rng: Random) -> Task:
    text, _ = _csv(rng)
    read = f"import csv, io\nrows = list(csv.DictReader(io.StringIO({text!r})))"
    what, expr, say = pick(
        rng,
        (
            ("the total qty", "sum(int(r['qty']) for r in rows)", "The total quantity is {v}."),
            (
                "the item with the highest price",
                "max(rows, key=lambda r: float(r['price']))['item']",
                "The priciest item is {v}.",
            ),
            (
                "the total value (qty times price)",
                "round(sum(int(r['qty']) * float(r['price']) for r in rows), 2)",
                "The stock is worth {v} in all.",
            ),
            (
                "the mean price",
                "round(sum(float(r['price']) for r in rows) / len(rows), 2)",
                "The mean price is {v}.",
            ),
        ),
    )
    ask = pick(rng, ("Here is a CSV:\n{t}\nWhat is {w}?", "{t}\n\nFrom this table, give me {w}."))
    return Task(
        "tool_compute", ask.format(t=text, w=what), (_print_or_value(rng, expr, read),), _say(say)
    )


def number_task(rng: Random) -> Task:
    n = rng.randint(15, 60)
    what, code, say = pick(
        rng,
        (
            (
                f"the {n}th prime",
                f"primes = [p for p in range(2, 400) if all(p % d for d in range(2, p))]\nprimes[{n - 1}]",
                f"The {n}th prime is {{v}}.",
            ),
            (
                f"how many primes there are below {n * 20}",
                f"len([p for p in range(2, {n * 20}) if all(p % d for d in range(2, p))])",
                f"There are {{v}} primes below {n * 20}.",
            ),
            (
                f"the sum of the digits of 2 to the power {n * 3}",
                f"sum(int(d) for d in str(2 ** {n * 3}))",
                "The digit sum is {v}.",
            ),
            (
                f"the Fibonacci number at position {n} (F1 = F2 = 1)",
                f"a, b = 0, 1\nfor _ in range({n}):\n    a, b = b, a + b\na",
                f"F{n} = {{v}}.",
            ),
            (
                f"the least common multiple of {n} and {n + 14}",
                f"import math\nmath.lcm({n}, {n + 14})",
                "Their LCM is {v}.",
            ),
        ),
    )
    ask = pick(rng, ("Compute {w}.", "Use code to find {w}.", "I need {w}."))
    return Task("tool_compute", ask.format(w=what), (code,), _say(say))


COMPUTE: tuple[Callable[[Random], Task], ...] = (
    arithmetic,
    text_task,
    list_stats,
    dates,
    csv_task,
    number_task,
)
