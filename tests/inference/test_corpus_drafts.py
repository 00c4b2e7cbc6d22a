"""Drafts from an adapter's own corpus (inference/serving/corpus_drafts.py): what a table
drafts, the budgets a corpus is read within, and the corpus reaching the copy vLLM loads and
the adapter written by training. That drafts change no token is the engine's test
(tests/inference/test_jump_forward.py)."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from inference.offline.datasets import ui
from inference.offline.draft_corpus import CORPUS_ANSWERS, answers, write_draft_corpus
from inference.serving import corpus_drafts
from inference.serving.corpus_drafts import (
    CORPUS_FILE,
    MAX_CORPUS_BYTES,
    TABLES_KEPT,
    CorpusDrafts,
    DraftTable,
    read_corpus,
)
from inference.serving.jump_forward import JumpForwardScheduler
from inference.serving.pinning import pinned_copy
from tests.inference.test_residency import adapter_ref


def encode(text: str) -> list[int]:
    """One token a character: enough to see what follows what."""
    return [ord(c) for c in text]


def decode(tokens: list[int]) -> str:
    return "".join(map(chr, tokens))


def draft(table: DraftTable, text: str, limit: int = 8) -> str:
    return decode(table.draft(encode(text), limit))


def test_a_draft_is_what_followed_the_longest_context_the_corpus_holds() -> None:
    table = DraftTable([encode("ab:Save;"), encode("zb:Next;"), encode('"label":"Go"')])

    assert draft(table, "qqb:") == "Save;"  # "b:" shows first in the first text
    assert draft(table, "zb:") == "Next;"  # the longer "zb:" picks the second
    assert draft(table, "qqb:", limit=2) == "Sa"
    assert draft(table, 'x"label":"') == 'Go"'  # six tokens of context at most


def test_a_draft_never_runs_into_the_next_text_and_needs_two_tokens_of_context() -> None:
    table = DraftTable([encode("abcd"), encode("cdef")])

    assert draft(table, "xab") == "cd"  # not "cd" then the next text
    assert draft(table, "bc") == "d"
    assert draft(table, "c") == ""  # one token is no context
    assert draft(table, "zz") == ""
    assert draft(table, "cd") == "ef"  # "cd" ends the first text: its first follower is here


def write_corpus(folder: Path, texts: list[object]) -> Path:
    path = folder / CORPUS_FILE
    path.write_text("".join(json.dumps(t) + "\n" for t in texts))
    return path


def test_a_corpus_is_read_into_a_table(tmp_path: Path) -> None:
    table = read_corpus(write_corpus(tmp_path, ['{"t":"page"}', '{"t":"card"}']), encode)

    assert table is not None
    assert draft(table, '{"t":"') == 'page"}'


@pytest.mark.parametrize(
    "write, why",
    [
        (lambda p: p.write_bytes(b" " * (MAX_CORPUS_BYTES + 1)), "bytes, over"),
        (lambda p: write_corpus(p.parent, ["a" * 150_000, "b" * 60_000]), "over 200000 tokens"),
        (lambda p: write_corpus(p.parent, ["fine", {"not": "a string"}]), "not a JSON string"),
        (lambda p: p.write_text('"fine"\n{broken\n'), "Expecting property name"),
        (lambda p: p.write_bytes(b'"\xff"\n'), "can't decode"),
    ],
)
def test_a_corpus_over_its_budgets_or_malformed_gives_no_drafts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, write: object, why: str
) -> None:
    path = tmp_path / CORPUS_FILE
    write(path)  # type: ignore[operator]

    with caplog.at_level(logging.WARNING, logger=corpus_drafts.__name__):
        assert read_corpus(path, encode) is None
    assert why in caplog.text and "no corpus drafts" in caplog.text


def test_each_adapter_folder_is_read_once_and_only_the_latest_are_kept(tmp_path: Path) -> None:
    reads: list[str] = []

    def counting(text: str) -> list[int]:
        reads.append(text)
        return encode(text)

    drafts = CorpusDrafts(counting)
    folders = []
    for n in range(TABLES_KEPT + 1):
        (tmp_path / str(n)).mkdir()
        write_corpus(tmp_path / str(n), [f"spec {n}"])
        folders.append(str(tmp_path / str(n)))
    (tmp_path / "plain").mkdir()

    assert drafts.table(str(tmp_path / "plain")) is None  # an adapter without a corpus
    first = drafts.table(folders[0])
    assert first is not None and drafts.table(folders[0]) is first
    assert reads == ["spec 0"]
    for later in folders[1:]:
        drafts.table(later)
    assert len(drafts._tables) == TABLES_KEPT
    assert folders[0] not in drafts._tables and folders[-1] in drafts._tables


def test_the_copy_vllm_loads_carries_the_corpus_unless_it_is_over_budget(tmp_path: Path) -> None:
    ref = adapter_ref(tmp_path, 1)
    write_corpus(Path(ref.path), ["spec"])
    pinned_copy(ref, tmp_path / "copy")
    assert (tmp_path / "copy" / CORPUS_FILE).read_text() == '"spec"\n'

    (Path(ref.path) / CORPUS_FILE).write_bytes(b" " * (MAX_CORPUS_BYTES + 1))
    pinned_copy(ref, tmp_path / "copy2")
    assert not (tmp_path / "copy2" / CORPUS_FILE).exists()


def test_the_ui_expert_gets_a_seeded_sample_of_its_answers_and_chat_none(tmp_path: Path) -> None:
    records = ui.generate(0, composed_count=300, screens_per_kind=0, data_dashboards_count=0)
    path = write_draft_corpus(tmp_path, "ui", records, seed=3)

    assert path is not None and path == tmp_path / CORPUS_FILE
    written = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(written) == CORPUS_ANSWERS and set(written) <= set(answers(records))
    (tmp_path / "again").mkdir()
    again = write_draft_corpus(tmp_path / "again", "ui", records, seed=3)
    assert again is not None and again.read_text() == path.read_text()  # seeded
    assert write_draft_corpus(tmp_path, "chat", records) is None


@dataclass
class Request:
    """What the scheduler reads of a vLLM request (a stand-in: the real ones run in
    tests/inference/test_jump_forward.py)."""

    all_token_ids: list[int]
    lora_request: Any
    spec_token_ids: list[int] = field(default_factory=list)
    is_prefill_chunk: bool = False
    use_structured_output: bool = False
    structured_output_request: Any = None

    def is_finished(self) -> bool:
        return False


def scheduler_with(folder: Path, requests: dict[str, Request]) -> JumpForwardScheduler:
    scheduler = JumpForwardScheduler.__new__(JumpForwardScheduler)  # no engine: drafts only
    scheduler._lookup_limit, scheduler._corpus_limit = 4, 8
    scheduler._corpus = CorpusDrafts(encode)
    scheduler.requests = requests
    scheduler.structured_output_manager = SimpleNamespace(validate_tokens=lambda _, t: list(t))
    return scheduler


def test_a_request_with_a_corpus_drafts_up_to_its_limit_and_others_up_to_the_lookups(
    tmp_path: Path,
) -> None:
    with_corpus, plain = tmp_path / "ui", tmp_path / "chat"
    with_corpus.mkdir()
    plain.mkdir()
    write_corpus(with_corpus, ['{"t":"button","label":"Save changes"}'])
    requests = {
        "ui": Request(encode('{"t":"'), SimpleNamespace(lora_path=str(with_corpus))),
        "ui-lookup": Request(encode('{"t":"'), SimpleNamespace(lora_path=str(with_corpus))),
        "chat": Request(encode("hello hello"), SimpleNamespace(lora_path=str(plain))),
        "base": Request(encode("hello hello"), None),
    }
    scheduler = scheduler_with(tmp_path, requests)
    lookup = encode("button, x")  # what vLLM's drafter proposed: 9 tokens, over every limit
    ids = list(requests)
    scheduler.update_draft_token_ids(
        SimpleNamespace(req_ids=ids, draft_token_ids=[[]] + [list(lookup) for _ in ids[1:]])
    )

    assert decode(requests["ui"].spec_token_ids) == 'button",'  # the corpus's, to 8
    assert decode(requests["ui-lookup"].spec_token_ids) == "button, "  # the lookup's, to 8
    assert decode(requests["chat"].spec_token_ids) == "butt"  # no corpus: the lookup's 4
    assert decode(requests["base"].spec_token_ids) == "butt"
