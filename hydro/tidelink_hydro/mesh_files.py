"""Readers for .stl (binary or ASCII) and .obj meshes, so no extra package (meshio, trimesh) is needed.

Capytaine itself reads its native formats (.gdf, .dat, .pnl, .hst, …); these two are the common CAD exports.
Vertices shared by several triangles of an STL are merged (to 1e-9 m) so the mesh is connected.
"""

import struct

import numpy as np


def _merge(points):
    """Unique vertices and, for each input point, its index among them."""
    pts = np.asarray(points, dtype=float).reshape(-1, 3)
    keys = np.round(pts / 1e-9).astype(np.int64)
    _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    return pts[first], inverse.reshape(-1)


def read_stl(path):
    """(vertices, triangles) of an STL file."""
    data = open(path, "rb").read()
    if len(data) >= 84:
        n = struct.unpack_from("<I", data, 80)[0]
        if len(data) == 84 + 50 * n:  # binary: 80-byte header, count, then 50 bytes per triangle
            rec = np.frombuffer(data, dtype=np.dtype([("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")]),
                                count=n, offset=84)
            vertices, idx = _merge(rec["v"].reshape(-1, 3))
            return vertices, idx.reshape(-1, 3).tolist()
    points = []
    for line in data.decode("ascii", errors="replace").splitlines():
        words = line.split()
        if words and words[0] == "vertex":
            points.append([float(w) for w in words[1:4]])
    if not points or len(points) % 3:
        raise ValueError(f"{path}: not a valid STL file")
    vertices, idx = _merge(points)
    return vertices, idx.reshape(-1, 3).tolist()


def read_obj(path):
    """(vertices, faces) of a Wavefront OBJ file; polygons with more than 4 corners are fanned into triangles."""
    vertices, faces = [], []
    for line in open(path, errors="replace"):
        words = line.split()
        if not words:
            continue
        if words[0] == "v":
            vertices.append([float(w) for w in words[1:4]])
        elif words[0] == "f":
            ids = [int(w.split("/")[0]) for w in words[1:]]
            ids = [i - 1 if i > 0 else len(vertices) + i for i in ids]  # 1-based, or negative = relative
            if len(ids) in (3, 4):
                faces.append(ids)
            else:
                faces.extend([ids[0], ids[k], ids[k + 1]] for k in range(1, len(ids) - 1))
    if not faces:
        raise ValueError(f"{path}: no faces in the OBJ file")
    return np.asarray(vertices, dtype=float), faces
