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
