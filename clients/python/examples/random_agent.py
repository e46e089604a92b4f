"""Random play through the PettingZoo-shaped API: the README's ten-line loop."""

import eagles

env = eagles.env("march-of-eagles", scenario="open-field", seed=42)
env.reset(seed=42)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    action = None if termination or truncation else env.action_space(agent).sample(observation["action_mask"])
    env.step(action)
    if termination:
        print(agent, reward, info["result"])
env.close()
