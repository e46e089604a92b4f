"""The Python client as a researcher uses it: shapes, masks, seeds against `replay verify`, errors, hidden choices."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
REPO = HERE.parents[2]

import eagles  # noqa: E402

SEEDED = [
    ("march-of-eagles", "open-field"),
    ("eagles-of-the-empire", None),
    ("age-of-eagles", "quick-test"),
    ("napoleons-eagles", "quick-test"),
    ("charge-eagles-rising", "quick-test"),
    ("goofspiel", "standard"),
    ("kuhn-poker", None),
]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["node", "--import", "tsx", str(REPO / "bin" / "eagles.ts"), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )


def play_random_aec(env: eagles.AECEnv, rng: random.Random, limit: int = 5000) -> list:
    actions = []
    for agent in env.agent_iter(limit):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = [i for i, m in enumerate(obs["action_mask"]) if m]
        a = rng.choice(legal)
        actions.append(a)
        env.step(a)
    return actions


class Shape(unittest.TestCase):
    def test_aec_shape(self):
        env = eagles.env("goofspiel", scenario="three-descending", seed=1)
        self.assertEqual(env.possible_agents, ["A", "B"])
        self.assertEqual(env.agents, ["A", "B"])
        self.assertEqual(env.action_space("A").n, 8)
        env.reset(seed=2)
        self.assertEqual(env.agent_selection, "A")
        obs, reward, term, trunc, info = env.last()
        self.assertEqual(set(obs), {"observation", "action_mask"})
        self.assertEqual(len(obs["observation"]), 35)
        self.assertEqual((reward, term, trunc), (0.0, False, False))
        self.assertEqual(info["legal"], ["bid 1", "bid 2", "bid 3"])
        self.assertIn("points", env.render())
        seen = play_random_aec(env, random.Random(0))
        self.assertEqual(len(seen), 4)  # the last turn's bids are forced: the server plays them
        self.assertEqual(env.agents, [])
        env.close()

    def test_gym_shape_every_ruleset(self):
        for ruleset, scenario in SEEDED:
            with self.subTest(ruleset=ruleset):
                opponent = (
                    "heuristic"
                    if ruleset
                    in ("march-of-eagles", "eagles-of-the-empire", "age-of-eagles", "napoleons-eagles", "charge-eagles-rising")
                    else "random"
                )
                env = eagles.gym_env(ruleset, opponent=opponent, scenario=scenario, seed=3)
                obs, info = env.reset()
                self.assertIn("action_mask", info)
                rng = random.Random(1)
                done = False
                steps = 0
                while not done:
                    a = rng.choice([i for i, m in enumerate(info["action_mask"]) if m])
                    obs, reward, terminated, truncated, info = env.step(a)
                    done = terminated or truncated
                    steps += 1
                self.assertTrue(terminated)
                self.assertIn(reward, (-2.0, -1.0, 0.0, 1.0, 2.0))
                self.assertTrue(info["result"])
                env.close()

    def test_vector_env(self):
        venv = eagles.vector_env("march-of-eagles", 4, opponent="random", seed=5, obs_type="none")
        obs, infos = venv.reset()
        self.assertEqual(len(infos), 4)
        rng = random.Random(2)
        ended = 0
        for _ in range(400):
            acts = [rng.choice([i for i, m in enumerate(inf["action_mask"]) if m]) for inf in infos]
            obs, rew, term, trunc, infos = venv.step(acts)
            ended += sum(term)
        self.assertGreater(ended, 0)  # games ended and were reset in place
        venv.close()


class Masks(unittest.TestCase):
    def test_mask_agrees_with_legal_actions(self):
        for ruleset, scenario in SEEDED:
            with self.subTest(ruleset=ruleset):
                env = eagles.env(ruleset, scenario=scenario, seed=4)
                rng = random.Random(3)
                checks = 0
                for agent in env.agent_iter(300):
                    obs, _, term, trunc, info = env.last()
                    if term or trunc:
                        env.step(None)
                        continue
                    mask = [int(m) for m in obs["action_mask"]]
                    self.assertEqual(sum(mask), len(info["legal"]))
                    self.assertEqual(env.legal_actions(), [i for i, m in enumerate(mask) if m])
                    off = [i for i, m in enumerate(mask) if not m]
                    if off and checks < 5:
                        with self.assertRaises(eagles.IllegalActionError):
                            env.step(off[0])
                        checks += 1
                    env.step(rng.choice([i for i, m in enumerate(mask) if m]))
                env.close()

    def test_action_features(self):
        env = eagles.gym_env("march-of-eagles", opponent="random", seed=3, action_features=True)
        _, info = env.reset()
        feats = info["action_features"]
        self.assertEqual(len(feats), len(info["legal"]))
        self.assertEqual(len(feats[0]), 66)
        # different actions, different features
        self.assertEqual(len({tuple(float(x) for x in row) for row in feats}), len(feats))
        env.close()

    def test_actions_by_key(self):
        env = eagles.env("kuhn-poker", seed=1)
        _, _, _, _, info = env.last()
        env.step(info["legal"][1])
        self.assertEqual(env.agent_selection, "B")
        env.close()


class Seeds(unittest.TestCase):
    def test_seeded_games_repeat_and_verify(self):
        with tempfile.TemporaryDirectory() as tmp:
            files = []
            for run in range(2):
                env = eagles.env("march-of-eagles", scenario="open-field", seed=11)
                play_random_aec(env, random.Random(7))
                files.append(os.path.join(tmp, f"r{run}.msgpack"))
                env.write_replay(files[-1])
                env.close()
            for f in files:
                r = cli("replay", "verify", f, "--json")
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertTrue(json.loads(r.stdout)["ok"])
            shown = [json.loads(cli("replay", "show", f, "--json").stdout) for f in files]
            self.assertEqual(shown[0]["finalHash"], shown[1]["finalHash"])
            self.assertEqual(shown[0]["steps"], shown[1]["steps"])
            self.assertIsNotNone(shown[0]["result"])

    def test_clone_restore(self):
        env = eagles.env("march-of-eagles", seed=2)
        rng = random.Random(5)
        for _ in range(5):
            env.step(rng.choice(env.legal_actions()))
        snap = env.clone()
        before = (env.agent_selection, [float(x) for x in env.last()[0]["observation"]], env.render())
        for _ in range(20):
            if env.agents and not env.terminations[env.agent_selection]:
                env.step(rng.choice(env.legal_actions()))
        env.restore(snap)
        after = (env.agent_selection, [float(x) for x in env.last()[0]["observation"]], env.render())
        self.assertEqual(before, after)
        env.close()


class Errors(unittest.TestCase):
    def test_bad_arguments(self):
        with self.assertRaisesRegex(eagles.BadArgumentError, "unknown ruleset 'chess'"):
            eagles.env("chess")
        with self.assertRaisesRegex(eagles.BadArgumentError, 'unknown scenario "nowhere"'):
            eagles.env("march-of-eagles", scenario="nowhere")
        with self.assertRaisesRegex(eagles.BadArgumentError, 'unknown agent "grandmaster"'):
            eagles.gym_env("march-of-eagles", opponent="grandmaster")
        with self.assertRaisesRegex(eagles.BadArgumentError, "obs_type"):
            eagles.env("march-of-eagles", obs_type="pixels")
        with self.assertRaisesRegex(eagles.IllegalActionError, "not a legal action"):
            eagles.env("kuhn-poker", seed=1).step("raise")

    def test_stepping_a_finished_game(self):
        env = eagles.gym_env("kuhn-poker", opponent="random", seed=1)
        _, info = env.reset()
        done = False
        while not done:
            _, _, done, _, info = env.step(env.legal_actions()[0])
        with self.assertRaisesRegex(eagles.EaglesError, "reset"):
            env.step(0)
        env.close()

    def test_dead_server(self):
        server = eagles.Server()
        env = eagles.env("kuhn-poker", seed=1, server=server)
        server._proc.kill()
        server._proc.wait()
        with self.assertRaisesRegex(eagles.ServerError, "died"):
            env.step(0)
        server.close()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is not alive: it has ended and waits to be reaped
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


class Processes(unittest.TestCase):
    def test_close_and_garbage_collection_end_the_server(self):
        s = eagles.Server()
        pid = s.pid
        self.assertTrue(alive(pid))
        s.close()
        self.assertFalse(alive(pid))
        s2 = eagles.Server()
        pid2 = s2.pid
        del s2
        import gc

        gc.collect()
        self.assertFalse(alive(pid2))

    def _child(self, body: str, sig: int | None = None) -> int:
        code = f"import sys; sys.path.insert(0, {str(HERE.parent)!r}); import eagles\n" + body
        p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        pid = int(p.stdout.readline())
        if sig is not None:
            p.send_signal(sig)
        p.wait(timeout=30)
        p.stdout.close()
        return pid

    def test_exit_and_ctrl_c_end_the_server(self):
        import signal
        import time

        pid = self._child("e = eagles.env('kuhn-poker'); print(eagles.shared_server().pid, flush=True)")
        time.sleep(0.2)
        self.assertFalse(alive(pid))
        pid = self._child(
            "import time\ne = eagles.env('kuhn-poker')\ntry:\n"
            "    print(eagles.shared_server().pid, flush=True)\n    time.sleep(60)\n"
            "except KeyboardInterrupt:\n    raise SystemExit(130)",
            signal.SIGINT,
        )
        time.sleep(0.2)
        self.assertFalse(alive(pid))


class Hidden(unittest.TestCase):
    def test_the_second_bidder_sees_nothing_of_the_first_bid(self):
        seen = []
        for bid in ("bid 1", "bid 3"):
            env = eagles.env("goofspiel", scenario="three-descending", seed=1, obs_type="json")
            env.step(bid)
            obs, _, _, _, info = env.last()
            self.assertEqual(env.agent_selection, "B")
            seen.append(json.dumps([obs["observation"], [int(m) for m in obs["action_mask"]], info["legal"], env.render()]))
            env.close()
        self.assertEqual(seen[0], seen[1])
        self.assertIn('"sealed": [null]', seen[0])
        feats = []
        for bid in ("bid 1", "bid 3"):
            env = eagles.env("goofspiel", scenario="three-descending", seed=1)
            env.step(bid)
            feats.append([float(x) for x in env.last()[0]["observation"]])
            env.close()
        self.assertEqual(feats[0], feats[1])

    def test_napoleons_eagles_second_side_sees_nothing_of_the_first_bid(self):
        seen, feats = [], []
        for bid in ("bid 2", "bid 9"):
            env = eagles.env("napoleons-eagles", scenario="quick-test", seed=5, obs_type="json")
            env.step(bid)
            obs, _, _, _, info = env.last()
            self.assertEqual(env.agent_selection, "second")
            self.assertTrue(all(k.startswith("bid ") for k in info["legal"]))
            seen.append(json.dumps([obs["observation"], [int(m) for m in obs["action_mask"]], info["legal"], env.render()]))
            env.close()
            env = eagles.env("napoleons-eagles", scenario="quick-test", seed=5)
            env.step(bid)
            feats.append([float(x) for x in env.last()[0]["observation"]])
            env.close()
        self.assertEqual(seen[0], seen[1])
        self.assertEqual(feats[0], feats[1])

    def test_a_card_dealt_face_down_stays_hidden(self):
        for seed in range(6):
            env = eagles.env("kuhn-poker", seed=seed, obs_type="json")
            obs = env.last()[0]["observation"]
            cards = obs["cards"]
            self.assertIsNotNone(cards[0])
            self.assertIsNone(cards[1])
            env.close()


if __name__ == "__main__":
    unittest.main()
