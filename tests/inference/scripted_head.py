"""A head's logit rules (inference/serving/list_completion.py and the rules it spells for) run on
a scripted vocabulary: each token a string of the spec, the first few opening one."""

from __future__ import annotations

from types import SimpleNamespace

import torch

from inference.serving import list_completion
from inference.serving.list_completion import ListState
from inference.serving.step_rows import Row, Strings


class ScriptedHead:
    """One request's head over `vocab`, whose first `openings` tokens only begin a spec."""

    def __init__(self, vocab: list[str], openings: int) -> None:
        self.vocab = vocab
        self.openings = openings
        self.strings: Strings = vocab.__getitem__  # one function: the rules' caches key on it

    def read(self) -> Strings:
        return self.strings

    def request(self, written: list[str], message: str) -> SimpleNamespace:
        extra = list_completion.request_args(message)
        ids = [self.vocab.index(text) for text in written]
        params = SimpleNamespace(extra_args=extra)
        return SimpleNamespace(output_token_ids=ids, sampling_params=params)

    def step(self, best: str) -> torch.Tensor:
        """Logits that allow every token but the opening ones, `best` the likeliest."""
        logits = torch.zeros((1, len(self.vocab)))
        logits[0, : self.openings] = float("-inf")
        logits[0, self.vocab.index(best)] = 5.0
        return logits

    def kept(self, logits: torch.Tensor) -> set[str]:
        """The tokens a row still allows."""
        return {self.vocab[t] for t in torch.isfinite(logits[0]).nonzero().flatten().tolist()}

    def after(
        self, written: list[str], logits: torch.Tensor, state: ListState, message: str
    ) -> str:
        """The likeliest token once the rules have read `written` and held `logits`' row."""
        batch: list[Row] = [("r", self.request(written, message), 0, 1, [])]
        list_completion.hold_lists(logits, batch, {"r": state}, self.read)
        return self.vocab[int(logits[0].argmax())]
