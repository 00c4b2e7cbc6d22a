"""The agent expert's dataset: requests turned into tool-call plans, `{"steps":[...]}` JSON,
plus tool-loop examples (tool_loop.py): run Python, read the outcome, answer."""

from __future__ import annotations

from random import Random
from typing import Any

from inference.offline.datasets import tool_loop
from inference.offline.datasets.common import Record, compact, pick, record, turn, unique
from inference.offline.datasets.screen import PEOPLE

# Each tool and its argument names: a test checks that every plan uses only these.
TOOLS: dict[str, tuple[str, ...]] = {
    "get_weather": ("city",),
    "web_search": ("query",),
    "send_email": ("to", "subject", "body"),
    "create_event": ("title", "date", "time"),
    "read_file": ("path",),
    "write_file": ("path", "content"),
    "calculator": ("expression",),
    "translate": ("text", "to"),
}
CITIES = ("Paris", "Tokyo", "Lima", "Oslo", "Cairo", "Denver", "Seoul", "Lagos", "Quito", "Perth")
TOPICS = (
    "vector databases",
    "LoRA fine-tuning",
    "solar panels",
    "sourdough",
    "Rust async",
    "CSS grid",
)
FILES = ("notes.txt", "report.md", "todo.txt", "data.csv", "README.md")
LANGS = ("French", "German", "Spanish", "Japanese")


def _step(tool: str, **args: Any) -> dict[str, Any]:
    assert tuple(args) == TOOLS[tool], (tool, args)
    return {"tool": tool, "args": args}


def _plan(rng: Random) -> tuple[str, str, list[dict[str, Any]]]:
    kind = rng.randrange(6)
    city, person, topic, path = (
        pick(rng, CITIES),
        pick(rng, PEOPLE),
        pick(rng, TOPICS),
        pick(rng, FILES),
    )
    email = person.split()[0].lower() + "@example.com"
    if kind == 0:
        return (
            "weather",
            pick(rng, (f"What's the weather in {city}?", f"weather {city}")),
            [_step("get_weather", city=city)],
        )
    if kind == 1:
        ask = f"Email {email} the weather forecast for {city}"
        return (
            "weather_email",
            ask,
            [
                _step("get_weather", city=city),
                _step("send_email", to=email, subject=f"Weather in {city}", body="{step1}"),
            ],
        )
    if kind == 2:
        ask = pick(
            rng,
            (
                f"Research {topic} and save a summary to {path}",
                f"look up {topic}, write notes to {path}",
            ),
        )
        return (
            "research",
            ask,
            [_step("web_search", query=topic), _step("write_file", path=path, content="{step1}")],
        )
    if kind == 3:
        day, hour = (
            f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            f"{rng.randint(8, 18):02d}:00",
        )
        ask = f"Schedule a meeting with {person} on {day} at {hour} and let them know"
        return (
            "schedule",
            ask,
            [
                _step("create_event", title=f"Meeting with {person}", date=day, time=hour),
                _step(
                    "send_email",
                    to=email,
                    subject="Meeting invite",
                    body=f"See you on {day} at {hour}.",
                ),
            ],
        )
    if kind == 4:
        a, b = rng.randint(10, 9999), rng.randint(2, 99)
        if rng.random() < 0.5:
            return (
                "calc",
                f"What is {a} divided by {b}?",
                [_step("calculator", expression=f"{a}/{b}")],
            )
        return "calc", f"compute {a} times {b}", [_step("calculator", expression=f"{a}*{b}")]
    lang = pick(rng, LANGS)
    return (
        "translate",
        f"Translate {path} into {lang}",
        [_step("read_file", path=path), _step("translate", text="{step1}", to=lang)],
    )


def generate(seed: int = 0, *, count: int = 300) -> list[Record]:
    rng = Random(seed)
    out: list[Record] = []
    for _ in range(count * 4):
        kind, ask, steps = _plan(rng)
        out.append(record("agent", kind, turn(ask, compact({"steps": steps}))))
        if len(unique(out)) >= count:
            break
    mixed = unique(out)[:count] + tool_loop.generate("agent", seed)
    # Interleaved, so the eval subset a run measures (the first few) holds both kinds.
    Random(seed).shuffle(mixed)
    return mixed
