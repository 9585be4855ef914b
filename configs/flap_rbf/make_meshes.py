"""Writes the two meshes of this case (run from this folder: python3 make_meshes.py).

flap.obj: the flap's surface for the Solid, a box 0.2 m long (x), 0.02 m thick (y) and
0.1 m of span (z), its six faces cut into triangles, 4 x 1 x 2 cells: a coarse mesh.
fluid_points.txt: the Fluid's points, a finer grid on the two broad faces (y = +-0.01),
11 x 6 each at the centres of a grid, none of them a vertex of flap.obj: another resolution.
"""

L, T, S = 0.2, 0.02, 0.1


def box(nx, ny, nz):
    verts, index, faces = [], {}, []

    def vid(p):
        key = tuple(round(c, 12) for c in p)
        if key not in index:
            index[key] = len(verts)
            verts.append(key)
        return index[key]

    def face(origin, du, dv, nu, nv, flip):
        for i in range(nu):
            for j in range(nv):
                corner = [
                    [origin[k] + du[k] * (i + a) / nu + dv[k] * (j + b) / nv for k in range(3)]
                    for a, b in ((0, 0), (1, 0), (1, 1), (0, 1))
                ]
                q = [vid(c) for c in corner]
                if flip:
                    q = q[::-1]
                faces.append((q[0], q[1], q[2]))
                faces.append((q[0], q[2], q[3]))

    y0 = -T / 2
    face((0, y0, 0), (L, 0, 0), (0, 0, S), nx, nz, False)  # y = -t/2
    face((0, -y0, 0), (L, 0, 0), (0, 0, S), nx, nz, True)  # y = +t/2
    face((0, y0, 0), (0, T, 0), (0, 0, S), ny, nz, True)  # x = 0
    face((L, y0, 0), (0, T, 0), (0, 0, S), ny, nz, False)  # x = L
    face((0, y0, 0), (L, 0, 0), (0, T, 0), nx, ny, True)  # z = 0
    face((0, y0, S), (L, 0, 0), (0, T, 0), nx, ny, False)  # z = S
    return verts, faces


verts, faces = box(4, 1, 2)
with open("solid/flap.obj", "w") as f:
    f.write("# The flap's surface (make_meshes.py): %d vertices, %d triangles\n" % (len(verts), len(faces)))
    for v in verts:
        f.write("v %.6g %.6g %.6g\n" % v)
    for t in faces:
        f.write("f %d %d %d\n" % tuple(i + 1 for i in t))

points = []
for y in (-T / 2, T / 2):
    for i in range(11):
        for j in range(6):
            points.append((L * (i + 0.5) / 11, y, S * (j + 0.5) / 6))
with open("fluid/fluid_points.txt", "w") as f:
    f.write("# The Fluid's points (make_meshes.py): both broad faces of the flap, 11 x 6 each\n%d\n" % len(points))
    for p in points:
        f.write("%.6g %.6g %.6g\n" % p)
