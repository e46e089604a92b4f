"""A tiny learner that measurably beats random: tabular Monte Carlo control on Kuhn poker against the random agent.

The learner plays seat A against `random` (played by the engine server). Its table holds a value per (observation,
action); it plays ε-greedily while learning and greedily when evaluated. It prints the mean chips won per hand by a
random policy and by the learned one, each over the same number of evaluation hands, with standard errors.

    PYTHONPATH=clients/python python3 clients/python/examples/tabular_learner.py [--episodes 4000] [--eval 2000]
"""

import argparse
import random
from collections import defaultdict
from statistics import mean, stdev

import eagles


def key(obs) -> tuple:
    return tuple(round(float(x), 3) for x in obs)


def play(env, policy, seed) -> tuple[float, list]:
    obs, info = env.reset(seed=seed)
    trajectory = []
    while True:
        legal = [i for i, m in enumerate(info["action_mask"]) if m]
        a = policy(obs, legal)
        trajectory.append((key(obs), a))
        obs, reward, terminated, truncated, info = env.step(a)
        if terminated or truncated:
            return reward, trajectory


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--episodes", type=int, default=4000)
    ap.add_argument("--eval", type=int, default=2000)
    ap.add_argument("--epsilon", type=float, default=0.2)
    args = ap.parse_args()
    rng = random.Random(0)
    env = eagles.gym_env("kuhn-poker", opponent="random", seed="learn")
    q: dict = defaultdict(float)
    n: dict = defaultdict(int)

    def greedy(obs, legal):
        k = key(obs)
        return max(legal, key=lambda a: (q[(k, a)], -a))

    def explore(obs, legal):
        return rng.choice(legal) if rng.random() < args.epsilon else greedy(obs, legal)

    for ep in range(args.episodes):
        reward, traj = play(env, explore, f"train-{ep}")
        for s_a in traj:  # every visit gets the hand's result (no discount: one payoff at the end)
            n[s_a] += 1
            q[s_a] += (reward - q[s_a]) / n[s_a]

    def evaluate(policy) -> tuple[float, float]:
        r = [play(env, policy, f"eval-{i}")[0] for i in range(args.eval)]
        return mean(r), stdev(r) / len(r) ** 0.5

    rnd = evaluate(lambda obs, legal: rng.choice(legal))
    learned = evaluate(greedy)
    env.close()
    print(f"random policy : {rnd[0]:+.3f} chips/hand (± {rnd[1]:.3f})")
    print(f"learned policy: {learned[0]:+.3f} chips/hand (± {learned[1]:.3f}) after {args.episodes} hands")
    print(f"difference    : {learned[0] - rnd[0]:+.3f} chips/hand, {(learned[0] - rnd[0]) / (rnd[1] ** 2 + learned[1] ** 2) ** 0.5:.1f} standard errors")


if __name__ == "__main__":
    main()
