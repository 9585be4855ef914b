"""Parametric shapes, swept meshes, lids and mesh files against closed-form geometry.

Tolerances: a body whose meridian profile is a polygon (cylinder, RM3) has exact hydrostatics, so it is
compared to the analytic value to rounding (1e-12).  The sphere's profile is a polygon inscribed in the
circle, with n equal chords of angle d: it lies between the circles of radius R cos(d/2) and R, so its
volume lies between the hemispheres of those radii (a relative window of 1 - cos^3(d/2), 0.36 % for the
R = 5 m, 0.5 m panels used here) and its centre of buoyancy within R eps / (1 - eps) of -3R/8 (derivation
at `test_hemisphere_profile_between_inscribed_and_circumscribed_spheres`).  Sweeping a profile into N
sectors turns every horizontal circle of radius r(z) into the regular N-gon inscribed in it, so (Cavalieri)
the mesh encloses exactly sin(2 pi / N) / (2 pi / N) times the volume of the body of revolution.
"""

import math
import struct
from collections import Counter

import numpy as np
import pytest

from tidelink_hydro import mesh_files, meshes, shapes
from tidelink_hydro.profiles import axisymmetric_hydrostatics

ROUNDING = 1e-12


def polygon_factor(n_sectors):
    """Area of the regular N-gon inscribed in a circle over the circle's area."""
    a = 2 * math.pi / n_sectors
    return math.sin(a) / a


def frustum_volume(points):
    """Volume swept by a polyline (r, z) that runs down from the waterline, by the frustum formula
    pi h (r0^2 + r0 r1 + r1^2) / 3 per segment (signed by the direction in z), closed along z = 0."""
    v = 0.0
    for (r0, z0), (r1, z1) in zip(points, points[1:]):
        v += math.pi * (z0 - z1) * (r0 * r0 + r0 * r1 + r1 * r1) / 3.0
    return v


def merged(vertices, faces, scale=1.0):
    """Vertices merged to 1e-9 * scale, faces renumbered and stripped of repeated corners (a quad with
    a corner on the axis becomes the triangle it really is)."""
    keys = np.round(np.asarray(vertices, dtype=float) / (1e-9 * scale)).astype(np.int64)
    _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    out = []
    for face in faces:
        ids = [int(inverse[i]) for i in face]
        ids = [v for k, v in enumerate(ids) if v != ids[k - 1]]  # drops cyclic repeats
        if len(set(ids)) >= 3:
            out.append(ids)
    return np.asarray(vertices, dtype=float)[first], out


def edge_counts(faces):
    """How many faces use each undirected edge."""
    c = Counter()
    for face in faces:
        for a, b in zip(face, face[1:] + face[:1]):
            c[(min(a, b), max(a, b))] += 1
    return c


def directed_edges(faces):
    return Counter((a, b) for face in faces for a, b in zip(face, face[1:] + face[:1]))


def assert_closed_and_oriented(faces):
    """Every edge shared by exactly two faces, traversed once in each direction (consistent normals)."""
    counts = edge_counts(faces)
    assert set(counts.values()) == {2}, "open or non-manifold edges"
    d = directed_edges(faces)
    assert all(n == 1 and d[(b, a)] == 1 for (a, b), n in d.items()), "inconsistent face orientation"


def mesh_arrays(mesh):
    """(vertices, faces) of a Capytaine mesh.  A RotationSymmetricMesh is assembled from its wedges with
    offset vertex numbers (its own `faces` concatenates the wedges' faces, numbered per wedge)."""
    parts = getattr(mesh, "all_wedges", None) or [mesh]
    vertices, faces, offset = [], [], 0
    for part in parts:
        v = np.asarray(part.vertices)
        vertices.append(v)
        faces += [[int(i) + offset for i in f] for f in np.asarray(part.faces)]
        offset += len(v)
    return np.vstack(vertices), faces


# --- parametric shapes ------------------------------------------------------------------------------


