"""``python -m scripts.lessons`` says which command runs the lessons (the package is
their library): ``connectx lessons``."""
import sys

if __name__ == "__main__":
    print("scripts.lessons is the lessons' library: run `connectx lessons` "
          "(python -m scripts.commands.lessons)", file=sys.stderr)
    sys.exit(2)
