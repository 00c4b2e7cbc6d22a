# ruff: noqa: E501  (code templates read best on one line each)
"""The coding expert's dataset: a Python function and its pytest test, from templates.

Every answer is real code: a test runs each one and its tests must pass. Tool-loop examples
(tool_loop.py) join them: write code, run it, read the outcome or error, fix, promote, answer.
"""

from __future__ import annotations

from random import Random

from inference.offline.datasets import tool_loop
from inference.offline.datasets.common import Record, pick, record, turn, unique

ASKS = (
    "Write a Python function {n} that {d}.",
    "python: {d} ({n})",
    "I need a function `{n}` that {d}, with a test.",
)


def _task(rng: Random) -> tuple[str, str, str, str]:
    """(kind, function name, what it does, code with its test)."""
    kind = rng.randrange(6)
    if kind == 0:
        k = rng.randint(2, 9)
        name = pick(rng, ("multiples_of", "keep_multiples", "only_multiples")) + f"_{k}"
        code = f"def {name}(numbers: list[int]) -> list[int]:\n    return [n for n in numbers if n % {k} == 0]\n\n\ndef test_{name}() -> None:\n    assert {name}([{k}, {k + 1}, {2 * k}]) == [{k}, {2 * k}]\n    assert {name}([]) == []\n"
        return "filter", name, f"keeps the numbers divisible by {k}", code
    if kind == 1:
        lo, hi = rng.randint(-10, 0), rng.randint(1, 100)
        name = f"clamp_{abs(lo)}_{hi}"
        code = f"def {name}(x: float) -> float:\n    return max({lo}, min({hi}, x))\n\n\ndef test_{name}() -> None:\n    assert {name}({hi + 5}) == {hi}\n    assert {name}({lo - 5}) == {lo}\n    assert {name}({hi // 2}) == {hi // 2}\n"
        return "clamp", name, f"clamps a number to the range {lo}..{hi}", code
    if kind == 2:
        ch = pick(rng, "aeiouxyz")
        name = f"count_{ch}"
        code = f"def {name}(text: str) -> int:\n    return text.lower().count({ch!r})\n\n\ndef test_{name}() -> None:\n    assert {name}({(ch * 2 + 'b' + ch.upper())!r}) == 3\n    assert {name}('') == 0\n"
        return "count", name, f"counts the letter {ch!r} in a string, ignoring case", code
    if kind == 3:
        n = rng.randint(2, 12)
        name = pick(rng, ("chunk", "batched", "split_every")) + f"_{n}"
        code = f"def {name}(items: list[int]) -> list[list[int]]:\n    return [items[i : i + {n}] for i in range(0, len(items), {n})]\n\n\ndef test_{name}() -> None:\n    assert {name}(list(range({n + 1}))) == [list(range({n})), [{n}]]\n    assert {name}([]) == []\n"
        return "chunk", name, f"splits a list into chunks of {n}", code
    if kind == 4:
        word = pick(rng, ("fizz", "buzz", "ping", "pong", "tick"))
        k = rng.randint(2, 7)
        name = f"{word}_{k}"
        code = f"def {name}(n: int) -> str:\n    return {word!r} if n % {k} == 0 else str(n)\n\n\ndef test_{name}() -> None:\n    assert {name}({k}) == {word!r}\n    assert {name}({k + 1}) == {str(k + 1)!r}\n"
        return "fizz", name, f"returns {word!r} for multiples of {k} and the number otherwise", code
    sep = pick(rng, ("-", "_", "."))
    name = (
        pick(rng, ("slug", "join_words", "kebab")) + {"-": "_dash", "_": "_under", ".": "_dot"}[sep]
    )
    code = f"def {name}(text: str) -> str:\n    return {sep!r}.join(text.lower().split())\n\n\ndef test_{name}() -> None:\n    assert {name}('Hello  World') == {('hello' + sep + 'world')!r}\n    assert {name}('') == ''\n"
    return "slug", name, f"lowercases a phrase and joins its words with {sep!r}", code


def generate(seed: int = 0, *, count: int = 300) -> list[Record]:
    rng = Random(seed)
    out: list[Record] = []
    for _ in range(count * 6):
        kind, name, does, code = _task(rng)
        ask = pick(rng, ASKS).format(n=name, d=does)
        out.append(record("coding", kind, turn(ask, f"```python\n{code}```")))
        if len(out) % 50 == 0 and len(unique(out)) >= count:
            break
    mixed = unique(out)[:count] + tool_loop.generate("coding", seed)
    # Interleaved, so the eval subset a run measures (the first few) holds both kinds.
    Random(seed).shuffle(mixed)
    return mixed
