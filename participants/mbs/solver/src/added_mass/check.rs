//! The checks that keep `M + A∞` solvable: symmetry of the coefficients and positive
//! definiteness of the total mass over the hydrodynamic bodies (a singular or indefinite
//! mass matrix otherwise shows up only as a diverging or non-finite motion).

use super::{AddedMass, AddedMassError};
use crate::dynamics::body_set::BodySet;
use nalgebra::DMatrix;

/// Our coordinate names, for messages.
const COORDINATES: [&str; 6] = ["x", "y", "z", "rx", "ry", "rz"];
/// Bodies carrying at least this share of the largest body's weight in the eigenvector are
/// named in a positive-definiteness error.
const NAMED_SHARE: f64 = 0.25;

impl AddedMass {
    /// Checks that the coefficients are symmetric (within the symmetry tolerance) and that
    /// `M + A∞` restricted to the free hydrodynamic bodies is positive definite at the state
    /// of `bodies` (symmetric eigen-decomposition); the error names the smallest eigenvalue
    /// and the bodies its eigenvector lives on.
    pub fn check(&self, bodies: &BodySet) -> Result<(), AddedMassError> {
        self.check_symmetry()?;
        let mut free = Vec::new();
        for (i, h) in self.bodies.iter().enumerate() {
            let b = bodies.get(*h).ok_or_else(|| AddedMassError::UnknownBody { body: self.label(i) })?;
            if !b.is_fixed() {
                free.push((i, b));
            }
        }
        if free.is_empty() {
            return Ok(());
        }
        let a = self.matrix(bodies)?;
        let f = free.len();
        let mut k = DMatrix::zeros(6 * f, 6 * f);
        for (li, (i, b)) in free.iter().enumerate() {
            for d in 0..3 {
                k[(6 * li + d, 6 * li + d)] = b.mass();
            }
            let mut rot = k.fixed_view_mut::<3, 3>(6 * li + 3, 6 * li + 3);
            rot += b.inertia_world();
            for (lj, (j, _)) in free.iter().enumerate() {
                let mut target = k.fixed_view_mut::<6, 6>(6 * li, 6 * lj);
                target += a.fixed_view::<6, 6>(6 * i, 6 * j);
            }
        }
        let sym = (&k + k.transpose()) * 0.5;
        let eig = sym.symmetric_eigen();
        let (mut lo, mut hi) = (0, 0);
        for c in 0..eig.eigenvalues.len() {
            if eig.eigenvalues[c].is_nan() || eig.eigenvalues[c] < eig.eigenvalues[lo] {
                lo = c;
            }
            if eig.eigenvalues[c] > eig.eigenvalues[hi] {
                hi = c;
            }
        }
        let (smallest, largest) = (eig.eigenvalues[lo], eig.eigenvalues[hi]);
        if smallest > largest.abs() * f64::EPSILON * (6 * f) as f64 {
            return Ok(());
        }
        let v = eig.eigenvectors.column(lo);
        let weights: Vec<f64> = (0..f).map(|li| v.rows(6 * li, 6).norm_squared()).collect();
        let top = weights.iter().copied().fold(0.0, f64::max);
        let mut named: Vec<(f64, String)> = Vec::new();
        for (li, (i, _)) in free.iter().enumerate() {
            if weights[li] >= NAMED_SHARE * top || !top.is_finite() {
                let part = v.rows(6 * li, 6);
                let coord = part.iamax();
                named.push((weights[li], format!("{} (mostly {})", self.label(*i), COORDINATES[coord])));
            }
        }
        named.sort_by(|x, y| y.0.total_cmp(&x.0));
        Err(AddedMassError::NotPositiveDefinite {
            smallest,
            largest,
            bodies: named.into_iter().map(|(_, s)| s).collect(),
        })
    }

    /// `|A_kl − A_lk| ≤ tol · max(|A_kl|, |A_lk|, √|A_kk A_ll|)` over the whole 6N × 6N
    /// coefficient matrix (the square root keeps mixed units, kg and kg·m², comparable).
    fn check_symmetry(&self) -> Result<(), AddedMassError> {
        let a = self.coefficients();
        let tol = self.symmetry_tolerance;
        for k in 0..a.nrows() {
            for l in (k + 1)..a.ncols() {
                let (x, y) = (a[(k, l)], a[(l, k)]);
                let scale = x.abs().max(y.abs()).max((a[(k, k)] * a[(l, l)]).abs().sqrt());
                if (x - y).abs() > tol * scale {
                    return Err(AddedMassError::Asymmetric {
                        body_row: self.label(k / 6),
                        body_col: self.label(l / 6),
                        row: k,
                        col: l,
                        a: x,
                        b: y,
                        tolerance: tol,
                    });
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::body::RigidBodyBuilder;
    use nalgebra::Vector3;

    fn one_body(heave: f64) -> (BodySet, AddedMass) {
        let mut bodies = BodySet::new(Vector3::zeros());
        let h = bodies.insert(RigidBodyBuilder::dynamic(3.0, Vector3::repeat(1.0)).build().unwrap());
        let mut a = DMatrix::zeros(6, 6);
        a[(2, 2)] = heave;
        let am = AddedMass::new(vec![h], vec![a]).unwrap().with_names(vec!["float".into()]).unwrap();
        (bodies, am)
    }

    #[test]
    fn negative_heave_is_refused_with_the_smallest_eigenvalue() {
        let (bodies, ok) = one_body(5.0);
        ok.check(&bodies).unwrap();
        let (bodies, bad) = one_body(-4.0);
        match bad.check(&bodies) {
            Err(AddedMassError::NotPositiveDefinite { smallest, bodies, .. }) => {
                assert!((smallest + 1.0).abs() < 1e-12, "{smallest}");
                assert_eq!(bodies, vec!["body `float` (mostly z)".to_string()]);
            }
            other => panic!("{other:?}"),
        }
        // Exactly singular is refused too.
        let (bodies, singular) = one_body(-3.0);
        assert!(matches!(singular.check(&bodies), Err(AddedMassError::NotPositiveDefinite { .. })));
    }

    #[test]
    fn asymmetry_beyond_the_tolerance_is_refused() {
        let mut bodies = BodySet::new(Vector3::zeros());
        let h = bodies.insert(RigidBodyBuilder::dynamic(3.0, Vector3::repeat(1.0)).build().unwrap());
        let mut a = DMatrix::identity(6, 6) * 10.0;
        a[(0, 4)] = 2.0;
        a[(4, 0)] = 2.01;
        let am = AddedMass::new(vec![h], vec![a.clone()]).unwrap();
        am.check(&bodies).unwrap();
        a[(4, 0)] = 3.0;
        let am = AddedMass::new(vec![h], vec![a]).unwrap();
        assert!(matches!(am.check(&bodies), Err(AddedMassError::Asymmetric { row: 0, col: 4, .. })));
        assert!(am.clone().with_symmetry_tolerance(0.5).unwrap().check(&bodies).is_ok());
    }
}
