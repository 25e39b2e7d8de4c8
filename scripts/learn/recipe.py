"""``connectx learn --mode recipe``: the Kaggle Learn course's deep reinforcement learning
("Intro to Game AI and Reinforcement Learning", lesson "Deep Reinforcement Learning")
reproduced with the package's own PPO (:mod:`scripts.learn.ppo`), without
stable-baselines3 or PyTorch.

What the lesson does, and what this module does the same:

* the environment: kaggle's ``make("connectx").train([None, "random"])``, the learner
  first, wrapped as the course's ``ConnectFourGym`` (:class:`CourseEnv`): the observation
  is Kaggle's board as it is (0 empty, 1 the learner's stones, 2 the opponent's), the
  reward is changed to 1 for a win, -1 when the game ends otherwise (a loss, and a draw
  too, as the course's ``change_reward`` is written), -10 for a move into a full column
  (which ends the game: the course's agent is not masked in training) and 1/42 (one over
  the cells) for a move that does not end the game;
* the network: the course's ``CustomCNN`` (two 3x3 convolutions without padding, 32 then
  64 channels, ReLU, flatten, a dense layer of 128, ReLU) shared by stable-baselines3's
  ``CnnPolicy`` heads: a linear policy and a linear critic
  (:data:`ARCHITECTURE`; orthogonal initialisation, gains sqrt(2), 0.01 and 1, as
  stable-baselines3);
* PPO with stable-baselines3's defaults (:data:`scripts.learn.ppo.SB3`): rollouts of
  2048 steps, 10 epochs of minibatches of 64, Adam 3e-4, gamma 0.99, GAE 0.95, clip
  0.2, no entropy bonus, value weight 0.5, gradient norm 0.5, for 50,000 steps (25
  rollouts, 51,200 steps, as ``learn(total_timesteps=50000)`` finishes its rollout).

The trained network plays as every ``policy:file=``: the legal column of highest logit
(averaged with the mirror image), where the course's agent samples its policy and
replaces an illegal column by a random one (docs/learning.md says so).
"""
import functools
import time
from dataclasses import dataclass

import numpy as np

from scripts.learn.configs import option

ARCHITECTURE = {"inputs": "marks", "trunk": [32, 64], "kernel": 3, "padding": "valid",
                "dense": 128, "value_hidden": 0}
STEPS = 50_000


@dataclass
class Plan:
    """What a recipe run does besides the course's settings (the fields are
    ``connectx learn`` options)."""
    steps: int = option(STEPS, "steps of kaggle's environment in all", "positive_int")
    eval_games: int = option(100, "games against each evaluation opponent at each point "
                                  "of the curve", "positive_int")


def check_board(rows, columns):
    """``ValueError`` unless the course's network fits the board: its two 3x3
    convolutions without padding take two cells from each side twice, so at least 5 rows
    and 5 columns."""
    if rows < 5 or columns < 5:
        raise ValueError(f"--mode recipe: the course's network (two 3x3 convolutions "
                         f"without padding) needs at least 5 rows and 5 columns; the "
                         f"board has {rows} rows and {columns} columns")


class CourseEnv:
    """The course's ``ConnectFourGym`` over kaggle's ``env.train([None, opponent])``:
    :meth:`reset` -> the board ``(rows, columns)``; :meth:`step` -> ``(board, reward,
    done)`` (module docstring)."""

    def __init__(self, rows=6, columns=7, inarow=4, opponent="random"):
        from kaggle_environments import make
        env = make("connectx", configuration={"rows": rows, "columns": columns,
                                              "inarow": inarow}, debug=True)
        self.trainer = env.train([None, opponent])
        self.rows, self.columns = rows, columns
        self.obs = None

    def board(self):
        return np.array(self.obs["board"], dtype=np.int8).reshape(self.rows, self.columns)

    def reset(self):
        self.obs = self.trainer.reset()
        return self.board()

    def change_reward(self, old_reward, done):
        """The course's: 1 a win, -1 any other end, 1/(rows*columns) a move."""
        if old_reward == 1:
            return 1.0
        if done:
            return -1.0
        return 1.0 / (self.rows * self.columns)

    def step(self, action):
        if self.obs["board"][int(action)] != 0:
            return self.board(), -10.0, True
        self.obs, old_reward, done, _ = self.trainer.step(int(action))
        return self.board(), self.change_reward(old_reward, done), bool(done)


