"""The chat expert's dataset: short questions with helpful, concise answers, from templates."""

from __future__ import annotations

from random import Random

from inference.offline.datasets.common import Record, pick, record, turn, unique

CAPITALS = {
    "France": "Paris",
    "Japan": "Tokyo",
    "Canada": "Ottawa",
    "Kenya": "Nairobi",
    "Peru": "Lima",
    "Norway": "Oslo",
    "Egypt": "Cairo",
    "Chile": "Santiago",
    "India": "New Delhi",
    "Spain": "Madrid",
    "Ghana": "Accra",
    "Vietnam": "Hanoi",
    "Poland": "Warsaw",
    "Australia": "Canberra",
    "Brazil": "Brasília",
    "Portugal": "Lisbon",
    "Turkey": "Ankara",
}
TERMS = {
    "an API": "a defined way for programs to talk to each other, such as HTTP endpoints.",
    "a LoRA adapter": "a small set of low-rank weights added to a frozen model to specialise it.",
    "latency": "the time between a request and its response.",
    "a cache": "a fast store of recent results, so repeated work is skipped.",
    "JSON": "a text format for data built from objects, arrays, strings, numbers and booleans.",
    "a unit test": "a small automated check that one piece of code behaves as expected.",
    "recursion": "a function solving a problem by calling itself on smaller parts of it.",
    "a database index": "a structure that lets the database find rows without scanning all.",
    "photosynthesis": "how plants turn light, water and CO2 into sugar and oxygen.",
    "inflation": "a general rise in prices, so money buys less over time.",
    "a tokenizer": "the part that splits text into the tokens a language model reads.",
    "HTTPS": "HTTP over an encrypted TLS connection.",
}
ASK_CAPITAL = ("What is the capital of {c}?", "capital of {c}?", "Which city is {c}'s capital?")
ASK_TERM = ("What is {t}?", "Explain {t} in one sentence.", "what's {t}", "Define {t}.")
ASK_SUM = ("What is {a} + {b}?", "{a} plus {b}?", "add {a} and {b}")
ASK_MUL = ("What is {a} times {b}?", "{a} x {b} = ?", "multiply {a} by {b}")
ASK_TEMP = ("Convert {c}°C to Fahrenheit.", "{c} celsius in fahrenheit?")
ASK_KM = ("How many miles is {k} km?", "{k} km to miles")


def generate(seed: int = 0, *, count: int = 400) -> list[Record]:
    rng = Random(seed)
    out: list[Record] = []
    for country, city in CAPITALS.items():
        for ask in ASK_CAPITAL:
            out.append(record("chat", "capital", turn(ask.format(c=country), f"{city}.")))
    for term, meaning in TERMS.items():
        for ask in ASK_TERM:
            out.append(
                record(
                    "chat",
                    "define",
                    turn(ask.format(t=term), f"{term[0].upper()}{term[1:]} is {meaning}"),
                )
            )
    while len(out) < count * 2:
        kind = pick(rng, ("sum", "mul", "temp", "km"))
        if kind == "sum":
            a, b = rng.randint(2, 999), rng.randint(2, 999)
            out.append(
                record(
                    "chat", kind, turn(pick(rng, ASK_SUM).format(a=a, b=b), f"{a} + {b} = {a + b}.")
                )
            )
        elif kind == "mul":
            a, b = rng.randint(2, 99), rng.randint(2, 99)
            out.append(
                record(
                    "chat", kind, turn(pick(rng, ASK_MUL).format(a=a, b=b), f"{a} * {b} = {a * b}.")
                )
            )
        elif kind == "temp":
            c = rng.randint(-30, 45)
            out.append(
                record(
                    "chat",
                    kind,
                    turn(pick(rng, ASK_TEMP).format(c=c), f"{c}°C is {c * 9 / 5 + 32:g}°F."),
                )
            )
        else:
            k = rng.randint(1, 500)
            out.append(
                record(
                    "chat",
                    kind,
                    turn(
                        pick(rng, ASK_KM).format(k=k), f"{k} km is about {k * 0.621371:.1f} miles."
                    ),
                )
            )
        out = unique(out)
    return unique(out)[:count]
