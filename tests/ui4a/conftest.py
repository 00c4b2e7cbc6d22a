"""Shared fixtures for the ui4a tests: the sign-up example spec, an HTML scanner, and a real
Chromium (Debian's, driven by Playwright) for the tests marked `browser`."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    pass

HERE = Path(__file__).resolve().parent


@pytest.fixture
def signup_text() -> str:
    """The sign-up spec as the model would stream it: compact, no whitespace."""
    return json.dumps(json.loads((HERE / "signup.json").read_text()), separators=(",", ":"))


@pytest.fixture
def signup(signup_text: str) -> dict[str, Any]:
    spec: dict[str, Any] = json.loads(signup_text)
    return spec


class Scan(HTMLParser):
    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def names(self) -> list[str]:
        return [tag for tag, _ in self.tags]

    def attr_names(self) -> set[str]:
        return {name for _, attrs in self.tags for name in attrs}


@pytest.fixture
def scan() -> type[Scan]:
    """Scan(html) lists the elements and attributes a rendered view really contains."""
    return Scan
