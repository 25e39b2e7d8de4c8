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
    """The one progress object over :func:`progress_bar`: a bar on stderr, made at its
    first use, or nothing at all when not ``enabled`` (every method is then a no-op), fed
    in one of three ways:

    * ``on_progress(done, total)``: a long job's callback; the total is kept up to date;
    * ``on_progress(done, total, desc)``: a job of several kinds of work; a new ``desc``
      closes the bar and starts one named so (``connectx learn``'s labelling, training,
      evaluation);
    * ``update(n)``: ``n`` more done of the ``total`` given here (the lessons).

    :meth:`write` prints a line above the bar (on stderr even when not ``enabled``);
    :meth:`close` ends the bar."""

    def __init__(self, desc, unit, enabled=True, total=None):
        self.desc, self.unit, self.enabled, self.total, self.bar = desc, unit, enabled, total, None

    def _open(self, total):
        if self.bar is None and self.enabled:
            self.bar = progress_bar(total, self.desc, self.unit)
        return self.bar

    def __call__(self, done, total, desc=None):
        if desc is not None and desc != self.desc:
            self.close()
            self.desc = desc
        bar = self._open(total)
        if bar is not None:
            bar.total = total
            bar.update(done - bar.n)

    def update(self, n=1):
        bar = self._open(self.total)
        if bar is not None:
            bar.update(n)

    def write(self, text):
        if self.bar is not None:
            self.bar.write(text, file=sys.stderr)
        else:
            sys.stderr.write(text + "\n")

    def close(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None
