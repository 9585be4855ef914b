"""Runs a pyprecice script on Tidelink's engine even where pyprecice is installed too.

    python -m tidelink_precice SCRIPT [ARGS...]   run SCRIPT with `import precice` = this engine
    python -m tidelink_precice --shim-path        print the folder to put first on PYTHONPATH
    python -m tidelink_precice --which            say which `precice` a plain import finds
"""

import os
import runpy
import sys

import tidelink_precice


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    if argv[0] == "--shim-path":
        print(tidelink_precice.shim_path())
        return 0
    if argv[0] == "--which":
        import importlib.util

        spec = importlib.util.find_spec("precice")
        where = spec.origin if spec else None
        if where is None:
            print("no module named precice is importable")
        elif os.path.abspath(where).startswith(os.path.abspath(tidelink_precice.shim_path())):
            print(f"precice = Tidelink's native engine ({where})")
        else:
            print(f"precice = another package, probably pyprecice on libprecice ({where})")
        return 0
    script = argv[0]
    sys.path.insert(0, tidelink_precice.shim_path())
    sys.modules.pop("precice", None)
    sys.argv = list(argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
