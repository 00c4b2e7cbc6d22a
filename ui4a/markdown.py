"""Markdown to HTML for the markdown component: a safe subset, then sanitized.

markdown-it-py parses CommonMark with raw HTML off (tags come out as text) and images off;
nh3 (the Ammonia sanitizer) then keeps only the tags below and absolute https links, as a
second wall.
"""

from __future__ import annotations

from functools import cache

import nh3
from markdown_it import MarkdownIt

from ui4a.texts import encodable

TAGS = {
    "p", "strong", "em", "code", "pre", "ul", "ol", "li", "a", "blockquote",
    "h3", "h4", "h5", "h6", "hr", "br", "del",
}  # fmt: skip


@cache
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.disable(["image", "html_block", "html_inline"])
    md.enable("strikethrough")
    return md


def _demote(html: str) -> str:
    # A view's own headings own levels 1-2; markdown headings start at 3.
    for level in (2, 1):
        html = html.replace(f"<h{level}>", "<h3>").replace(f"</h{level}>", "</h3>")
    return html


def _absolute_https(tag: str, attribute: str, value: str) -> str | None:
    """An href only when it is an absolute https URL with a host: url_schemes alone keeps
    relative and scheme-relative links ("//evil.example/login" leaves for another host)."""
    if attribute != "href":
        return value
    host = value[len("https://") :]
    ok = value[:8].lower() == "https://" and host[:1] not in ("", "/", "\\")
    return value if ok else None


def to_html(text: str) -> str:
    """Sanitized HTML for markdown `text`; any link that is not an absolute https URL loses
    its href (relative, scheme-relative and other schemes alike)."""
    rendered = _demote(_parser().render(encodable(text)))  # nh3 takes UTF-8 only
    return nh3.clean(
        rendered,
        tags=TAGS,
        attributes={"a": {"href"}},
        url_schemes={"https"},
        url_relative="deny",
        attribute_filter=_absolute_https,
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )
