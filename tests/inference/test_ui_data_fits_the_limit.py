"""The product's ui generation limit lets the expert finish every spec its data taught it."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from transformers import AutoTokenizer

from inference.offline.datasets.build import generated
from inference.settings import EngineSettings


def test_the_ui_limit_covers_every_spec_in_the_ui_data() -> None:
    # At 700 tokens, 279 of the 10,137 training specs (wizards of many steps, long forms) were
    # cut off before their end: a screen the expert was taught to finish ended as not valid.
    tokenizer = AutoTokenizer.from_pretrained(Path(EngineSettings.from_env().model))
    specs = [r["messages"][-1]["content"] for r in generated("ui", 0)]
    longest = max(len(tokenizer.encode(spec, add_special_tokens=False)) for spec in specs)
    assert longest <= settings.MACARON_UI_MAX_TOKENS, longest
