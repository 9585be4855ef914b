//! Pressure drag of a uniform stream on a thin plate given by points (no I/O, no coupling).
//!
//! Each point carries an equal share `A/n` of the plate's area and gets the load
//! `F_i = ½ ρ C_d (A/n) |w_i| w_i n`, with `n` the plate's unit normal (fitted through the
//! current points) and `w_i = (U − v_i)·n` the normal velocity of the stream relative to the
//! point. The load is along the normal whatever the sign chosen for it, and it damps the
//! plate's motion, since a point moving with the stream feels less of it.

use crate::ModelError;
use nalgebra::{Matrix2, Matrix3, Vector2, Vector3};

/// The stream and the plate's drag data.
#[derive(Debug, Clone, PartialEq)]
pub struct PlateInStream {
    velocity: Vector3<f64>,
    density: f64,
    drag_coefficient: f64,
    area: f64,
}

impl PlateInStream {
    /// A plate of wetted area `area` (m²; per unit span in 2D) in a stream of `velocity`.
    pub fn new(velocity: Vector3<f64>, density: f64, drag_coefficient: f64, area: f64) -> Result<Self, ModelError> {
        let check = |name, value: f64, ok: bool, rule| {
            if ok && value.is_finite() {
                Ok(())
            } else {
                Err(ModelError::InvalidParameter { name, rule, value })
            }
        };
        for (i, u) in velocity.iter().enumerate() {
            check(["velocity[0]", "velocity[1]", "velocity[2]"][i], *u, true, "a finite number")?;
        }
        check("fluid_density", density, density > 0.0, "a positive number")?;
        check("drag_coefficient", drag_coefficient, drag_coefficient >= 0.0, "zero or positive")?;
        check("area", area, area > 0.0, "a positive number")?;
        Ok(PlateInStream { velocity, density, drag_coefficient, area })
    }

    /// The stream velocity (m/s).
    pub fn velocity(&self) -> Vector3<f64> {
        self.velocity
    }

    /// The loads on `points` moving at `velocities` (same length). `planar` plates are
    /// lines in the x-y plane (2D meshes); others are fitted as planes.
    pub fn loads(&self, points: &[Vector3<f64>], velocities: &[Vector3<f64>], planar: bool) -> Vec<Vector3<f64>> {
        let Some(n) = plate_normal(points, planar) else { return vec![Vector3::zeros(); points.len()] };
        let share = 0.5 * self.density * self.drag_coefficient * self.area / points.len() as f64;
        velocities
            .iter()
            .map(|v| {
                let w = (self.velocity - v).dot(&n);
                n * (share * w.abs() * w)
            })
            .collect()
    }
}

/// The unit normal of the best-fit line (x-y plane, `planar`) or plane through `points`:
/// the direction of least spread of their covariance. `None` for fewer than two distinct points.
pub fn plate_normal(points: &[Vector3<f64>], planar: bool) -> Option<Vector3<f64>> {
    if points.len() < 2 {
        return None;
    }
    let c = points.iter().sum::<Vector3<f64>>() / points.len() as f64;
    if planar {
        let m: Matrix2<f64> =
            points.iter().map(|p| Vector2::new(p.x - c.x, p.y - c.y)).map(|d| d * d.transpose()).sum();
        let e = m.symmetric_eigen();
        if e.eigenvalues.max() <= 0.0 {
            return None;
        }
        let k = if e.eigenvalues[0] < e.eigenvalues[1] { 0 } else { 1 };
        let n = e.eigenvectors.column(k);
        return Some(Vector3::new(n[0], n[1], 0.0));
    }
    let m: Matrix3<f64> = points.iter().map(|p| (p - c) * (p - c).transpose()).sum();
    let e = m.symmetric_eigen();
    if e.eigenvalues.max() <= 0.0 {
        return None;
    }
    let k = e.eigenvalues.imin();
    Some(e.eigenvectors.column(k).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flap(angle: f64) -> Vec<Vector3<f64>> {
        (0..=10).map(|i| 0.02 * i as f64 * Vector3::new(angle.cos(), angle.sin(), 0.0)).collect()
    }

    #[test]
    fn normal_of_a_rotated_line_is_perpendicular_to_it() {
        let n = plate_normal(&flap(0.3), true).unwrap();
        assert!((n.norm() - 1.0).abs() < 1e-12);
        assert!(n.dot(&Vector3::new(0.3f64.cos(), 0.3f64.sin(), 0.0)).abs() < 1e-12);
        assert!(plate_normal(&[Vector3::zeros(); 3], true).is_none());
    }

    #[test]
    fn broadside_stream_gives_the_drag_formula_and_motion_with_the_stream_reduces_it() {
        // 1000 kg/m³, C_d 2, 0.2 m² in 0.5 m/s broadside: ½·1000·2·0.2·0.25 = 50 N in all.
        let plate = PlateInStream::new(Vector3::new(0.0, 0.5, 0.0), 1000.0, 2.0, 0.2).unwrap();
        let pts = flap(0.0);
        let f = plate.loads(&pts, &vec![Vector3::zeros(); pts.len()], true);
        let total: Vector3<f64> = f.iter().sum();
        assert!((total - Vector3::new(0.0, 50.0, 0.0)).norm() < 1e-9, "{total}");
        let moving = plate.loads(&pts, &vec![Vector3::new(0.0, 0.25, 0.0); pts.len()], true);
        let slower: Vector3<f64> = moving.iter().sum();
        assert!((slower.y - 12.5).abs() < 1e-9, "a quarter of the load at half the relative speed: {slower}");
        // Inclined by 60°: the normal component of the stream is halved, the load quartered.
        let inclined: Vector3<f64> =
            plate.loads(&flap(std::f64::consts::FRAC_PI_3), &vec![Vector3::zeros(); 11], true).iter().sum();
        assert!((inclined.norm() - 12.5).abs() < 1e-9, "{inclined}");
    }

    #[test]
    fn bad_parameters_are_named() {
        let e = PlateInStream::new(Vector3::zeros(), 1000.0, 2.0, 0.0).unwrap_err();
        assert_eq!(e.to_string(), "area must be a positive number, got 0");
    }
}
