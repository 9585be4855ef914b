"""Tidelink's native coupling engine under pyprecice 3.x's API.

``tidelink_precice.Participant`` is what ``import precice`` gives when this package is the
``precice`` module in use (see ``python -m tidelink_precice --help`` and docs/python.md):
unchanged pyprecice scripts couple with each other and with Tidelink's participants, with no
libprecice installed.
"""

import os as _os

from ._native import CouplingError, Participant, __version__, get_version_information

__all__ = ["Participant", "CouplingError", "get_version_information", "__version__", "shim_path"]


def shim_path():
    """The folder whose ``precice`` package is this module: put it first on ``sys.path``
    (or ``PYTHONPATH``) to pick this engine over a pyprecice installed beside it."""
    return _os.path.join(_os.path.dirname(__file__), "shim")
