"""The soak's socket puts a generation's text together as the studio page does, and counts a
mismatch only where the text it built truly differs from the final one."""

from __future__ import annotations

import json
from typing import Any, cast

from websockets.sync.client import ClientConnection

from bench.soak import Socket

GEN = "g1"


class Wire:
    """What the socket sends, kept."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, message: str) -> None:
        self.sent.append(json.loads(message))


def socket() -> tuple[Socket, Wire]:
    wire = Wire()
    return Socket(cast(ClientConnection, wire)), wire


def delta(seq: int, text: str) -> dict[str, Any]:
    return {"type": "generation.delta", "generation": GEN, "seq": seq, "delta": text}


def snapshot(seq: int, text: str) -> dict[str, Any]:
    return {"type": "generation.snapshot", "generation": GEN, "seq": seq, "text": text}


def done(text: str) -> dict[str, Any]:
    return {"type": "generation.done", "generation": GEN, "text": text}


def test_batches_in_order_build_the_final_text() -> None:
    sock, wire = socket()
    for frame in (delta(1, "a"), delta(2, "b"), done("ab")):
        sock.take(frame)
    assert (sock.tally.batches, sock.tally.finished, sock.tally.mismatched) == (2, 1, 0)
    assert wire.sent == []


def test_a_final_text_that_differs_from_the_batches_is_a_mismatch() -> None:
    sock, _ = socket()
    for frame in (delta(1, "a"), delta(2, "b"), done("abX")):
        sock.take(frame)
    assert sock.tally.mismatched == 1


def test_a_snapshot_older_than_the_batches_held_meanwhile_is_caught_up_from_them() -> None:
    # The row was read for the resync before batch 4 was written; batch 4 reached the socket
    # first. Dropping it would leave the text at batch 3 when the end arrives.
    sock, wire = socket()
    for frame in (delta(1, "a"), delta(3, "c"), delta(4, "d"), snapshot(3, "abc")):
        sock.take(frame)
    assert wire.sent == [{"type": "resync", "generation": GEN}]
    assert sock.texts[GEN] == (4, "abcd")
    sock.take(done("abcd"))
    assert (sock.tally.gaps, sock.tally.mismatched) == (1, 0)


def test_a_snapshot_that_leaves_a_hole_asks_again() -> None:
    sock, wire = socket()
    for frame in (delta(1, "a"), delta(3, "c"), delta(5, "e"), snapshot(3, "abc")):
        sock.take(frame)
    assert len(wire.sent) == 2  # batch 4 is still missing
    sock.take(snapshot(5, "abcde"))
    sock.take(done("abcde"))
    assert (sock.texts, sock.tally.mismatched) == ({}, 0)


def test_an_end_while_a_resync_is_on_its_way_is_not_judged() -> None:
    sock, _ = socket()
    for frame in (delta(1, "a"), delta(3, "c"), done("abc"), snapshot(3, "abc")):
        sock.take(frame)
    assert (sock.tally.finished, sock.tally.mismatched, sock.texts) == (1, 0, {})


def test_a_socket_that_joined_after_the_last_batch_is_not_judged() -> None:
    sock, _ = socket()
    sock.take(done("the whole text"))
    assert (sock.tally.finished, sock.tally.mismatched) == (1, 0)
