"""`python -m studio.web.serve [daphne options] studio.web.asgi:application`: Daphne, with the
studio's limit on what a WebSocket client may send, applied before a message is buffered.

Daphne's own `--websocket-max-message-size` is autobahn's `maxMessagePayloadSize`, which caps
what the server sends as well (and a view's snapshot can outgrow any client message), and an
oversized message is answered by dropping the TCP connection, which a browser sees as an
unexplained 1006. Here a client's frame or message over MACARON_MESSAGE_MAX_BYTES is refused
from its frame header, before its payload is read, with close code 1009 and a reason; what the
server sends keeps Daphne's limit."""

from __future__ import annotations

from typing import Any

from daphne.cli import CommandLineInterface
from daphne.server import Server
from daphne.ws_protocol import WebSocketProtocol
from django.conf import settings


class InboundLimitedProtocol(WebSocketProtocol):  # type: ignore[misc]
    def onMessageFrameBegin(self, length: int) -> None:  # autobahn's name
        limit = settings.MACARON_MESSAGE_MAX_BYTES
        # The message's frames so far and this one's announced length; first, so the reason
        # is ours (autobahn's own check, at Daphne's larger limit, follows and then stays quiet).
        size = self.message_data_total_length + length
        if not self.failedByMe and 0 < limit < size:
            reason = f"Messages to the studio are limited to {limit} bytes."
            self._max_message_size_exceeded(size, limit, reason)
        super().onMessageFrameBegin(length)


class StudioServer(Server):  # type: ignore[misc]
    """Daphne's server, building its WebSockets with `InboundLimitedProtocol`. Daphne makes its
    WebSocket factory inside `run`; this takes it as it is assigned."""

    @property
    def ws_factory(self) -> Any:
        return self._ws_factory

    @ws_factory.setter
    def ws_factory(self, factory: Any) -> None:
        factory.protocol = InboundLimitedProtocol
        factory.setProtocolOptions(failByDrop=False)  # a close frame with the reason, not a drop
        self._ws_factory = factory


class StudioCommandLine(CommandLineInterface):  # type: ignore[misc]
    server_class = StudioServer


if __name__ == "__main__":
    StudioCommandLine.entrypoint()