def test_hemisphere_panel_and_vertex_counts_and_closed_with_its_lid():
    r, panel, lid_panel, n_sectors = 5.0, 0.5, 0.5, 36
    shape = shapes.sphere(r, 0.0, panel=panel)
    n_arc = math.ceil((math.pi / 2) * r / panel)  # 16 chords from the waterline to the bottom pole
    profile = shape.bem[0].refined()
    assert len(profile) == n_arc + 1
    assert profile[0] == (r, 0.0) and profile[-1] == (0.0, -r)

    hull = meshes.swept_mesh([p.refined() for p in shape.bem], n_sectors)
    lid = meshes.lid_mesh(shape.waterline, lid_panel, n_sectors)
    n_lid = math.ceil(r / lid_panel)  # 10 radial panels from the waterline to the centre
    assert hull.nb_faces == n_arc * n_sectors
    assert lid.nb_faces == n_lid * n_sectors

    hull_v, hull_f = mesh_arrays(hull)
    lid_v, lid_f = mesh_arrays(lid)
    hv, _ = merged(hull_v, hull_f, scale=r)
    lv, _ = merged(lid_v, lid_f, scale=r)
    assert len(hv) == n_arc * n_sectors + 1  # 16 rings of 36 and the pole
    assert len(lv) == n_lid * n_sectors + 1  # 10 rings of 36 and the centre
    assert np.allclose(lv[:, 2], 0.0)

    # Hull + lid is a closed surface of genus 0: V - E + F = 2, every edge in two faces.  The lid's
    # normals point down (Capytaine's convention for lids), so it is reversed for the orientation check.
    lid_reversed = [[i + len(hull_v) for i in reversed(f)] for f in lid_f]
    v, faces = merged(np.vstack([hull_v, lid_v]), hull_f + lid_reversed, scale=r)
    assert len(v) == len(hv) + len(lv) - n_sectors  # the waterline ring is shared
    assert len(faces) == hull.nb_faces + lid.nb_faces
    n_edges = len(edge_counts(faces))
    assert len(v) - n_edges + len(faces) == 2
    assert_closed_and_oriented(faces)


def test_hemisphere_profile_between_inscribed_and_circumscribed_spheres():
    r, panel = 5.0, 0.5
    shape = shapes.sphere(r, 0.0, panel=panel)
    n_arc = len(shape.bem[0].refined()) - 1
    d = (math.pi / 2) / n_arc  # angle of each chord
    eps = 1.0 - math.cos(d / 2) ** 3
    exact = 2.0 / 3.0 * math.pi * r**3
    h = axisymmetric_hydrostatics(shape)

    # The profile polygon contains the quarter disc of radius R cos(d/2) (the chords' distance from the
    # centre) and lies inside the one of radius R.
    assert exact * (1 - eps) <= h["volume"] <= exact
    # The same volume by an independent formula (frusta of the chords): equal to rounding.
    assert h["volume"] == pytest.approx(frustum_volume(shape.hull[:-1]), rel=ROUNDING)
    # z_b: the missing shell dV <= eps V has -R <= z <= 0, so |z_b - (-3R/8)| <= R dV / (V - dV).
    assert abs(h["cb"][2] - (-3.0 * r / 8.0)) <= r * eps / (1 - eps)
    assert h["cb"][:2] == [0.0, 0.0]
    # The waterline point is exact (the first chord starts at (R, 0)): the waterplane is the full disc.
    assert h["awp"] == pytest.approx(math.pi * r**2, rel=ROUNDING)
    assert h["wp_xx"] == pytest.approx(math.pi * r**4 / 4, rel=ROUNDING)


@pytest.mark.parametrize("n_sectors", [12, 36, 48])
def test_swept_mesh_volume_is_the_polygon_factor_times_the_body_of_revolution(n_sectors):
    shape = shapes.sphere(5.0, 0.0, panel=0.5)
    hull = meshes.swept_mesh([p.refined() for p in shape.bem], n_sectors)
    revolution = axisymmetric_hydrostatics(shape)["volume"]
    mesh_h = meshes.mesh_hydrostatics(hull)
    assert mesh_h["volume"] == pytest.approx(revolution * polygon_factor(n_sectors), rel=ROUNDING)
    assert mesh_h["cb"][0] == pytest.approx(0.0, abs=1e-12 * 5.0)
    assert mesh_h["cb"][1] == pytest.approx(0.0, abs=1e-12 * 5.0)


