"""The one training loop of ``connectx learn``'s modes (teacher, reinforce, recipe,
zero) and of the CleanRL-style example's PPO update: phases, each gathering data with
the network as it stands, then optimiser steps on minibatches of that data.

Each mode supplies its data source and its loss, as functions:

* ``gather(phase, params)``: the phase's data (the teacher labels a round's positions,
  zero plays an iteration's self-play games, PPO plays a rollout);
* ``batches(phase, data)``: the phase's minibatches, each the arguments of ``step``
  after ``params`` and ``state`` (drawn lazily, so that a generator's random draws
  keep their order between the steps);
* ``step(params, state, *batch) -> (params, state, *out)``: one optimiser step of the
  mode's loss (:func:`scripts.learn.model.train_step`, :func:`scripts.learn.ppo.ppo_step`);
* ``stepped(phase, params, out)`` after each step (losses kept, progress, a curve point
  when one is due) and ``finished(phase, params, state, data)`` after each phase (its
  record, a curve point, checkpoints); ``finished`` returning True ends the run there.
"""


def train_loop(params, state, step, phases, gather, batches, stepped=None, finished=None):
    """Run the ``phases`` (module docstring); the final ``(params, state)``."""
    for phase in phases:
        data = gather(phase, params)
        for batch in batches(phase, data):
            params, state, *out = step(params, state, *batch)
            if stepped is not None:
                stepped(phase, params, out)
        if finished is not None and finished(phase, params, state, data):
            break
    return params, state
