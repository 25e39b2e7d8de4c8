"""The browser app behind ``connectx serve``: routes, request checks, game state, web/."""
