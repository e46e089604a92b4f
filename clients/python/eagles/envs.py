"""Environments over the engine server: PettingZoo's AEC shape, Gymnasium's single-agent shape, and a batched vector
of the latter. Observations are numpy arrays when numpy is installed, lists otherwise."""

from __future__ import annotations

import array
import base64
import sys
from typing import Any, Iterator

from . import spaces
from ._server import Server, shared_server
from .errors import BadArgumentError, EaglesError

try:  # numpy is optional: arrays when present, lists otherwise
    import numpy as _np
except ImportError:  # pragma: no cover - exercised where numpy is absent
    _np = None


def _floats(b64: str) -> Any:
    """Features sent as base64 of little-endian float32."""
    raw = base64.b64decode(b64)
    if _np is not None:
        return _np.frombuffer(raw, dtype="<f4")
    a = array.array("f")
    a.frombytes(raw)
    if sys.byteorder != "little":  # pragma: no cover
        a.byteswap()
    return a.tolist()


def _vec(x: list[float] | None, dtype: str = "float32") -> Any:
    if x is None or _np is None:
        return x
    return _np.asarray(x, dtype=dtype)


class Snapshot:
    """A saved position of one environment (`clone()`), restored with `restore()`; freed when garbage-collected."""

    def __init__(self, env: "_Base", handle: str):
        self._env, self.handle = env, handle

    def __del__(self) -> None:
        env = getattr(self, "_env", None)
        if env is not None and not env.closed and env._server.alive:
            try:
                env._server.call("release", handle=self.handle)
            except Exception:  # noqa: BLE001 - freeing a snapshot is best effort
                pass


