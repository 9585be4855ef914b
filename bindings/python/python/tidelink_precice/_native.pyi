"""Type stubs of ``tidelink_precice._native`` (``import precice`` on Tidelink's native engine).

Signatures follow pyprecice 3.x. Arrays are numpy arrays: coordinates and values float64,
vertex ids int32. Errors of the engine raise :class:`CouplingError`, a ``RuntimeError``.
"""

from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

_Name = Union[str, bytes]
_Floats = Union[npt.ArrayLike, Sequence[float], Sequence[Sequence[float]]]
_Ids = Union[npt.ArrayLike, Sequence[int]]

class CouplingError(RuntimeError):
    """An error of the coupling engine; ``kind`` is "config", "misuse", "partner", "protocol",
    "io" or "interrupted"; the message is the engine's (preCICE's words where it has them)."""

    kind: str

def get_version_information() -> bytes:
    """The engine's version line, as bytes (as pyprecice returns libprecice's)."""

class Participant:
    """One participant of a coupled run: define meshes, ``initialize()``, ``advance()`` while
    ``is_coupling_ongoing()``, ``finalize()``."""

    def __init__(
        self,
        solver_name: _Name,
        configuration_file_name: _Name,
        solver_process_index: int,
        solver_process_size: int,
        communicator: Optional[Any] = None,
    ) -> None:
        """Participant ``solver_name`` of the configuration; rank 0 of size 1 (the native engine
        runs one process per participant); an mpi4py communicator of one rank is accepted."""
    # steering
    def initialize(self) -> None:
        """Connects to the partners, exchanges meshes and initial data (waits for them)."""
    def advance(self, computed_timestep_length: float) -> None:
        """Ends a solver step; at a window's end exchanges data (waits for the partners)."""
    def finalize(self) -> None:
        """Ends the coupling and closes the connections."""
    # status queries
    def get_mesh_dimensions(self, mesh_name: _Name) -> int:
        """2 or 3."""
    def get_data_dimensions(self, mesh_name: _Name, data_name: _Name) -> int:
        """1 for scalar data, the mesh dimension for vector data."""
    def is_coupling_ongoing(self) -> bool:
        """False once the coupling has reached its end."""
    def is_time_window_complete(self) -> bool:
        """True right after the step that completed a time window."""
    def get_max_time_step_size(self) -> float:
        """The largest step the solver may take now."""
    def requires_initial_data(self) -> bool:
        """True when initial data must be written before ``initialize()``."""
    def requires_writing_checkpoint(self) -> bool:
        """True when the solver must save its state before ``advance()``."""
    def requires_reading_checkpoint(self) -> bool:
        """True when the solver must restore its saved state."""
    # meshes
    def requires_mesh_connectivity_for(self, mesh_name: _Name) -> bool:
        """Whether a mapping of the run needs the mesh's elements (projections, cells, scaled constraints)."""
    def set_mesh_vertex(self, mesh_name: _Name, position: _Floats) -> int:
        """One vertex; returns its id."""
    def get_mesh_vertex_size(self, mesh_name: _Name) -> int:
        """The number of vertices of the mesh."""
    def set_mesh_vertices(self, mesh_name: _Name, positions: _Floats) -> npt.NDArray[np.int32]:
        """Vertices from an [N x D] array; returns their ids, shape (N,)."""
    def set_mesh_edge(self, mesh_name: _Name, first_vertex_id: int, second_vertex_id: int) -> None: ...
    def set_mesh_edges(self, mesh_name: _Name, vertices: _Ids) -> None:
        """Edges from an [N x 2] array of vertex ids."""
    def set_mesh_triangle(self, mesh_name: _Name, first_vertex_id: int, second_vertex_id: int, third_vertex_id: int) -> None: ...
    def set_mesh_triangles(self, mesh_name: _Name, vertices: _Ids) -> None:
        """Triangles from an [N x 3] array of vertex ids."""
    def set_mesh_quad(
        self, mesh_name: _Name, first_vertex_id: int, second_vertex_id: int, third_vertex_id: int, fourth_vertex_id: int
    ) -> None: ...
    def set_mesh_quads(self, mesh_name: _Name, vertices: _Ids) -> None:
        """Quads from an [N x 4] array of vertex ids."""
    def set_mesh_tetrahedron(
        self, mesh_name: _Name, first_vertex_id: int, second_vertex_id: int, third_vertex_id: int, fourth_vertex_id: int
    ) -> None: ...
    def set_mesh_tetrahedra(self, mesh_name: _Name, vertices: _Ids) -> None:
        """Tetrahedra from an [N x 4] array of vertex ids (3D meshes)."""
    def reset_mesh(self, mesh_name: _Name) -> None:
        """Remeshing: refused by the native engine."""
    # data
    def write_data(self, mesh_name: _Name, data_name: _Name, vertex_ids: _Ids, values: _Floats) -> None:
        """Values [N] (scalar) or [N x D] (vector) at ``vertex_ids``."""
    def read_data(
        self, mesh_name: _Name, data_name: _Name, vertex_ids: _Ids, relative_read_time: float
    ) -> npt.NDArray[np.float64]:
        """Values at ``vertex_ids``, ``relative_read_time`` after the current time: (N,) or (N, D)."""
    def write_and_map_data(self, mesh_name: _Name, data_name: _Name, coordinates: _Floats, values: _Floats) -> None:
        """Just-in-time mapping: refused by the native engine."""
    def map_and_read_data(
        self, mesh_name: _Name, data_name: _Name, coordinates: _Floats, relative_read_time: float
    ) -> npt.NDArray[np.float64]:
        """Just-in-time mapping: refused by the native engine."""
    def write_gradient_data(self, mesh_name: _Name, data_name: _Name, vertex_ids: _Ids, gradients: _Floats) -> None:
        """Gradients at ``vertex_ids``, shape (N, mesh dims x data dims): per row, d/dx, d/dy[, d/dz] of each
        component in turn. Ignored unless required; needs ``experimental="true"`` in the configuration."""
    def requires_gradient_data_for(self, mesh_name: _Name, data_name: _Name) -> bool:
        """True where this participant writes the data and a nearest-neighbor-gradient mapping maps it."""
    def set_mesh_access_region(self, mesh_name: _Name, bounding_box: _Floats) -> None:
        """Direct access: refused by the native engine."""
    def get_mesh_vertex_ids_and_coordinates(
        self, mesh_name: _Name
    ) -> Tuple[npt.NDArray[np.int32], npt.NDArray[np.float64]]:
        """Direct access: refused by the native engine."""
    def start_profiling_section(self, event_name: _Name) -> None: ...
    def stop_last_profiling_section(self) -> None: ...
    def get_version_information(self) -> bytes: ...
