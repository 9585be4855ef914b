//! Scalar holonomic constraint rows, the building blocks every joint is assembled from.
//!
//! A row is a residual `Φ(q)` with its Jacobian with respect to each body's virtual
//! displacement `[δx, δθ]` (COM translation, world-axes rotation increment), so the
//! integrators can treat every joint alike.

use nalgebra::{Vector3, Vector6};

/// One constraint equation between two bodies: its value and its two Jacobian blocks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConstraintRow {
    /// The residual `Φ`, zero when the constraint holds.
    pub value: f64,
    /// `∂Φ/∂[δx1, δθ1]`.
    pub jac1: Vector6<f64>,
    /// `∂Φ/∂[δx2, δθ2]`.
    pub jac2: Vector6<f64>,
}

fn six(a: Vector3<f64>, b: Vector3<f64>) -> Vector6<f64> {
    Vector6::new(a.x, a.y, a.z, b.x, b.y, b.z)
}

/// Component `e` of `p1 − p2` (two points coinciding); `r_i` are the points relative to the COMs.
pub fn point_component(
    p1: Vector3<f64>,
    r1: Vector3<f64>,
    p2: Vector3<f64>,
    r2: Vector3<f64>,
    e: Vector3<f64>,
) -> ConstraintRow {
    ConstraintRow { value: (p1 - p2).dot(&e), jac1: six(e, r1.cross(&e)), jac2: -six(e, r2.cross(&e)) }
}

/// `a · b = 0` for a direction `a` fixed in body 1 and `b` fixed in body 2 (perpendicular axes).
pub fn perpendicular(a: Vector3<f64>, b: Vector3<f64>) -> ConstraintRow {
    ConstraintRow {
        value: a.dot(&b),
        jac1: six(Vector3::zeros(), a.cross(&b)),
        jac2: six(Vector3::zeros(), b.cross(&a)),
    }
}

/// `(p2 − p1) · a = 0` with `a` fixed in body 1: the point of body 2 stays in a plane of body 1.
pub fn offset_along(
    p1: Vector3<f64>,
    r1: Vector3<f64>,
    p2: Vector3<f64>,
    r2: Vector3<f64>,
    a: Vector3<f64>,
) -> ConstraintRow {
    let d = p2 - p1;
    ConstraintRow { value: d.dot(&a), jac1: six(-a, a.cross(&d) - r1.cross(&a)), jac2: six(a, r2.cross(&a)) }
}

/// `|p2 − p1| − length = 0` (a massless rod). Points that coincide give a zero Jacobian.
pub fn distance(p1: Vector3<f64>, r1: Vector3<f64>, p2: Vector3<f64>, r2: Vector3<f64>, length: f64) -> ConstraintRow {
    let d = p2 - p1;
    let l = d.norm();
    let n = if l > 0.0 { d / l } else { Vector3::zeros() };
    ConstraintRow { value: l - length, jac1: -six(n, r1.cross(&n)), jac2: six(n, r2.cross(&n)) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::UnitQuaternion;

    /// Checks each primitive's analytical Jacobian against central differences.
    #[test]
    fn jacobians_match_finite_differences() {
        let x1 = Vector3::new(0.1, 0.2, -0.3);
        let x2 = Vector3::new(1.0, -0.4, 0.5);
        let q1 = UnitQuaternion::from_scaled_axis(Vector3::new(0.3, -0.2, 0.1));
        let q2 = UnitQuaternion::from_scaled_axis(Vector3::new(-0.1, 0.4, 0.7));
        let (s1, s2) = (Vector3::new(0.5, 0.1, 0.0), Vector3::new(-0.2, 0.3, 0.4));
        let (u1, u2) = (Vector3::new(0.0, 0.6, 0.8), Vector3::new(1.0, 0.0, 0.0));
        let rows = |x1: Vector3<f64>, q1: UnitQuaternion<f64>, x2: Vector3<f64>, q2: UnitQuaternion<f64>| {
            let (r1, r2) = (q1 * s1, q2 * s2);
            let (p1, p2) = (x1 + r1, x2 + r2);
            vec![
                point_component(p1, r1, p2, r2, Vector3::y()),
                perpendicular(q1 * u1, q2 * u2),
                offset_along(p1, r1, p2, r2, q1 * u1),
                distance(p1, r1, p2, r2, 0.3),
            ]
        };
        let base = rows(x1, q1, x2, q2);
        let h = 1e-6;
        for k in 0..12 {
            let mut d = Vector6::zeros();
            d[k % 6] = h;
            let shift = |x: Vector3<f64>, q: UnitQuaternion<f64>, d: Vector6<f64>| {
                (x + d.fixed_rows::<3>(0), UnitQuaternion::from_scaled_axis(d.fixed_rows::<3>(3).into_owned()) * q)
            };
            let (plus, minus) = if k < 6 {
                let (a, b) = (shift(x1, q1, d), shift(x1, q1, -d));
                (rows(a.0, a.1, x2, q2), rows(b.0, b.1, x2, q2))
            } else {
                let (a, b) = (shift(x2, q2, d), shift(x2, q2, -d));
                (rows(x1, q1, a.0, a.1), rows(x1, q1, b.0, b.1))
            };
            for i in 0..base.len() {
                let fd = (plus[i].value - minus[i].value) / (2.0 * h);
                let an = if k < 6 { base[i].jac1[k] } else { base[i].jac2[k - 6] };
                assert!((fd - an).abs() < 1e-8, "row {i} column {k}: {fd} vs {an}");
            }
        }
    }
}
