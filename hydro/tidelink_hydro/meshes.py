"""Capytaine meshes: profiles swept into rotation-symmetric meshes, lids, and closed mesh files.

Rotation symmetry (`RotationSymmetricMesh`) lets Capytaine solve with block-circulant matrices;
it is kept through `Multibody` when every body has the same number of sectors.
"""

import math

import numpy as np
import capytaine as cpt

from . import mesh_files


def _wedge(polylines, n_sectors):
    """One angular sector (0 .. 2 pi / n) of the surface swept by `polylines` [(r, z), ...]."""
    c, s = math.cos(2 * math.pi / n_sectors), math.sin(2 * math.pi / n_sectors)
    vertices, faces = [], []
    for line in polylines:
        base = len(vertices)
        for r, z in line:
            vertices.append((r, 0.0, z))
        for r, z in line:
            vertices.append((r * c, r * s, z))
        m = len(line)
        for i in range(m - 1):
            # Order chosen so the normal is the profile direction turned by +90 deg (outwards).
            faces.append((base + i, base + i + 1, base + m + i + 1, base + m + i))
    return cpt.Mesh(vertices=np.array(vertices), faces=np.array(faces))


def swept_mesh(polylines, n_sectors, name=None):
    """The surface of revolution of `polylines` as a RotationSymmetricMesh of `n_sectors` wedges."""
    return cpt.RotationSymmetricMesh(wedge=_wedge(polylines, n_sectors), n=n_sectors, name=name)


def lid_mesh(rings, panel, n_sectors, name=None):
    """Interior lids at z = 0 over the waterplane rings [(r_in, r_out)], radial panels <= `panel`."""
    lines = []
    for r_in, r_out in rings:
        n = max(1, math.ceil((r_out - r_in) / panel - 1e-9))
        lines.append([(r_out - k * (r_out - r_in) / n, 0.0) for k in range(n + 1)])
    return swept_mesh(lines, n_sectors, name=name) if lines else None


def load_closed_mesh(path, lid_panel=None):
    """The wetted part (z <= 0) of a closed .stl/.obj/... mesh file, and a lid over its waterplane."""
    suffix = str(path).lower().rsplit(".", 1)[-1]
    if suffix in ("stl", "obj"):
        vertices, faces = (mesh_files.read_stl if suffix == "stl" else mesh_files.read_obj)(path)
        mesh = cpt.Mesh(vertices=vertices, faces=faces)
    else:
        mesh = cpt.load_mesh(str(path))
    hull = mesh.immersed_part()
    if hull.nb_faces == 0:
        raise ValueError(f"{path}: no part of the mesh is below z = 0")
    lid = hull.generate_lid(z=0.0, faces_max_radius=lid_panel)
    return hull, (lid if lid.nb_faces > 0 else None)


def mesh_hydrostatics(hull):
    """Volume, centre of buoyancy and waterplane moments of a wetted hull mesh (outward normals).

    Divergence theorem over the volume closed by the waterplane z = 0, where the lid adds nothing
    to these integrands: V = sum z n_z dS, V x_b = sum x^2/2 n_x dS, V z_b = sum z^2/2 n_z dS, and
    for any f(x, y), int_wp f = -sum f n_z dS.
    """
    c = np.asarray(hull.faces_centers)
    n = np.asarray(hull.faces_normals)
    a = np.asarray(hull.faces_areas)
    x, y, z = c[:, 0], c[:, 1], c[:, 2]
    volume = float(np.sum(z * n[:, 2] * a))
    if volume <= 0:
        raise ValueError("the wetted mesh encloses no volume (normals inwards, or not closed)")
    cb = [
        float(np.sum(x * x / 2 * n[:, 0] * a) / volume),
        float(np.sum(y * y / 2 * n[:, 1] * a) / volume),
        float(np.sum(z * z / 2 * n[:, 2] * a) / volume),
    ]
    wp = lambda f: float(-np.sum(f * n[:, 2] * a))  # noqa: E731 (a one-line integral)
    return {
        "volume": volume,
        "cb": cb,
        "awp": wp(np.ones_like(x)),
        "wp_x": wp(x),
        "wp_y": wp(y),
        "wp_xx": wp(x * x),
        "wp_yy": wp(y * y),
        "wp_xy": wp(x * y),
    }
