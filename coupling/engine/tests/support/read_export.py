"""Reads one exported mesh file with readers that share nothing with Tidelink and prints it as
JSON, for the engine's export tests.

* .vtu and legacy .vtk: meshio;
* .vtp: the standard library's XML parser (meshio has no VTP reader), following the VTK XML
  PolyData layout (Points, Lines, Polys, PointData);
* .csv: the standard library's csv module.

Output: {"points": [[x, y, z], ...], "cells": {"line": [[a, b], ...], "triangle": ..., "tetra": ...},
"point_data": {"Name": [[component, ...] per vertex]}}; for .csv {"header": [...], "rows": [[...]]}.
"""

import csv
import json
import sys
import xml.etree.ElementTree as ET


def read_meshio(path):
    import meshio

    mesh = meshio.read(path)
    cells = {}
    for block in mesh.cells:
        cells.setdefault(block.type, []).extend(block.data.tolist())
    n = len(mesh.points)
    data = {name: values.reshape(n, -1).tolist() for name, values in mesh.point_data.items()}
    return {"points": mesh.points.tolist(), "cells": cells, "point_data": data}


def numbers(element):
    return [float(x) for x in (element.text or "").split()]


def read_vtp(path):
    piece = ET.parse(path).getroot().find("PolyData").find("Piece")
    coords = numbers(piece.find("Points").find("DataArray"))
    points = [coords[i : i + 3] for i in range(0, len(coords), 3)]
    cells = {}
    for section, kind in (("Lines", "line"), ("Polys", "triangle")):
        arrays = {a.get("Name"): [int(x) for x in numbers(a)] for a in piece.find(section)}
        start = 0
        for end in arrays["offsets"]:
            cells.setdefault(kind, []).append(arrays["connectivity"][start:end])
            start = end
    data = {}
    for array in piece.find("PointData"):
        k = int(array.get("NumberOfComponents"))
        values = numbers(array)
        data[array.get("Name")] = [values[i : i + k] for i in range(0, len(values), k)]
    return {"points": points, "cells": cells, "point_data": data}


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f, delimiter=";"))
    return {"header": rows[0], "rows": [[float(x) for x in r] for r in rows[1:]]}


if __name__ == "__main__":
    path = sys.argv[1]
    reader = {"vtp": read_vtp, "csv": read_csv}.get(path.rsplit(".", 1)[-1], read_meshio)
    print(json.dumps(reader(path)))