def init_params(rows, columns, seed):
    """stable-baselines3's initialisation of :data:`ARCHITECTURE`: orthogonal weights
    (gain sqrt(2) the features, 0.01 the policy, 1 the critic), zero biases."""
    from agents.players.network import shapes
    rng = np.random.default_rng(seed)
    params = {}
    for name, shape in shapes(rows, columns, ARCHITECTURE).items():
        if name.endswith("_b"):
            params[name] = np.zeros(shape, dtype=np.float32)
            continue
        gain = 0.01 if name == "policy_w" else 1.0 if name == "value_w" else np.sqrt(2)
        flat = (int(np.prod(shape[:-1])), shape[-1])
        a = rng.standard_normal(flat if flat[0] >= flat[1] else flat[::-1])
        q, r = np.linalg.qr(a)
        q = q * np.sign(np.diag(r))
        q = q if flat[0] >= flat[1] else q.T
        params[name] = (gain * q).reshape(shape).astype(np.float32)
    return params


def train(cfg, seed, steps=STEPS, opponent="random", judge=None, eval_games=100, evals=5,
          progress=None, log=None):
    """The course's run on board ``cfg``; ``(params, record)`` as
    :func:`scripts.learn.reinforce.train` (the curve: the same measures)."""
    import random

    import jax
    import jax.numpy as jnp

    from scripts.learn import ppo
    from scripts.learn.model import forward
    from scripts.learn.evaluate import curve_point, point_line
    start = time.perf_counter()
    rows, columns, _ = cfg
    random.seed(seed)  # kaggle's random agent draws from the random module
    rng = np.random.default_rng(seed)
    hp = ppo.SB3
    fwd = functools.partial(forward, architecture=ARCHITECTURE)
    act = jax.jit(fwd)
    params = {k: jnp.asarray(v) for k, v in init_params(rows, columns, seed).items()}
    opt = ppo.optimiser(hp["learning_rate"], hp["max_grad_norm"])
    state = opt.init(params)
    step_fn = ppo.ppo_step(opt, fwd, hp["clip"], hp["ent_coef"], hp["vf_coef"])
    env = CourseEnv(*cfg, opponent=opponent)
    board = env.reset()
    n = hp["n_steps"]
    rollouts = -(-steps // n)
    curve, done_steps, games, results = [], 0, 0, []
    every = max(1, rollouts // max(1, evals))
    legal = np.ones((n, columns), dtype=bool)   # the course does not mask

    def rollout(k, params):
        """Rollout ``k`` of ``n`` steps of kaggle's environment as PPO's batch."""
        nonlocal board, done_steps, games
        xs = np.zeros((n, rows, columns, 1), dtype=np.float32)
        actions = np.zeros(n, dtype=np.int32)
        logps = np.zeros(n, dtype=np.float32)
        values = np.zeros(n, dtype=np.float32)
        rewards = np.zeros(n, dtype=np.float32)
        terminal = np.zeros(n, dtype=bool)
        for t in range(n):
            xs[t, ..., 0] = board
            logits, value = act(params, xs[t:t + 1])
            logits = np.asarray(logits[0], dtype=np.float64)
            p = np.exp(logits - logits.max())
            p /= p.sum()
            a = int(rng.choice(columns, p=p))
            actions[t], logps[t], values[t] = a, np.log(p[a]), float(value[0])
            board, rewards[t], terminal[t] = env.step(a)
            if terminal[t]:
                games += 1
                results.append(rewards[t])
                board = env.reset()
            done_steps += 1
            if progress:
                progress("recipe: kaggle env steps", done_steps, rollouts * n)
        last = np.zeros((1, rows, columns, 1), dtype=np.float32)
        last[0, ..., 0] = board
        last_value = np.asarray(act(params, last)[1])
        adv, returns = ppo.gae(rewards[:, None], values[:, None], terminal[:, None],
                               last_value, hp["gamma"], hp["gae_lambda"])
        return {"x": xs, "legal": legal, "action": actions, "logp": logps,
                "advantage": adv[:, 0], "returns": returns[:, 0]}

    def measure(k, params, losses):
        if (k + 1) % every == 0 or k + 1 == rollouts:
            recent = results[-100:]
            extra = {"games": games, "illegal": float(np.mean(np.array(recent) == -10))
                     if recent else 0.0,
                     "train_wins": float(np.mean(np.array(recent) == 1)) if recent else 0.0}
            curve.append(curve_point(params, cfg, ARCHITECTURE, judge, eval_games, seed,
                                     time.perf_counter() - start, done_steps, losses, extra))
            if log:
                log(point_line(curve[-1]))

    params, state = ppo.learn(params, state, step_fn, rollouts, rollout, hp["epochs"],
                              hp["batch"], rng, measure)
    record = {"mode": "recipe", "architecture": ARCHITECTURE, "opponent": opponent,
              "plan": dict(hp, steps=rollouts * n, requested_steps=steps),
              "curve": curve, "seconds": round(time.perf_counter() - start, 1),
              "jax": jax.__version__}
    return {k: np.asarray(v) for k, v in params.items()}, record
