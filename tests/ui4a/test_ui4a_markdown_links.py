"""Sanitized markdown kept relative and scheme-relative links ("//evil.example/login" leaves
for another host), though its docstring promised https only: now only an absolute https URL
keeps its href."""

from __future__ import annotations

import pytest

from ui4a.markdown import to_html

DROPPED = [
    "//evil.example/login",
    "/login",
    "login.html",
    "#top",
    "\\\\evil.example",
    "https:evil.example",
    "https:///evil.example",
    "http://plain.example",
    "javascript:alert(1)",
]


@pytest.mark.parametrize("href", DROPPED)
def test_a_link_that_is_not_absolute_https_loses_its_href(href: str) -> None:
    html = to_html(f"[sign in]({href})")
    assert "href=" not in html and "sign in" in html


def test_an_absolute_https_link_is_kept() -> None:
    html = to_html("[docs](https://docs.example/a?b=1)")
    assert 'href="https://docs.example/a?b=1"' in html and "nofollow" in html