def test_partly_submerged_sphere_between_inscribed_and_circumscribed_caps():
    # Centre 3 m below the surface, R = 5 m: the waterline circle has radius 4 m.
    r, depth = 5.0, 3.0
    shape = shapes.sphere(r, center_z=-depth, panel=0.25)
    assert shape.waterline == [(0.0, pytest.approx(4.0, rel=ROUNDING))]
    h = axisymmetric_hydrostatics(shape)

    def cap(radius):
        """Volume of the part below z = 0 of the sphere of `radius` centred at z = -depth."""
        height = radius + depth
        return math.pi * height**2 * (3 * radius - height) / 3

    # The chords (from the waterline point, which is on the circle, to the pole) are at R cos(d/2) from
    # the centre, so the profile lies between the caps of the spheres of radius R cos(d/2) and R.
    n_arc = len(shape.bem[0].refined()) - 1
    d = (math.asin(depth / r) + math.pi / 2) / n_arc
    assert cap(r * math.cos(d / 2)) <= h["volume"] <= cap(r)
    assert h["volume"] == pytest.approx(frustum_volume(shape.hull[:-1]), rel=ROUNDING)
    assert h["awp"] == pytest.approx(math.pi * 16.0, rel=ROUNDING)


def test_cylinder_exact_hydrostatics_and_mesh():
    radius, draft, n_sectors = 2.0, 3.0, 24
    shape = shapes.vertical_cylinder(radius, draft)  # default panel min(R, d) / 5 = 0.4 m
    h = axisymmetric_hydrostatics(shape)
    assert h["volume"] == pytest.approx(math.pi * radius**2 * draft, rel=ROUNDING)
    assert h["cb"][2] == pytest.approx(-draft / 2, rel=ROUNDING)
    assert h["awp"] == pytest.approx(math.pi * radius**2, rel=ROUNDING)
    assert h["wp_xx"] == pytest.approx(math.pi * radius**4 / 4, rel=ROUNDING)

    hull = meshes.swept_mesh([p.refined() for p in shape.bem], n_sectors)
    side, bottom = math.ceil(draft / 0.4), math.ceil(radius / 0.4)  # 8 and 5 panels along the profile
    assert hull.nb_faces == (side + bottom) * n_sectors
    v, _ = merged(*mesh_arrays(hull), scale=radius)
    assert len(v) == (side + bottom) * n_sectors + 1  # rings from the waterline to the bottom, and its centre

    # The mesh is the prism on the inscribed regular N-gon: exact volume and waterplane area, and z_b (the
    # only face with a z-component of the normal is the flat bottom).
    polygon = n_sectors / 2 * radius**2 * math.sin(2 * math.pi / n_sectors)
    mh = meshes.mesh_hydrostatics(hull)
    assert mh["volume"] == pytest.approx(polygon * draft, rel=ROUNDING)
    assert mh["awp"] == pytest.approx(polygon, rel=ROUNDING)
    assert mh["cb"][2] == pytest.approx(-draft / 2, rel=ROUNDING)


def test_rm3_volumes_from_the_drawing():
    # gdf set: float = annulus r 3..10 m, z -2..0, plus the chamfer frustum r 10 -> 5 m over z -2..-3 minus
    # the bore r 3 m; spar = column r 3 m down to -28.9 m plus the plate r 15 m, 0.1 m thick.
    float_v = math.pi * (100 - 9) * 2 + math.pi * 1 / 3 * (100 + 50 + 25) - math.pi * 9 * 1
    spar_v = math.pi * 9 * 28.9 + math.pi * 225 * 0.1
    f = axisymmetric_hydrostatics(shapes.rm3_float("gdf"))
    s = axisymmetric_hydrostatics(shapes.rm3_spar("gdf"))
    assert f["volume"] == pytest.approx(float_v, rel=ROUNDING)
    assert s["volume"] == pytest.approx(spar_v, rel=ROUNDING)
    assert f["awp"] == pytest.approx(math.pi * (100 - 9), rel=ROUNDING)
    assert s["awp"] == pytest.approx(math.pi * 9, rel=ROUNDING)
    # Spar z_b: column centroid -28.9/2, plate centroid -28.95.
    zb = (math.pi * 9 * 28.9 * (-28.9 / 2) + math.pi * 225 * 0.1 * (-28.95)) / spar_v
    assert s["cb"][2] == pytest.approx(zb, rel=ROUNDING)


