"""The notebook widget's front-end link: :class:`BoardWidget`, an ``anywidget.AnyWidget`` whose
ES module is the page's ``web/board.js`` followed by ``web/widget.js`` and whose style is
the page's ``web/board.css`` and ``web/widget.css``. It syncs one trait, ``state`` (the
:meth:`scripts.server.notebook.Session.snapshot`), to the browser, and hands the
browser's messages (a click on a column, a button) to
:meth:`~scripts.server.notebook.Session.handle`. Needs anywidget (the ``notebook``
extra); make one with :func:`scripts.server.notebook.widget`."""
import anywidget
import traitlets

from agents.resources import data_path

WEB = data_path("scripts.server", "web")


def _read(*names):
    return "\n".join((WEB / name).read_text(encoding="utf-8") for name in names)


class BoardWidget(anywidget.AnyWidget):
    """The widget of a :class:`~scripts.server.notebook.Session` (``.session``): every
    change of the session is sent to the browser as it happens (your move shows before
    the agent's reply, the reply before the analysis)."""

    # board.js defines the drawing functions at the module's top level; widget.js uses
    # them and exports render (one module: no second copy of the board's code)
    _esm = _read("board.js", "widget.js")
    _css = _read("board.css", "widget.css")
    state = traitlets.Dict().tag(sync=True)

    def __init__(self, session, **kwargs):
        super().__init__(**kwargs)
        self.session = session
        session.on_change = self._sync
        self._sync()
        self.on_msg(self._message)

    def __repr__(self):
        return self.session.text()

    def _sync(self):
        self.state = self.session.snapshot()

    def _message(self, _widget, content, _buffers):
        self.session.handle(content)
