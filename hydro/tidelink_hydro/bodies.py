"""From a description's `bodies` list to Capytaine bodies plus their hydrostatics.

Each entry has `name`, `kind` (rm3_float, rm3_spar, sphere, cylinder, mesh), the kind's parameters,
`cg` and optionally `mass`.  Axisymmetric kinds become RotationSymmetricMesh bodies with lids.
"""

from dataclasses import dataclass

import numpy as np
import capytaine as cpt

from . import meshes, shapes
from .profiles import axisymmetric_hydrostatics


@dataclass
class Body:
    """One body ready for the BEM: the Capytaine body and what the BEMIO file records about it."""

    name: str
    cg: np.ndarray
    mass: object  # float or None (then rho * volume)
    hydro: dict  # see meshes.mesh_hydrostatics
    capytaine: cpt.FloatingBody
    symmetric: bool


def _axisymmetric(entry, kinds):
    """The AxisymmetricBody of a parametric entry."""
    kind = entry["kind"]
    panel = entry.get("panel")
    if kind in ("rm3_float", "rm3_spar"):
        if "rm3_float" not in kinds or "rm3_spar" not in kinds:
            raise ValueError("rm3_float and rm3_spar close the gap between them: describe both bodies")
        dims = entry.get("dims", "gdf")
        if kind == "rm3_float":
            return shapes.rm3_float(dims=dims, panel=panel or 0.5)
        return shapes.rm3_spar(dims=dims, panel=panel or 0.5, plate_panel=entry.get("plate_panel", 1.0))
    if kind == "sphere":
        return shapes.sphere(entry["radius"], entry.get("center_z", 0.0), panel=panel)
    if kind == "cylinder":
        return shapes.vertical_cylinder(entry["radius"], entry["draft"], panel=panel)
    raise ValueError(f"unknown body kind {kind!r}")


def build(entry, kinds, sectors, lid_panel):
    """The Body of one description entry; `kinds` are all entries' kinds (for RM3's closed gap)."""
    name = entry["name"]
    cg = np.asarray(entry["cg"], dtype=float)
    dofs = cpt.rigid_body_dofs(rotation_center=cg)
    if entry["kind"] == "mesh":
        hull, lid, closed = meshes.load_closed_mesh(
            entry["file"], lid_panel=entry.get("lid_panel", lid_panel), offset=entry.get("offset"),
            panel=entry.get("panel"), dry_faces_at_z=entry.get("dry_faces_at_z"))
        hydro = meshes.mesh_hydrostatics(closed)
        symmetric = False
    else:
        shape = _axisymmetric(entry, kinds)
        hull = meshes.swept_mesh([p.refined() for p in shape.bem], sectors, name=name)
        lid = meshes.lid_mesh(shape.waterline, entry.get("lid_panel", lid_panel), sectors, name=f"{name}_lid")
        hydro = axisymmetric_hydrostatics(shape)
        symmetric = True
    body = cpt.FloatingBody(mesh=hull, lid_mesh=lid, dofs=dofs, center_of_mass=cg, name=name)
    return Body(name=name, cg=cg, mass=entry.get("mass"), hydro=hydro, capytaine=body, symmetric=symmetric)


def build_all(description):
    """Every body of the description, and the (multi)body Capytaine solves for all of them together."""
    entries = description["bodies"]
    kinds = {e["kind"] for e in entries}
    sectors = int(description.get("sectors", 36))
    lid_panel = float(description.get("lid_panel", 1.0))
    bodies = [build(e, kinds, sectors, lid_panel) for e in entries]
    together = bodies[0].capytaine if len(bodies) == 1 else cpt.Multibody([b.capytaine for b in bodies])
    return bodies, together
