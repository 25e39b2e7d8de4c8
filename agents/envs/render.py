"""What the environments draw (their ``render_mode``): the board as text (``"ansi"``), as an
``(H, W, 3)`` uint8 image (``"rgb_array"``, what Gymnasium's and PettingZoo's video
recorders take) and in a pygame window (``"human"``; off screen, with a warning, where
there is no display).

The image: ``CELL`` pixels a cell, ``rows * CELL`` high and ``columns * CELL`` wide, row 0
of Kaggle's board at the top; a blue board (``BOARD``) with a disc in every cell, ``COLOURS``
by mark: 0 empty (light grey), 1 red (the first player), 2 yellow. Pixel ``(r * CELL +
CELL // 2, c * CELL + CELL // 2)``, the centre of cell ``(r, c)``, has the colour of its
mark.
"""
import os
import sys
import warnings

import numpy as np

CELL = 32  # pixels a cell
BOARD = np.array([0, 82, 165], dtype=np.uint8)
COLOURS = np.array([[225, 225, 225], [220, 30, 30], [245, 200, 20]], dtype=np.uint8)
# True inside the disc of a cell (radius 0.4 cells)
_DISC = np.hypot(*np.meshgrid(np.arange(CELL) - (CELL - 1) / 2,
                              np.arange(CELL) - (CELL - 1) / 2)) <= 0.4 * CELL


def check_render_mode(render_mode, modes):
    """``render_mode`` if it is None or one of ``modes``, else ``ValueError``. For
    ``"human"``: ``ImportError`` without pygame, and a warning without a display
    (:func:`has_display`): the window is then drawn off screen (SDL's ``dummy`` video
    driver), as Gymnasium's ``check_env`` and PettingZoo's ``render_test`` need on a
    headless machine (they open every declared mode), rather than a failure at the first
    frame."""
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be None or one of {', '.join(map(repr, modes))}, "
                         f"got {render_mode!r}")
    if render_mode == "human":
        try:
            import pygame  # noqa: F401
        except ImportError as e:
            raise ImportError("render_mode='human' needs pygame: pip install pygame "
                              "(or render_mode='rgb_array' for frames)") from e
        if not has_display():
            warnings.warn("render_mode='human' without a display (no DISPLAY or "
                          "WAYLAND_DISPLAY): the window is drawn off screen; use "
                          "render_mode='rgb_array' for frames (e.g. a video recorder) or "
                          "'ansi' for text", stacklevel=3)
    return render_mode


def has_display():
    """False on Linux without ``DISPLAY``, ``WAYLAND_DISPLAY`` or an ``SDL_VIDEODRIVER``
    (set to ``dummy``, SDL draws off screen); True elsewhere."""
    return not sys.platform.startswith("linux") or any(
        os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"))


def board_text(grid, rows, columns):
    """Kaggle's flat board as text, row 0 on top: ``.`` empty, ``X`` mark 1, ``O`` mark 2."""
    symbols = ".XO"
    lines = [" ".join(symbols[int(grid[c + r * columns])] for c in range(columns))
             for r in range(rows)]
    return "\n".join(lines + [" ".join(str(c % 10) for c in range(columns))]) + "\n"


def board_image(grid, rows, columns):
    """Kaggle's flat board ``grid`` as a new ``(rows * CELL, columns * CELL, 3)`` uint8
    image (module docstring)."""
    marks = np.asarray(grid).reshape(rows, columns).repeat(CELL, 0).repeat(CELL, 1)
    discs = np.tile(_DISC, (rows, columns))
    return np.where(discs[:, :, None], COLOURS[marks], BOARD)


def render_board(render_mode, grid, rows, columns, window=None):
    """What an environment's ``render()`` returns for the flat board ``grid``: its text
    (``"ansi"``), its image (``"rgb_array"``), or None (no ``render_mode``; ``"human"``:
    the image shown in ``window``)."""
    if render_mode == "ansi":
        return board_text(grid, rows, columns)
    if render_mode is None:
        return None
    image = board_image(grid, rows, columns)
    if window is not None:
        window.show(image)
        return None
    return image


class RenderBoard:
    """``render()`` and ``close()`` of an environment of one board (single and AEC): it
    has ``boards`` (:class:`agents.envs.boards.Boards`), ``render_mode`` and ``_window``
    (a :class:`Window` for ``"human"``, else None)."""

    def render(self):
        """The board as text (``"ansi"``) or an image (``"rgb_array"``); ``"human"``
        shows the image and returns None."""
        b = self.boards
        return render_board(self.render_mode, b.grid[0], b.cfg.rows, b.cfg.columns,
                            self._window)

    def close(self):
        if self._window is not None:
            self._window.close()


class Window:
    """A pygame window showing board images (``render_mode="human"``), opened at the
    first :meth:`show`, at most ``fps`` frames a second (0: no limit). Off screen (no
    display, :func:`check_render_mode`, or ``SDL_VIDEODRIVER=dummy``) nobody watches:
    no frame waits."""

    def __init__(self, title, fps):
        self.title, self.fps = title, fps
        self.screen = self.clock = None
        self.offscreen = False

    def show(self, image):
        import pygame
        if self.screen is None:
            if not has_display():
                os.environ["SDL_VIDEODRIVER"] = "dummy"
            pygame.display.init()
            self.offscreen = pygame.display.get_driver() == "dummy"
            pygame.display.set_caption(self.title)
            self.screen = pygame.display.set_mode((image.shape[1], image.shape[0]))
            self.clock = pygame.time.Clock()
        pygame.event.pump()
        pygame.surfarray.blit_array(self.screen, image.transpose(1, 0, 2))
        pygame.display.flip()
        self.clock.tick(0 if self.offscreen else self.fps)

    def close(self):
        if self.screen is not None:
            import pygame
            pygame.display.quit()
            self.screen = None
