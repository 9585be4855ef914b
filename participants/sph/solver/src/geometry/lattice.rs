//! Cell-centred lattices: fluid blocks and the markers of shapes.

use super::Shape;
use nalgebra::Point3;

/// Centres of the cells of side `dp` filling the box `[lo, hi]` (in 2D the x–z rectangle at
/// y = 0); the cell count per axis is `(hi − lo)/dp` rounded, so the box should be a whole
/// number of spacings for the fluid mass to match its volume.
pub fn fluid_lattice(lo: Point3<f64>, hi: Point3<f64>, dp: f64, dim: usize) -> Vec<Point3<f64>> {
    let count = |k: usize| (((hi[k] - lo[k]) / dp).round().max(0.0)) as usize;
    let ny = if dim == 2 { 1 } else { count(1) };
    let mut out = Vec::with_capacity(count(0) * ny * count(2));
    for iz in 0..count(2) {
        for iy in 0..ny {
            for ix in 0..count(0) {
                let y = if dim == 2 { 0.0 } else { lo.y + (iy as f64 + 0.5) * dp };
                out.push(Point3::new(lo.x + (ix as f64 + 0.5) * dp, y, lo.z + (iz as f64 + 0.5) * dp));
            }
        }
    }
    out
}

/// Body-frame markers of `shape` for spacing `dp` and `layers` layers.
pub(crate) fn markers_of(shape: &Shape, dp: f64, layers: usize, dim: usize) -> Vec<Point3<f64>> {
    let thick = layers as f64 * dp;
    if let Shape::Container { half_extents: e, open_top } = shape {
        // Per axis: cells inside `0..n`, wall cells `-layers..0` and `n..n + layers`.
        let n: Vec<usize> = (0..3).map(|k| ((2.0 * e[k] / dp).round() as usize).max(1)).collect();
        let s: Vec<f64> = (0..3).map(|k| 2.0 * e[k] / n[k] as f64).collect();
        let l = layers as i64;
        let range = |k: usize| -> Vec<i64> {
            if dim == 2 && k == 1 {
                vec![i64::MIN]
            } else {
                (-l..n[k] as i64 + l).collect()
            }
        };
        let mut out = Vec::new();
        for iz in range(2) {
            if *open_top && iz >= n[2] as i64 {
                continue;
            }
            for iy in range(1) {
                for ix in range(0) {
                    let idx = [ix, iy, iz];
                    let wall = (0..3).any(|k| idx[k] != i64::MIN && (idx[k] < 0 || idx[k] >= n[k] as i64));
                    if wall {
                        let c = |k: usize| if idx[k] == i64::MIN { 0.0 } else { -e[k] + (idx[k] as f64 + 0.5) * s[k] };
                        out.push(Point3::new(c(0), c(1), c(2)));
                    }
                }
            }
        }
        return out;
    }
    let (lo, hi) = shape.bounds();
    let n: Vec<usize> = (0..3).map(|k| (((hi[k] - lo[k]) / dp).round() as usize).max(1)).collect();
    let s: Vec<f64> = (0..3).map(|k| (hi[k] - lo[k]) / n[k] as f64).collect();
    let ny = if dim == 2 { 1 } else { n[1] };
    let mut out = Vec::new();
    for iz in 0..n[2] {
        for iy in 0..ny {
            for ix in 0..n[0] {
                let y = if dim == 2 { 0.0 } else { lo.y + (iy as f64 + 0.5) * s[1] };
                let p = Point3::new(lo.x + (ix as f64 + 0.5) * s[0], y, lo.z + (iz as f64 + 0.5) * s[2]);
                if shape.contains(&p, thick) && shape.depth(&p) < thick {
                    out.push(p);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector3;

    #[test]
    fn box_markers_are_hollow_only_when_thick() {
        let thin = Shape::Box { half_extents: Vector3::new(0.1, 0.1, 0.1) };
        // 10 × 10 cells of 0.02 in 2D; three layers leave a 4 × 4 hole.
        assert_eq!(markers_of(&thin, 0.02, 3, 2).len(), 100 - 16);
        assert_eq!(markers_of(&thin, 0.02, 3, 3).len(), 1000 - 64);
        let fluid = fluid_lattice(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 1.0, 0.5), 0.1, 2);
        assert_eq!(fluid.len(), 50);
        assert!((fluid[0].x - 0.05).abs() < 1e-12 && fluid[0].y == 0.0);
    }

    #[test]
    fn container_walls() {
        let tank = Shape::Container { half_extents: Vector3::new(0.5, 0.5, 0.25), open_top: true };
        let m = markers_of(&tank, 0.05, 3, 2);
        // 2D: 20 + 6 wide, 10 + 3 high (no lid), minus the 20 × 10 inside.
        assert_eq!(m.len(), 26 * 13 - 200);
        assert!(m.iter().all(|p| tank.contains(p, 0.15)));
        let closed = Shape::Container { half_extents: Vector3::new(0.5, 0.5, 0.25), open_top: false };
        assert_eq!(markers_of(&closed, 0.05, 3, 3).len(), 26 * 26 * 16 - 20 * 20 * 10);
    }
}
