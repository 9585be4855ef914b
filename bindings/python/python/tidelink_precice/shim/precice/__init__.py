"""The module ``precice`` (pyprecice 3.x's API) on Tidelink's native engine; see tidelink_precice."""

from tidelink_precice import CouplingError, Participant, __version__, get_version_information

__all__ = ["Participant", "CouplingError", "get_version_information", "__version__"]
