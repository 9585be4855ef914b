"""Parametric bodies: the RM3 float and spar (two dimension sets), a sphere, a vertical cylinder.

Each function returns an `AxisymmetricBody` (profiles in the (r, z) half-plane, z up, origin on the
still-water level).  Dimensions in metres.
"""

import math

from .profiles import AxisymmetricBody, Profile

# RM3 dimension sets.  `published`: the drawing of the WEC-Sim RM3 (float draft 3.03 m, bottom
# diameter 10.06 m, plate at -30.0 .. -29.9 m).  `gdf`: what the WAMIT run that produced WEC-Sim's
# rm3.out actually meshed (float draft 3.00 m, bottom diameter 10.0 m, plate at -29.0 .. -28.9 m).
# Both close the float-spar gap: the float bore has the spar column's radius (3.0 m).
RM3_DIMENSIONS = {
    "published": {"float_bottom_r": 5.03, "float_draft": 3.03, "plate_top": -29.9, "plate_bottom": -30.0},
    "gdf": {"float_bottom_r": 5.00, "float_draft": 3.00, "plate_top": -28.9, "plate_bottom": -29.0},
}
RM3_FLOAT_R = 10.0  # outer radius of the float
RM3_FLOAT_WALL_BOTTOM = -2.0  # z where the vertical outer wall meets the conical chamfer
RM3_COLUMN_R = 3.0  # spar column radius = float bore radius (closed gap)
RM3_PLATE_R = 15.0  # reaction plate radius


def rm3_dims(name):
    """The dimension set `name` (`published` or `gdf`), or a ValueError listing both."""
    if name not in RM3_DIMENSIONS:
        raise ValueError(f"unknown RM3 dimension set {name!r}; expected one of {sorted(RM3_DIMENSIONS)}")
    return RM3_DIMENSIONS[name]


def rm3_float(dims="gdf", panel=0.5):
    """The RM3 float: annulus of outer radius 10 m, conical chamfer, bore = spar column.

    The bore wall is left out of the BEM mesh: it coincides with the spar column (closed gap,
    see docs/hydro.md), so the float and spar hulls form one watertight wetted surface.
    """
    d = rm3_dims(dims)
    rb, draft = d["float_bottom_r"], d["float_draft"]
    outer = [(RM3_FLOAT_R, 0.0), (RM3_FLOAT_R, RM3_FLOAT_WALL_BOTTOM), (rb, -draft), (RM3_COLUMN_R, -draft)]
    hull = outer + [(RM3_COLUMN_R, 0.0)]
    return AxisymmetricBody(hull=hull, bem=[Profile(outer, panel)], waterline=[(RM3_COLUMN_R, RM3_FLOAT_R)])


def rm3_spar(dims="gdf", panel=0.5, plate_panel=1.0, float_draft=None):
    """The RM3 spar: column of radius 3 m down to a 15 m radius, 0.1 m thick reaction plate.

    The part of the column inside the float bore (above the float's draft) is left out of the
    BEM mesh (closed gap); `float_draft` defaults to the same dimension set's float draft.
    The plate's faces are meshed radially with `plate_panel` (1 m, as the WAMIT mesh), the rim in one panel.
    """
    d = rm3_dims(dims)
    top, bottom = d["plate_top"], d["plate_bottom"]
    cut = -(d["float_draft"] if float_draft is None else float_draft)
    below = [(RM3_COLUMN_R, top), (RM3_PLATE_R, top), (RM3_PLATE_R, bottom), (0.0, bottom)]
    hull = [(RM3_COLUMN_R, 0.0)] + below + [(0.0, 0.0)]
    column = Profile([(RM3_COLUMN_R, cut), (RM3_COLUMN_R, top)], panel).refined()
    plate = Profile(below, plate_panel).refined()
    # Already refined: one polyline, kept as is by a panel length larger than every piece.
    bem = [Profile(column + plate[1:], 1e9)]
    return AxisymmetricBody(hull=hull, bem=bem, waterline=[(0.0, RM3_COLUMN_R)])


def sphere(radius, center_z=0.0, panel=None):
    """A sphere of `radius` centred at (0, 0, center_z); only the part below z = 0 is meshed.

    With center_z = 0 it is the floating hemisphere of Hulme (1982).
    """
    if radius <= 0:
        raise ValueError("sphere radius must be positive")
    panel = panel or radius / 10.0
    top = min(1.0, max(-1.0, -center_z / radius))  # sin of the elevation where the sphere meets z = 0
    if top <= -1.0:
        raise ValueError("the sphere is entirely above the water")
    theta_top = math.asin(top)  # elevation angle of the highest wetted point
    n = max(4, math.ceil((theta_top + math.pi / 2) * radius / panel))
    pts = []
    for k in range(n + 1):
        th = theta_top - k * (theta_top + math.pi / 2) / n
        pts.append((radius * math.cos(th), center_z + radius * math.sin(th)))
    pts[-1] = (0.0, pts[-1][1])
    if top < 1.0:
        rw = pts[0][0]
        pts[0] = (rw, 0.0)
        hull = pts + [(0.0, 0.0)]
        waterline = [(0.0, rw)]
    else:  # fully submerged: start on the axis at the top
        pts[0] = (0.0, pts[0][1])
        hull, waterline = pts, []
    # The arc is already refined: a panel length larger than every chord keeps it as is.
    return AxisymmetricBody(hull=hull, bem=[Profile(pts, 2.0 * panel)], waterline=waterline)


def vertical_cylinder(radius, draft, panel=None):
    """A vertical circular cylinder of `radius` floating with `draft` (flat bottom)."""
    if radius <= 0 or draft <= 0:
        raise ValueError("cylinder radius and draft must be positive")
    panel = panel or min(radius, draft) / 5.0
    wet = [(radius, 0.0), (radius, -draft), (0.0, -draft)]
    return AxisymmetricBody(hull=wet + [(0.0, 0.0)], bem=[Profile(wet, panel)], waterline=[(0.0, radius)])
