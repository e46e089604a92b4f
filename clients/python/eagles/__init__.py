"""eagles: the eagles wargame engines as Python environments, in PettingZoo's and Gymnasium's shapes.

    import eagles
    env = eagles.env("march-of-eagles", seed=1)          # PettingZoo AEC: every side is an agent
    env = eagles.gym_env("march-of-eagles", opponent="heuristic", seed=1)   # Gymnasium: one side, the server plays the other
    envs = eagles.vector_env("march-of-eagles", 16, opponent="random")      # batched single-agent stepping

The engine runs in one Node.js process per Python process (`eagles env-server`), started on first use and ended
with the interpreter; `eagles.Server()` starts a private one. Standard library only; observations are numpy arrays
when numpy is installed.
"""

from __future__ import annotations

from typing import Any

from ._server import PROTOCOL, Server, shared_server
from .envs import AECEnv, GymEnv, Snapshot, VectorEnv
from .errors import BadArgumentError, EaglesError, IllegalActionError, ServerError

__version__ = "0.1.0"

__all__ = [
    "AECEnv",
    "BadArgumentError",
    "EaglesError",
    "GymEnv",
    "IllegalActionError",
    "PROTOCOL",
    "Server",
    "ServerError",
    "Snapshot",
    "VectorEnv",
    "env",
    "gym_env",
    "rulesets",
    "vector_env",
]


def env(ruleset: str, scenario: str | None = None, seed: int | str | None = None, **kw: Any) -> AECEnv:
    """A game where every side is an agent (PettingZoo AEC): agents, reset, agent_iter, last, step, render."""
    return AECEnv(ruleset, scenario=scenario, seed=seed, **kw)


def gym_env(
    ruleset: str, opponent: str = "heuristic", scenario: str | None = None, seed: int | str | None = None, **kw: Any
) -> GymEnv:
    """A game where the learner plays `seat` (default 0) and the server plays the other side with the agent spec
    `opponent` (any `eagles agents` spec: random, heuristic, mcts:it=200, …): reset → (obs, info), step → 5-tuple."""
    return GymEnv(ruleset, opponent=opponent, scenario=scenario, seed=seed, **kw)


def vector_env(ruleset: str, num_envs: int, opponent: str = "heuristic", seed: int | str = 0, **kw: Any) -> VectorEnv:
    """`num_envs` single-agent games stepped together, one request a step."""
    return VectorEnv(ruleset, num_envs, seed=seed, opponent=opponent, **kw)


def rulesets(server: Server | None = None) -> list[dict]:
    """The engine's rulesets: id, title, players, scenarios, encoding sizes, whether anything is hidden."""
    return (server or shared_server()).call("rulesets")
