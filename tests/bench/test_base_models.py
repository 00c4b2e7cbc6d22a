"""bench.base_models' arithmetic: parameters from a safetensors header, run-by-run ratios and
the printed table."""

from __future__ import annotations

from pathlib import Path

import torch
from safetensors.torch import save_file

from bench.base_models import DEVSET_FIGURES, parameters, ratios, table


def test_parameters_are_counted_from_the_safetensors_header(tmp_path: Path) -> None:
    save_file(
        {"embed": torch.zeros(10, 4), "norm": torch.zeros(4)},
        str(tmp_path / "model.safetensors"),
        metadata={"format": "pt"},
    )
    assert parameters(tmp_path) == 44


def test_ratios_pair_each_run_with_its_own_round() -> None:
    assert ratios([20.0, 30.0], [40.0, 30.0]) == [0.5, 1.0]


def test_the_table_shows_spreads_ratios_dev_set_figures_and_licences() -> None:
    devset = {figure: 1 for figure in DEVSET_FIGURES}
    report = {
        "models": {
            "small": {
                "licence": "Apache-2.0",
                "parameters": 135_000_000,
                "speed": {"1": [30.0, 40.0, 35.0], "8": [200.0, 190.0, 210.0]},
                "devset": devset,
            },
            "large": {
                "licence": "Gemma Terms of Use",
                "parameters": 268_000_000,
                "speed": {"1": [27.0, 28.0, 26.0], "8": [150.0, 160.0, 155.0]},
                "devset": devset,
            },
        },
        "speed_ratios": {"1": [0.9, 0.7, 0.743], "8": [0.75, 0.842, 0.738]},
    }
    printed = table(report)
    assert "30.0 / 35.0 / 40.0" in printed
    assert "0.7 / 0.743 / 0.9" in printed
    assert "dev set: requirements_pct" in printed
    (parameters_row,) = [line for line in printed.splitlines() if line.startswith("parameters")]
    assert parameters_row.split()[2:] == ["135", "268"]
    assert "large: Gemma Terms of Use" in printed
