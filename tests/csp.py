"""Reading a served document the way a browser applies its policy: which inline scripts and
styles it runs, the policy in its <meta>, and a policy's directives."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from html.parser import HTMLParser

# Script types a browser runs (an import map is checked against script-src too); a data block
# such as application/json is never executed, so no policy governs it.
EXECUTED_TYPES = {"", "text/javascript", "module", "importmap", "application/javascript"}


def sha256_source(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def directives(policy: str) -> dict[str, list[str]]:
    parsed: dict[str, list[str]] = {}
    for directive in policy.split(";"):
        if directive.strip():
            name, *sources = directive.split()
            parsed[name] = sources
    return parsed


@dataclass
class Inline:
    """A document's inline scripts and styles, its meta policies and its srcdoc frames."""

    scripts: list[str] = field(default_factory=list)
    styles: list[str] = field(default_factory=list)
    meta_policies: list[str] = field(default_factory=list)
    srcdocs: list[str] = field(default_factory=list)
    external_scripts: list[str] = field(default_factory=list)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found = Inline()
        self._open: str | None = None  # "script" or "style" while inside an inline one
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {name: value or "" for name, value in attrs}
        if tag == "script":
            if "src" in attr:
                self.found.external_scripts.append(attr["src"])
            elif attr.get("type", "").lower() in EXECUTED_TYPES:
                self._open, self._text = "script", []
        elif tag == "style":
            self._open, self._text = "style", []
        elif tag == "meta" and attr.get("http-equiv", "").lower() == "content-security-policy":
            self.found.meta_policies.append(attr.get("content", ""))
        elif tag == "iframe":
            # The studio's preview waits in data-srcdoc until its script moves it to srcdoc.
            for name in ("srcdoc", "data-srcdoc"):
                if name in attr:
                    self.found.srcdocs.append(attr[name])
        if "style" in attr and tag not in ("style",):
            self.found.styles.append(attr["style"])  # an inline style attribute

    def handle_data(self, data: str) -> None:
        if self._open:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open == tag:
            target = self.found.scripts if tag == "script" else self.found.styles
            target.append("".join(self._text))
            self._open = None


def inline_of(document: str) -> Inline:
    reader = _Reader()
    reader.feed(document)
    reader.close()
    return reader.found