def test_shape_parameter_errors():
    with pytest.raises(ValueError):
        shapes.sphere(-1.0)
    with pytest.raises(ValueError):
        shapes.sphere(1.0, center_z=2.0)  # entirely above the water
    with pytest.raises(ValueError):
        shapes.vertical_cylinder(1.0, 0.0)
    with pytest.raises(ValueError, match="published"):
        shapes.rm3_float("nonsense")


# --- mesh files -----------------------------------------------------------------------------------

# A box x 1..3, y -2..1, z -3..1 (crossing the waterline) as 12 outward triangles.
BOX_LO, BOX_HI = (1.0, -2.0, -3.0), (3.0, 1.0, 1.0)


def box_triangles():
    (x0, y0, z0), (x1, y1, z1) = BOX_LO, BOX_HI
    c = [(x, y, z) for z in (z0, z1) for y in (y0, y1) for x in (x0, x1)]  # corner k: bits x, y, z
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    tris = []
    for a, b, cc, d in quads:
        tris += [(c[a], c[b], c[cc]), (c[a], c[cc], c[d])]
    return tris


def write_ascii_stl(path, tris):
    lines = ["solid box"]
    for t in tris:
        lines += ["  facet normal 0 0 0", "    outer loop"]
        lines += [f"      vertex {x!r} {y!r} {z!r}" for x, y, z in t]
        lines += ["    endloop", "  endfacet"]
    path.write_text("\n".join(lines + ["endsolid box", ""]))


def write_binary_stl(path, tris):
    data = bytearray(b"binary box".ljust(80, b" ")) + struct.pack("<I", len(tris))
    for t in tris:
        data += struct.pack("<3f", 0, 0, 0) + b"".join(struct.pack("<3f", *p) for p in t) + b"\0\0"
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("writer", [write_ascii_stl, write_binary_stl])
def test_stl_box_read_merged_closed_and_clipped(tmp_path, writer):
    path = tmp_path / "box.stl"
    writer(path, box_triangles())
    vertices, faces = mesh_files.read_stl(path)
    assert len(vertices) == 8 and len(faces) == 12
    assert_closed_and_oriented([list(f) for f in faces])

    hull, lid, _ = meshes.load_closed_mesh(path, lid_panel=0.5)
    assert np.max(np.asarray(hull.vertices)[:, 2]) <= 1e-12
    h = meshes.mesh_hydrostatics(hull)
    # Immersed part: x 1..3, y -2..1, z -3..0.  Planar faces and area centroids make all of these exact.
    assert h["volume"] == pytest.approx(2 * 3 * 3, rel=ROUNDING)
    assert h["cb"] == pytest.approx([2.0, -0.5, -1.5], rel=ROUNDING)
    assert h["awp"] == pytest.approx(6.0, rel=ROUNDING)
    assert h["wp_x"] == pytest.approx(6.0 * 2.0, rel=ROUNDING)
    assert h["wp_y"] == pytest.approx(6.0 * -0.5, rel=ROUNDING)
    # Capytaine's generated lid keeps clear of the hull (a margin of about a panel), so it covers part of
    # the waterplane: check it lies on z = 0 inside the waterline, not its area.
    assert lid is not None
    lv = np.asarray(lid.vertices)
    assert np.allclose(lv[:, 2], 0.0)
    assert np.all((lv[:, 0] >= 1.0) & (lv[:, 0] <= 3.0) & (lv[:, 1] >= -2.0) & (lv[:, 1] <= 1.0))
    assert 0.0 < float(np.sum(lid.faces_areas)) <= 6.0


