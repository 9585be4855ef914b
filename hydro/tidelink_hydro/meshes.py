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


def refine(vertices, faces, panel):
    """Triangles split by longest-edge bisection until no edge exceeds `panel` (m).

    CAD exports (such as WEC-Sim's OSWEC base: 12 triangles 18 m long) are too coarse for a BEM.
    Bisection keeps the angles bounded; the hanging vertices it leaves between neighbours do not
    matter to Capytaine's constant-strength panels.  Quads are first split into two triangles.
    """
    vertices = [np.asarray(v, dtype=float) for v in vertices]
    stack = []
    for f in faces:
        f = list(dict.fromkeys(f))  # Capytaine stores a triangle as the quad (a, b, c, c)
        stack.extend([f] if len(f) == 3 else [[f[0], f[1], f[2]], [f[0], f[2], f[3]]])
    out = []
    while stack:
        a, b, c = stack.pop()
        edges = [(a, b, c), (b, c, a), (c, a, b)]  # (edge start, edge end, opposite vertex)
        i, j, k = max(edges, key=lambda e: np.linalg.norm(vertices[e[0]] - vertices[e[1]]))
        if np.linalg.norm(vertices[i] - vertices[j]) <= panel:
            out.append([a, b, c])
            continue
        vertices.append((vertices[i] + vertices[j]) / 2)
        m = len(vertices) - 1
        stack.extend([[i, m, k], [m, j, k]])  # same orientation as (i, j, k)
    return np.array(vertices), out


def _dry_faces(mesh, heights, tol=1e-6):
    """Indices of the horizontal faces lying at one of `heights` (m)."""
    verts = np.asarray(mesh.vertices)
    faces = np.asarray(mesh.faces)
    z = verts[faces][:, :, 2]
    flat = np.ptp(z, axis=1) < tol
    return [i for i in np.nonzero(flat)[0] if any(abs(z[i, 0] - h) < tol for h in heights)]


def load_closed_mesh(path, lid_panel=None, offset=None, panel=None, dry_faces_at_z=None):
    """The wetted part (z <= 0) of a closed .stl/.obj/... mesh file, and a lid over its waterplane.

    `offset` (m) is added to the file's coordinates; triangles are refined to edges <= `panel`;
    horizontal faces at `dry_faces_at_z` are left out of the returned BEM hull (a body standing on
    the sea floor, or touching another body).  Returns (hull, lid, closed hull for the hydrostatics).
    """
    suffix = str(path).lower().rsplit(".", 1)[-1]
    if suffix in ("stl", "obj"):
        vertices, faces = (mesh_files.read_stl if suffix == "stl" else mesh_files.read_obj)(path)
    else:
        loaded = cpt.load_mesh(str(path))
        vertices, faces = np.asarray(loaded.vertices), np.asarray(loaded.faces).tolist()
    vertices = np.asarray(vertices, dtype=float) + np.asarray(offset if offset is not None else [0, 0, 0], dtype=float)
    if panel is not None:
        vertices, faces = refine(vertices, faces, panel)
    closed = cpt.Mesh(vertices=vertices, faces=faces).immersed_part()
    if closed.nb_faces == 0:
        raise ValueError(f"{path}: no part of the mesh is below z = 0")
    hull = closed
    if dry_faces_at_z:
        dry = set(_dry_faces(closed, dry_faces_at_z))
        if not dry:
            raise ValueError(f"{path}: no horizontal face at z = {dry_faces_at_z} m (dry_faces_at_z)")
        keep = [i for i in range(closed.nb_faces) if i not in dry]
        hull = cpt.Mesh(vertices=np.asarray(closed.vertices), faces=np.asarray(closed.faces)[keep])
    lid = None
    if np.max(np.asarray(closed.vertices)[:, 2]) > -1e-9:  # pierces the surface: a lid over the waterplane
        lid = hull.generate_lid(z=0.0, faces_max_radius=lid_panel)
        lid = lid if lid.nb_faces > 0 else None
    return hull, lid, closed


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
