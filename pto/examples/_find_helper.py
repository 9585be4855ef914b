"""Makes ``tidelink_pto`` importable from a source checkout (pto/python beside this folder)."""

import sys
from pathlib import Path

try:
    import tidelink_pto  # noqa: F401
except ImportError:
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "pto" / "python"
        if (candidate / "tidelink_pto").is_dir():
            sys.path.insert(0, str(candidate))
            break
        if (parent / "python" / "tidelink_pto").is_dir():
            sys.path.insert(0, str(parent / "python"))
            break
