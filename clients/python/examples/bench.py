"""Speed from Python: random play on The March of Eagles through the client, beside the engine's own plies/s measured
in the same run (`eagles bench`). Plies are everything the engine applied (the learner's actions, dice, forced moves);
decisions are the learner's steps.

    PYTHONPATH=clients/python python3 clients/python/examples/bench.py [--seconds 10] [--envs 64]
"""

import argparse
import json
import random
import subprocess
import time
from pathlib import Path

import eagles

REPO = Path(__file__).resolve().parents[3]


def aec(obs_type: str, seconds: float) -> tuple[float, float]:
    rng = random.Random(0)
    decisions = plies = 0
    t0 = time.perf_counter()
    game = 0
    while time.perf_counter() - t0 < seconds:
        env = eagles.env("march-of-eagles", scenario="open-field", seed=f"bench-{game}", obs_type=obs_type, legal_keys=False)
        for agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.choice([i for i, m in enumerate(obs["action_mask"]) if m]))
            decisions += 1
        plies += info["plies"]
        env.close()
        game += 1
    dt = time.perf_counter() - t0
    return decisions / dt, plies / dt


def vector(obs_type: str, n: int, seconds: float) -> tuple[float, float]:
    rng = random.Random(0)
    venv = eagles.vector_env("march-of-eagles", n, opponent="random", scenario="open-field", seed="vbench", obs_type=obs_type)
    _, infos = venv.reset()
    decisions = plies = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        acts = [rng.choice([i for i, m in enumerate(inf["action_mask"]) if m]) for inf in infos]
        _, _, _, _, infos = venv.step(acts)
        decisions += n
        plies += sum(inf["applied"] for inf in infos)
    dt = time.perf_counter() - t0
    venv.close()
    return decisions / dt, plies / dt


def engine(seconds: float) -> float:
    r = subprocess.run(
        ["node", "--import", "tsx", str(REPO / "bin/eagles.ts"), "bench", "--json", "--ruleset", "march-of-eagles",
         "--scenario", "open-field", "--seconds", str(seconds)],
        cwd=REPO, capture_output=True, text=True, check=True,
    )
    rows = json.loads(r.stdout)["rows"]
    return rows[0]["pliesPerSec"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--envs", type=int, default=64)
    args = ap.parse_args()
    base = engine(args.seconds)
    print(f"engine alone (eagles bench, open-field): {base:,.0f} plies/s")
    for name, f in [
        ("AEC, one game, masks only", lambda: aec("none", args.seconds)),
        ("AEC, one game, with features", lambda: aec("features", args.seconds)),
        (f"vector of {args.envs} vs random, masks only", lambda: vector("none", args.envs, args.seconds)),
        (f"vector of {args.envs} vs random, with features", lambda: vector("features", args.envs, args.seconds)),
    ]:
        d, p = f()
        print(f"{name:45s} {d:9,.0f} decisions/s {p:9,.0f} plies/s  ({100 * p / base:.0f}% of the engine)")
    print(f"engine alone again: {engine(args.seconds):,.0f} plies/s")


if __name__ == "__main__":
    main()