class _Base:
    """One engine environment: creation, the fields asked for, the last observation, clone/restore, render."""

    def __init__(
        self,
        ruleset: str,
        scenario: str | None = None,
        seed: int | str | None = None,
        options: dict | None = None,
        obs_type: str | None = None,
        forced: str = "auto",
        max_actions: int = 1024,
        legal_keys: bool = True,
        action_features: bool = False,
        server: Server | None = None,
        extra: dict | None = None,
    ):
        self._server = server or shared_server()
        if not isinstance(ruleset, str) or ruleset not in self._server.rulesets:
            raise BadArgumentError(f"unknown ruleset {ruleset!r}; known: {', '.join(self._server.rulesets)}")
        self.ruleset = ruleset
        self.closed = True
        info = {r["id"]: r for r in self._server.call("rulesets")}[ruleset]
        if obs_type is None:
            obs_type = "features" if info["encoding"] else "json"
        if obs_type not in ("features", "json", "none"):
            raise BadArgumentError('obs_type must be "features", "json" or "none"')
        if obs_type == "features" and not info["encoding"]:
            raise BadArgumentError(f"ruleset {ruleset} has no feature encoding; use obs_type='json'")
        self.obs_type = obs_type
        # the legal actions' keys (info["legal"]) are for people reading along; learners need only the mask
        fields = ["count"] + (["legal"] if legal_keys else []) + {"features": ["features"], "json": ["observation"], "none": []}[obs_type]
        if action_features:
            if not info["encoding"]:
                raise BadArgumentError(f"ruleset {ruleset} has no feature encoding: no action features")
            fields.append("actionFeatures")
        self._action_size = info["encoding"]["actionSize"] if info["encoding"] else 0
        self._fixed_hint = info["encoding"] is not None
        args: dict[str, Any] = {
            "ruleset": ruleset,
            "binary": True,
            "fields": fields + ["mask"],
            "forced": forced,
            "maxActions": max_actions,
            **(extra or {}),
        }
        if scenario is not None:
            args["scenario"] = scenario
        if seed is not None:
            args["seed"] = str(seed)
        if options is not None:
            args["options"] = options
        r = self._server.call("create", **args)
        self.closed = False
        self._id: str = r["env"]
        self.scenario: str = r["scenario"]
        self.players: list[str] = r["players"]
        self.hidden_information: bool = r["hiddenInformation"]
        sp = r["spaces"]
        self.n_actions: int = sp["actions"]
        self.fixed_actions: bool = sp["fixed"]
        self.state_size: int | None = sp["stateSize"]
        self._obs: dict = r["obs"]

    # -- observations --------------------------------------------------------------------------------------------
    def _mask(self, o: dict) -> Any:
        if self.fixed_actions:
            m = o["mask"]
        else:
            m = [0] * self.n_actions
            for i in range(o["count"]):
                m[i] = 1
        return _vec(m, "int8")

    def _observation(self, o: dict) -> Any:
        if self.obs_type == "features":
            f = o["features"]
            return _floats(f) if isinstance(f, str) else _vec(f)
        if self.obs_type == "json":
            return o["observation"]
        return None

    def _info(self, o: dict) -> dict:
        info = {"legal": o.get("legal", []), "to_move": o["toMove"], "plies": o["plies"]}
        if "actionFeatures" in o:
            # one feature vector per legal action, in the legal actions' order (action i's row is i for a ruleset
            # without a fixed index)
            f = o["actionFeatures"]
            k = o["count"]
            if isinstance(f, str):
                flat = _floats(f)
                info["action_features"] = (
                    flat.reshape(k, self._action_size)
                    if _np is not None
                    else [flat[i * self._action_size : (i + 1) * self._action_size] for i in range(k)]
                )
            else:
                info["action_features"] = _vec(f) if _np is not None else f
        if o.get("terminal"):
            info["result"] = o.get("result")
        return info

    def observation_space_(self) -> Any:
        if self.obs_type == "features":
            return spaces.Box(-1.0, 2.0, (self.state_size or 0,))
        return spaces.Json()

    # -- search support ------------------------------------------------------------------------------------------
    def clone(self) -> Snapshot:
        """Save the position (for search in Python); `restore(snapshot)` goes back to it."""
        return Snapshot(self, self._server.call("clone", env=self._id)["handle"])

    def restore(self, snap: Snapshot) -> None:
        self._obs = self._server.call("restore", env=self._id, handle=snap.handle)
        self._restored()

    def _restored(self) -> None:
        pass

    def legal_actions(self) -> list[int]:
        """The legal actions now, as action indices (the mask's ones)."""
        m = self._mask(self._obs)
        return [i for i, x in enumerate(m) if x]

    def render(self) -> str:
        """The table as text, as the player to move sees it."""
        return self._server.call("render", env=self._id)["text"]

    def write_replay(self, path: str) -> None:
        """Write the game so far as a replay file (`eagles replay verify|show` reads it)."""
        self._server.call("replay", env=self._id, file=str(path))

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            if self._server.alive:
                self._server.call("close", env=self._id)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - a dead server has nothing left to close
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AECEnv(_Base):
    """PettingZoo's AEC (agent-environment cycle) shape for one game; see `eagles.env`."""

    metadata = {"render_modes": ["ansi"], "name": "eagles"}

    def __init__(self, ruleset: str, max_steps: int | None = None, **kw: Any):
        super().__init__(ruleset, **kw)
        self.metadata = {"render_modes": ["ansi"], "name": f"eagles_{ruleset}"}
        self.possible_agents = list(self.players)
        self.max_steps = max_steps
        self._action_spaces = {a: spaces.Discrete(self.n_actions) for a in self.possible_agents}
        obs = self.observation_space_()
        mask = spaces.Box(0, 1, (self.n_actions,))
        self._observation_spaces = {a: spaces.Dict({"observation": obs, "action_mask": mask}) for a in self.possible_agents}
        self._start()

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def _start(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.num_steps = 0
        self._sync()

    def _sync(self) -> None:
        """Point `agent_selection` at the player to move, or close the game for every agent at its end."""
        o = self._obs
        if o["terminal"] or (self.max_steps is not None and self.num_steps >= self.max_steps):
            done = o["terminal"]
            for i, a in enumerate(self.possible_agents):
                if a in self.agents:
                    self.rewards[a] = float(o["returns"][i]) if done else 0.0
                    self._cumulative_rewards[a] = self.rewards[a]
                    self.terminations[a] = done
                    self.truncations[a] = not done
                    self.infos[a] = self._info(o)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[o["toMove"]]
        self.infos[self.agent_selection] = self._info(o)

    def _restored(self) -> None:
        self._start()

    def reset(self, seed: int | str | None = None, options: dict | None = None) -> None:
        self._obs = self._server.call("reset", env=self._id, **({"seed": str(seed)} if seed is not None else {}))["obs"]
        self._start()

    def observe(self, agent: str) -> dict:
        o = self._obs
        if agent != self.agent_selection or o["terminal"]:
            p = self.possible_agents.index(agent)
            o = self._server.call("observe", env=self._id, player=p)
        return {"observation": self._observation(o), "action_mask": self._mask(o)}

    def last(self, observe: bool = True) -> tuple:
        a = self.agent_selection
        obs = self.observe(a) if observe else None
        return obs, self._cumulative_rewards[a], self.terminations[a], self.truncations[a], self.infos[a]

    def step(self, action: int | str | None) -> None:
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            if action is not None:
                raise EaglesError(f"{a} is done: step it with None")
            self.agents.remove(a)
            self._cumulative_rewards[a] = 0.0
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        if action is None:
            raise EaglesError(f"{a} is to act: step it with an action, not None")
        if _np is not None and isinstance(action, _np.integer):
            action = int(action)
        self._obs = self._server.call("step", env=self._id, action=action)["obs"]
        self.num_steps += 1
        for k in self.rewards:
            self.rewards[k] = 0.0
        self._sync()

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection


class GymEnv(_Base):
    """Gymnasium's single-agent shape: the learner plays `seat`, the server plays the others with `opponent`."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        ruleset: str,
        opponent: str = "heuristic",
        seat: int = 0,
        opponent_ms: int | None = None,
        opponent_iterations: int | None = None,
        max_steps: int | None = None,
        **kw: Any,
    ):
        extra: dict[str, Any] = {"opponent": opponent, "seat": seat}
        if opponent_ms is not None:
            extra["opponentMs"] = opponent_ms
        if opponent_iterations is not None:
            extra["opponentIterations"] = opponent_iterations
        super().__init__(ruleset, extra=extra, **kw)
        self.seat = seat
        self.max_steps = max_steps
        self.action_space = spaces.Discrete(self.n_actions)
        self.observation_space = self.observation_space_()
        self._steps = 0

    def _out(self, o: dict) -> tuple[Any, dict]:
        info = self._info(o)
        info["action_mask"] = self._mask(o)
        return self._observation(o), info

    def reset(self, seed: int | str | None = None, options: dict | None = None) -> tuple[Any, dict]:
        self._obs = self._server.call("reset", env=self._id, **({"seed": str(seed)} if seed is not None else {}))["obs"]
        self._steps = 0
        return self._out(self._obs)

    def step(self, action: int | str) -> tuple[Any, float, bool, bool, dict]:
        if self._obs["terminal"]:
            raise EaglesError("the episode is over: call reset()")
        if _np is not None and isinstance(action, _np.integer):
            action = int(action)
        self._obs = o = self._server.call("step", env=self._id, action=action)["obs"]
        self._steps += 1
        terminated = bool(o["terminal"])
        reward = float(o["returns"][self.seat]) if terminated else 0.0
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        obs, info = self._out(o)
        return obs, reward, terminated, truncated, info


class VectorEnv:
    """`num_envs` single-agent environments stepped together in one request each step (fast stepping from Python).
    An environment whose episode ends is reset at once (its last observation is in infos[i]["final_observation"])."""

    def __init__(self, ruleset: str, num_envs: int, seed: int | str = 0, legal_keys: bool = False, **kw: Any):
        if num_envs < 1:
            raise BadArgumentError("num_envs must be at least 1")
        self.envs = [GymEnv(ruleset, seed=f"{seed}-{i}", legal_keys=legal_keys, **kw) for i in range(num_envs)]
        self._server = self.envs[0]._server
        self.num_envs = num_envs
        self.single_action_space = self.envs[0].action_space
        self.single_observation_space = self.envs[0].observation_space

    def reset(self, seed: int | str | None = None) -> tuple[list, list[dict]]:
        outs = [e.reset(seed=None if seed is None else f"{seed}-{i}") for i, e in enumerate(self.envs)]
        return [o for o, _ in outs], [i for _, i in outs]

    def step(self, actions: list) -> tuple[list, list[float], list[bool], list[bool], list[dict]]:
        acts = [int(a) if _np is not None and isinstance(a, _np.integer) else a for a in actions]
        res = self._server.call("step_many", steps=[[e._id, a] for e, a in zip(self.envs, acts)])
        obs, rew, term, trunc, infos = [], [], [], [], []
        for e, r in zip(self.envs, res):
            if not r["ok"]:
                from .errors import IllegalActionError

                raise (IllegalActionError if r["code"] == "illegal-action" else EaglesError)(r["error"])
            o = e._obs = r["result"]["obs"]
            e._steps += 1
            done = bool(o["terminal"])
            truncated = not done and e.max_steps is not None and e._steps >= e.max_steps
            ob, info = e._out(o)
            info["applied"] = r["result"]["plies"]  # plies the engine applied: the action, dice, forced moves, the opponent
            if done or truncated:
                info["final_observation"] = ob
                ob, reset_info = e.reset()
                info["action_mask"] = reset_info["action_mask"]
                info["legal"] = reset_info["legal"]
            obs.append(ob)
            rew.append(float(o["returns"][e.seat]) if done else 0.0)
            term.append(done)
            trunc.append(truncated)
            infos.append(info)
        return obs, rew, term, trunc, infos

    def close(self) -> None:
        for e in self.envs:
            e.close()
