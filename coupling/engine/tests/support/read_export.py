"""Reads one exported mesh file with readers that share nothing with Tidelink and prints it as
JSON, for the engine's export tests.

* .vtu and legacy .vtk: meshio; a .vtu without cells (a mesh without elements) with the
  standard library's XML parser, as meshio 5.3 cannot read those (it looks up the type of a first
  cell that is not there), though VTK and ParaView do;
* .vtp: the standard library's XML parser (meshio has no VTP reader), following the VTK XML
  layout (Points, Lines and Polys or Cells, PointData);
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


VTK_TYPES = {3: "line", 5: "triangle", 10: "tetra"}


def split(connectivity, offsets):
    start = 0
    for end in offsets:
        yield connectivity[start:end]
        start = end


def read_xml(path):
    grid = ET.parse(path).getroot()[0]
    piece = grid.find("Piece")
    coords = numbers(piece.find("Points").find("DataArray"))
    points = [coords[i : i + 3] for i in range(0, len(coords), 3)]
    cells = {}
    if grid.tag == "PolyData":
        for section, kind in (("Lines", "line"), ("Polys", "triangle")):
            arrays = {a.get("Name"): [int(x) for x in numbers(a)] for a in piece.find(section)}
            for ids in split(arrays["connectivity"], arrays["offsets"]):
                cells.setdefault(kind, []).append(ids)
    else:
        arrays = {a.get("Name"): [int(x) for x in numbers(a)] for a in piece.find("Cells")}
        for ids, t in zip(split(arrays["connectivity"], arrays["offsets"]), arrays["types"]):
            cells.setdefault(VTK_TYPES[t], []).append(ids)
    data = {}
    for array in piece.find("PointData"):
        k = int(array.get("NumberOfComponents"))
        values = numbers(array)
        data[array.get("Name")] = [values[i : i + k] for i in range(0, len(values), k)]
    return {"points": points, "cells": cells, "point_data": data}


def read_vtu(path):
    piece = ET.parse(path).getroot()[0].find("Piece")
    return read_xml(path) if piece.get("NumberOfCells") == "0" else read_meshio(path)


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f, delimiter=";"))
    return {"header": rows[0], "rows": [[float(x) for x in r] for r in rows[1:]]}


if __name__ == "__main__":
    path = sys.argv[1]
    reader = {"vtu": read_vtu, "vtp": read_xml, "csv": read_csv}.get(path.rsplit(".", 1)[-1], read_meshio)
    print(json.dumps(reader(path)))
