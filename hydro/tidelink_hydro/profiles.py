"""Meridian profiles of axisymmetric bodies, and their exact hydrostatics.

A profile is a polyline in the (r, z) half-plane.  Swept around the z axis it gives a
surface of revolution.  Profiles of the *wetted* hull run from the outer waterline down
and back up to the inner waterline (or to the axis), so that the outward normal of each
segment is the segment direction turned by +90 degrees: n = (-dz, dr).
"""

import math
from dataclasses import dataclass, field
from typing import List, Tuple

Point = Tuple[float, float]


@dataclass
class Profile:
    """An open polyline (r, z) and the largest panel length along it (m)."""

    points: List[Point]
    panel: float

    def refined(self) -> List[Point]:
        """The polyline with every segment cut into equal panels no longer than `panel`."""
        out = [self.points[0]]
        for (r0, z0), (r1, z1) in zip(self.points, self.points[1:]):
            length = math.hypot(r1 - r0, z1 - z0)
            n = max(1, math.ceil(length / self.panel - 1e-9))
            for k in range(1, n + 1):
                s = k / n
                out.append((r0 + s * (r1 - r0), z0 + s * (z1 - z0)))
        return out


@dataclass
class AxisymmetricBody:
    """What the mesher needs for one axisymmetric body.

    `hull` is the closed wetted profile used for the hydrostatics (one polyline from
    waterline to waterline or axis); `bem` the polylines actually meshed for the BEM
    (the same, or a part when a wall is shared with another body); `waterline` the
    (r_inner, r_outer) rings of the waterplane, also meshed as lids.
    """

    hull: List[Point]
    bem: List[Profile]
    waterline: List[Tuple[float, float]] = field(default_factory=list)


def polygon_moments(points: List[Point]) -> Tuple[float, float]:
    """Integrals of r and r*z over the area enclosed by `points` (closed on itself), by Green's theorem.

    Used with Pappus: volume = 2 pi * int r dA, and volume * z_b = 2 pi * int r z dA.
    The sign of the traversal is removed, so either direction works.
    """
    closed = points + [points[0]]
    area = m_r = m_rz = 0.0
    for (r0, z0), (r1, z1) in zip(closed, closed[1:]):
        c = r0 * z1 - r1 * z0
        area += c / 2.0
        m_r += c * (r0 + r1) / 6.0
        m_rz += c * (r0 * z1 + 2.0 * r0 * z0 + 2.0 * r1 * z1 + r1 * z0) / 24.0
    sign = 1.0 if area >= 0.0 else -1.0
    return sign * m_r, sign * m_rz


def axisymmetric_hydrostatics(body: AxisymmetricBody) -> dict:
    """Exact displaced volume, centre of buoyancy and waterplane moments of a body of revolution.

    The hull profile is closed along z = 0 (the waterplane); waterplane integrals come from the
    rings in `body.waterline`.  Keys match `meshes.mesh_hydrostatics` so both can be used alike.
    """
    m_r, m_rz = polygon_moments(list(body.hull))
    volume = 2.0 * math.pi * m_r
    zb = 2.0 * math.pi * m_rz / volume if volume > 0 else 0.0
    awp = sum(math.pi * (ro * ro - ri * ri) for ri, ro in body.waterline)
    i2 = sum(math.pi * (ro**4 - ri**4) / 4.0 for ri, ro in body.waterline)
    return {
        "volume": volume,
        "cb": [0.0, 0.0, zb],
        "awp": awp,
        "wp_x": 0.0,  # int x dS over the waterplane
        "wp_y": 0.0,
        "wp_xx": i2,  # int x^2 dS
        "wp_yy": i2,
        "wp_xy": 0.0,
    }
