"""Search in Python with clone/restore: a plain UCT player for tic-tac-toe, against the random agent.

Each decision clones the environment, runs `--iterations` simulations (restore to the clone, walk the tree, play a
random rollout), restores and plays the most visited action. Tic-tac-toe has perfect information; a search that
clones a position of a game with hidden information would see what its player cannot (use the engine's own `mcts`
agent there: it searches information sets).

    PYTHONPATH=clients/python python3 clients/python/examples/mcts.py [--games 20] [--iterations 200]
"""

import argparse
import math
import random

import eagles


class Node:
    def __init__(self, player: str):
        self.player, self.n, self.w, self.kids = player, 0, 0.0, {}


def uct(env: eagles.AECEnv, iterations: int, rng: random.Random) -> int:
    root_snap = env.clone()
    me = env.agent_selection
    root = Node(me)
    for _ in range(iterations):
        env.restore(root_snap)
        node, path = root, [root]
        while True:  # selection and expansion
            if not env.agents or env.terminations[env.agent_selection]:
                break
            legal = env.legal_actions()
            untried = [a for a in legal if a not in node.kids]
            if untried:
                a = rng.choice(untried)
                mover = env.agent_selection
                env.step(a)
                node.kids[a] = Node(mover)
                path.append(node.kids[a])
                break
            mover = env.agent_selection
            a = max(node.kids, key=lambda k: node.kids[k].w / node.kids[k].n + math.sqrt(2 * math.log(node.n) / node.kids[k].n))
            env.step(a)
            node = node.kids[a]
            path.append(node)
        while env.agents and not env.terminations[env.agent_selection]:  # random rollout
            env.step(rng.choice(env.legal_actions()))
        rewards = dict(env.rewards)
        for nd in path:
            nd.n += 1
            # a child's value is for the player who moved into it
            nd.w += rewards.get(nd.player, 0.0)
    env.restore(root_snap)
    return max(root.kids, key=lambda k: root.kids[k].n)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--iterations", type=int, default=200)
    args = ap.parse_args()
    rng = random.Random(1)
    score = {"win": 0, "draw": 0, "loss": 0}
    for g in range(args.games):
        env = eagles.env("tic-tac-toe", seed=g)
        uct_side = env.possible_agents[g % 2]
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                if agent == uct_side:
                    score["win" if reward > 0 else "draw" if reward == 0 else "loss"] += 1
                env.step(None)
                continue
            env.step(uct(env, args.iterations, rng) if agent == uct_side else rng.choice(env.legal_actions()))
        env.close()
    print(f"UCT ({args.iterations} simulations) against random over {args.games} games: {score}")


if __name__ == "__main__":
    main()
