"""The one training loop of ``connectx learn``'s modes (:func:`scripts.learn.loop.train_loop`):
phases that gather data with the network as it stands, then steps on the phase's
minibatches, drawn lazily in step order; ``finished`` returning True ends the run."""
from scripts.learn.loop import train_loop


def test_phases_gather_with_the_current_params_and_step_in_order():
    """A toy learner: the params are a number, a step adds its minibatch to it and
    counts in the state; each phase gathers the params it starts from, and its
    minibatches (drawn lazily) see the steps before them."""
    seen, gathered, done = [], [], []

    def gather(phase, params):
        gathered.append((phase, params))
        return [phase * 10 + i for i in range(3)]

    def batches(phase, data):
        for value in data:
            seen.append(("draw", value))  # drawn only when the step before has run
            yield (value,)

    def step(params, state, value):
        seen.append(("step", value))
        return params + value, state + 1, value * 2

    def stepped(phase, params, out):
        seen.append(("stepped", params, out))

    def finished(phase, params, state, data):
        done.append((phase, params, state, data))
        return phase == 1                      # stop after the second phase

    params, state = train_loop(0, 0, step, range(5), gather, batches, stepped, finished)
    assert (params, state) == (0 + 1 + 2 + 10 + 11 + 12, 6)
    assert gathered == [(0, 0), (1, 3)]        # phase 1 starts from phase 0's params
    assert [d[:3] for d in done] == [(0, 3, 3), (1, 36, 6)]
    assert seen[:6] == [("draw", 0), ("step", 0), ("stepped", 0, [0]),
                        ("draw", 1), ("step", 1), ("stepped", 1, [2])]


def test_ppo_update_is_one_phase_of_the_loop():
    """``ppo.update``: ``epochs`` passes in shuffled full minibatches, the losses'
    means over the steps (a stand-in step that reports its batch)."""
    import numpy as np

    from scripts.learn.ppo import update
    data = {"action": np.arange(10), "x": np.arange(10) * 1.0}
    steps = []

    def step(params, state, batch):
        steps.append(sorted(batch["action"].tolist()))
        return params, state, float(len(steps)), (1.0, 2.0, 3.0, 4.0)
    _, _, means = update(step, None, None, data, 2, 4, np.random.default_rng(0))
    assert len(steps) == 4                     # 2 passes of 2 full minibatches of 4
    assert all(len(set(s)) == 4 for s in steps)
    assert list(means) == [2.5, 1.0, 2.0, 3.0, 4.0]
