//! Small rotations: the cross-product matrix and the left Jacobian of SO(3), which turns a
//! change of a step's rotation vector into the world rotation increment of the end orientation.

use nalgebra::{Matrix3, Vector3};

/// `[a]×`, so that `[a]× b = a × b`.
pub fn skew(a: &Vector3<f64>) -> Matrix3<f64> {
    a.cross_matrix()
}

/// The left Jacobian `J_l(φ)` of the exponential map: `exp(φ + dφ) = exp(J_l(φ) dφ) exp(φ)`
/// to first order. `J_l = I + (1 − cos θ)/θ² [φ]× + (θ − sin θ)/θ³ [φ]×²`, by its series
/// below `θ = 1e-4` (where the closed form loses digits).
pub fn left_jacobian(phi: &Vector3<f64>) -> Matrix3<f64> {
    let t = phi.norm();
    let k = skew(phi);
    let (a, b) = if t < 1e-4 {
        let t2 = t * t;
        (0.5 - t2 / 24.0, 1.0 / 6.0 - t2 / 120.0)
    } else {
        ((1.0 - t.cos()) / (t * t), (t - t.sin()) / (t * t * t))
    };
    Matrix3::identity() + k * a + k * k * b
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::UnitQuaternion;

    /// `exp(φ + ε e) exp(φ)⁻¹ ≈ exp(ε J_l e)`: central differences of the rotation, compared
    /// column by column. ε = 1e-6 rad: truncation ε² ≈ 1e-12, round-off 1e-16/ε ≈ 1e-10.
    #[test]
    fn left_jacobian_matches_differences_of_the_exponential() {
        for phi in [Vector3::new(0.3, -0.7, 1.1), Vector3::new(2e-5, 1e-5, -3e-5)] {
            let j = left_jacobian(&phi);
            let r0 = UnitQuaternion::from_scaled_axis(phi);
            let eps = 1e-6;
            for c in 0..3 {
                let e = Vector3::ith(c, eps);
                let plus = UnitQuaternion::from_scaled_axis(phi + e) * r0.inverse();
                let minus = UnitQuaternion::from_scaled_axis(phi - e) * r0.inverse();
                let d = (plus.scaled_axis() - minus.scaled_axis()) / (2.0 * eps);
                assert!((d - j.column(c)).amax() < 1e-9, "column {c}: {d} vs {}", j.column(c));
            }
        }
    }
}
