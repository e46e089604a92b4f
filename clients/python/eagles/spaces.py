"""Minimal spaces with Gymnasium's attributes (`n`, `shape`, `dtype`, `sample`), without importing Gymnasium."""

from __future__ import annotations

import random
from typing import Any, Sequence


class Discrete:
    """Actions 0..n-1; `sample(mask)` draws uniformly among the unmasked ones."""

    def __init__(self, n: int, seed: int | None = None):
        self.n = int(n)
        self.shape: tuple[int, ...] = ()
        self.dtype = "int64"
        self._rng = random.Random(seed)

    def seed(self, seed: int | None = None) -> None:
        self._rng.seed(seed)

    def sample(self, mask: Sequence[Any] | None = None) -> int:
        if mask is None:
            return self._rng.randrange(self.n)
        allowed = [i for i, m in enumerate(mask) if m]
        if not allowed:
            raise ValueError("sample: the mask allows no action")
        return self._rng.choice(allowed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, int) and 0 <= x < self.n

    def __repr__(self) -> str:
        return f"Discrete({self.n})"


class Box:
    """A float32 vector of `shape` with bounds."""

    def __init__(self, low: float, high: float, shape: tuple[int, ...]):
        self.low, self.high, self.shape, self.dtype = low, high, tuple(shape), "float32"

    def __repr__(self) -> str:
        return f"Box({self.low}, {self.high}, {self.shape}, float32)"


class Json:
    """An observation given as the engine's structured JSON (a ruleset without a feature encoding)."""

    shape = None
    dtype = "object"

    def __repr__(self) -> str:
        return "Json()"


class Dict:
    """PettingZoo's action-masked observation: {"observation": …, "action_mask": …}."""

    def __init__(self, spaces: dict[str, Any]):
        self.spaces = spaces

    def __getitem__(self, k: str) -> Any:
        return self.spaces[k]

    def __repr__(self) -> str:
        return f"Dict({self.spaces})"
