"""Progress bars on stderr (``tqdm.auto``: a widget in notebooks), or none."""
import sys


def progress_bar(total, desc, unit, enabled=True):
    """A ``tqdm.auto`` bar on stderr (a widget in notebooks), or None when not
    ``enabled``. No monitor thread: worker processes may be forked while it runs."""
    if not enabled:
        return None
    from tqdm.auto import tqdm
    tqdm.monitor_interval = 0
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False)


def progress(items, desc, unit, enabled=True):
    """``items`` wrapped in a ``tqdm.auto`` bar on stderr when ``enabled``."""
    if not enabled:
        return items
    from tqdm.auto import tqdm
    return tqdm(items, desc=desc, unit=unit, file=sys.stderr, leave=False)


class ProgressCallback:
    """``on_progress(done, total)`` for a long job: a bar made at the first call (when
    ``enabled``), its total kept up to date; :meth:`close` ends it."""

    def __init__(self, desc, unit, enabled=True):
        self.desc, self.unit, self.enabled, self.bar = desc, unit, enabled, None

    def __call__(self, done, total):
        if self.bar is None:
            self.bar = progress_bar(total, self.desc, self.unit, self.enabled)
            if self.bar is None:
                return
        self.bar.total = total
        self.bar.update(done - self.bar.n)

    def close(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None