def test_obj_hexagonal_prism_with_polygon_caps_and_relative_indices(tmp_path):
    # Regular hexagon of circumradius 1 m, z -2..1; the caps are single 6-corner faces (the reader fans
    # them into 4 triangles), the top cap written with negative (relative) indices.
    ring = [(math.cos(k * math.pi / 3), math.sin(k * math.pi / 3)) for k in range(6)]
    lines = [f"v {x!r} {y!r} -2.0" for x, y in ring] + [f"v {x!r} {y!r} 1.0" for x, y in ring]
    lines.append("f " + " ".join(str(k + 1) for k in reversed(range(6))))  # bottom, normal down
    lines.append("f " + " ".join(str(k - 6) for k in range(6)))  # top: -6 .. -1 = vertices 7 .. 12
    for k in range(6):
        a, b = k + 1, (k + 1) % 6 + 1
        lines.append(f"f {a}/1 {b}/1 {b + 6}/1 {a + 6}/1")  # sides, with texture indices to skip
    path = tmp_path / "hex.obj"
    path.write_text("# hexagonal prism\n" + "\n".join(lines) + "\n")

    vertices, faces = mesh_files.read_obj(path)
    assert len(vertices) == 12
    assert len(faces) == 2 * 4 + 6
    assert_closed_and_oriented([list(f) for f in faces])

    hull, _, _ = meshes.load_closed_mesh(path, lid_panel=0.5)
    h = meshes.mesh_hydrostatics(hull)
    hexagon = 3 * math.sqrt(3) / 2
    assert h["volume"] == pytest.approx(hexagon * 2.0, rel=ROUNDING)
    assert h["awp"] == pytest.approx(hexagon, rel=ROUNDING)
    assert h["cb"][2] == pytest.approx(-1.0, rel=ROUNDING)


def test_mesh_above_water_and_inverted_normals_are_errors(tmp_path):
    lifted = [tuple((x, y, z + 10.0) for x, y, z in t) for t in box_triangles()]
    path = tmp_path / "dry.stl"
    write_ascii_stl(path, lifted)
    with pytest.raises(ValueError, match="below z = 0"):
        meshes.load_closed_mesh(path)

    inverted = tmp_path / "inverted.stl"
    write_ascii_stl(inverted, [(a, c, b) for a, b, c in box_triangles()])
    hull, _, _ = meshes.load_closed_mesh(inverted)
    with pytest.raises(ValueError, match="encloses no volume"):
        meshes.mesh_hydrostatics(hull)


def test_offset_refine_and_dry_faces_of_a_submerged_box(tmp_path):
    # The box of box_triangles() (x 1..3, y -2..1, z -3..1) lowered by 5 m: fully submerged, z -8..-4.
    path = tmp_path / "box.stl"
    write_ascii_stl(path, box_triangles())
    hull, lid, closed = meshes.load_closed_mesh(path, offset=[0, 0, -5], panel=0.6, dry_faces_at_z=[-8.0])
    assert lid is None  # nothing pierces the surface
    # Refinement: every edge <= 0.6 m; the closed surface's area is unchanged (bisection is exact).
    v, f = np.asarray(closed.vertices), np.asarray(closed.faces)
    edges = np.linalg.norm(v[f] - v[np.roll(f, 1, axis=1)], axis=2)
    assert edges.max() <= 0.6 + 1e-12
    area = 2 * (2 * 3 + 2 * 4 + 3 * 4)
    assert float(np.sum(closed.faces_areas)) == pytest.approx(area, rel=1e-12)
    # The bottom (2 m x 3 m at z = -8) is left out of the BEM hull, kept in the closed one.
    assert float(np.sum(hull.faces_areas)) == pytest.approx(area - 6.0, rel=1e-12)
    assert np.min(np.asarray(hull.faces_centers)[:, 2]) > -8.0
    h = meshes.mesh_hydrostatics(closed)
    assert h["volume"] == pytest.approx(24.0, rel=1e-12)
    assert h["cb"] == pytest.approx([2.0, -0.5, -6.0], rel=1e-12)
    assert h["awp"] == pytest.approx(0.0, abs=1e-9)
    with pytest.raises(ValueError, match="no horizontal face"):
        meshes.load_closed_mesh(path, offset=[0, 0, -5], dry_faces_at_z=[-7.5])


def test_truncated_stl_is_rejected(tmp_path):
    path = tmp_path / "bad.stl"
    path.write_text("solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n")
    with pytest.raises(ValueError, match="not a valid STL"):
        mesh_files.read_stl(path)
