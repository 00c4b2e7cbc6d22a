"""Studio WebSockets for the benches that watch generations on a running stack (faults, soak):
signed in as a designer, optionally following a project, as the studio page opens them."""

from __future__ import annotations

from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from studio.stack import Stack


def cookie_header(stack: Stack, username: str = "designer") -> str:
    """A Cookie header for a fresh session of `username`."""
    return "; ".join(f"{k}={v}" for k, v in stack.signin_cookies(username).items())


def open_socket(stack: Stack, cookie: str, project: str = "") -> ClientConnection:
    query = f"?project={project}" if project else ""
    return connect(
        stack.url.replace("http://", "ws://") + "/ws/studio/" + query,
        origin=Origin(stack.url),
        additional_headers={"Cookie": cookie},
    )
