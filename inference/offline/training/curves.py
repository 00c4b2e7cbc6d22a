"""Draws a run's training and eval loss curves as a PNG (Pillow; no plotting library needed)."""

from __future__ import annotations

from pathlib import Path

WIDTH, HEIGHT = 900, 520
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 70, 30, 40, 60
TRAIN_RAW = (190, 205, 235)
TRAIN = (40, 80, 200)
EVAL = (220, 90, 30)
AXIS = (60, 60, 60)
GRID = (228, 228, 228)


def smoothed(values: list[float], window: int) -> list[float]:
    """The trailing mean over `window` steps: a batch's loss alone is noisy."""
    out, total = [], 0.0
    for i, value in enumerate(values):
        total += value
        if i >= window:
            total -= values[i - window]
        out.append(total / min(i + 1, window))
    return out


def draw_curves(
    path: Path,
    losses: list[float],
    evals: list[tuple[int, float]],
    *,
    title: str = "",
) -> None:
    """Training loss per step (raw and smoothed) and eval loss at the steps it was measured."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default()
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    top, bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM
    steps = max(len(losses), max((s for s, _ in evals), default=0), 1)
    values = losses + [v for _, v in evals]
    high = max(values, default=1.0) * 1.05 or 1.0
    low = 0.0

    def at(step: float, loss: float) -> tuple[float, float]:
        x = left + (right - left) * step / steps
        y = bottom - (bottom - top) * (loss - low) / (high - low)
        return x, y

    for i in range(6):
        loss = low + (high - low) * i / 5
        _, y = at(0, loss)
        draw.line([(left, y), (right, y)], fill=GRID)
        draw.text((8, y - 6), f"{loss:.2f}", fill=AXIS, font=font)
    for i in range(6):
        step = steps * i / 5
        x, _ = at(step, low)
        draw.line([(x, bottom), (x, bottom + 5)], fill=AXIS)
        draw.text((x - 10, bottom + 10), f"{step:.0f}", fill=AXIS, font=font)
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=AXIS, width=2)
    draw.text(((left + right) // 2 - 15, HEIGHT - 25), "step", fill=AXIS, font=font)
    draw.text((left, 12), title or "loss", fill=AXIS, font=font)
    if len(losses) > 1:
        draw.line([at(i + 1, v) for i, v in enumerate(losses)], fill=TRAIN_RAW, width=1)
        window = max(1, min(25, len(losses) // 10))
        trend = smoothed(losses, window)
        draw.line([at(i + 1, v) for i, v in enumerate(trend)], fill=TRAIN, width=3)
    if len(evals) > 1:
        draw.line([at(s, v) for s, v in evals], fill=EVAL, width=3)
    for s, v in evals:
        x, y = at(s, v)
        draw.ellipse([x - 4, y - 4, x + 4, y + 4], fill=EVAL)
    legend = [(TRAIN, "train loss (smoothed)"), (TRAIN_RAW, "train loss"), (EVAL, "eval loss")]
    for i, (colour, name) in enumerate(legend):
        y = top + 8 + 18 * i
        draw.line([(right - 170, y + 6), (right - 145, y + 6)], fill=colour, width=3)
        draw.text((right - 138, y), name, fill=AXIS, font=font)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, format="PNG")
