//! The principal logarithm of a small real matrix, for turning a discrete-time realisation
//! `x_{k+1} = A_d x_k` identified at a sample step `h` into its continuous `A = log(A_d)/h`.
//!
//! Inverse scaling and squaring: square roots (Denman–Beavers iteration) until `X` is near the
//! identity, then `log X = 2 atanh(Z)`, `Z = (X − I)(X + I)⁻¹`, by its series, times `2^k`. Exists
//! (real and principal) only when no eigenvalue lies on the closed negative real axis; the caller
//! checks the eigenvalues first, and every failure here is a `None`, never a panic.

use nalgebra::DMatrix;

/// `log(a)` for a square `a` whose eigenvalues avoid the closed negative real axis; `None` when the
/// iterations do not converge or a matrix to invert is singular.
pub(crate) fn logm(a: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let n = a.nrows();
    let id = DMatrix::<f64>::identity(n, n);
    let mut x = a.clone();
    let mut k = 0;
    while (&x - &id).norm() > 0.25 {
        if k == 60 {
            return None;
        }
        x = sqrtm(&x)?;
        k += 1;
    }
    let z = (&x - &id) * (&x + &id).try_inverse()?;
    let z2 = &z * &z;
    let mut term = z.clone();
    let mut sum = z;
    for j in 1..60 {
        term = &term * &z2;
        let add = &term / (2 * j + 1) as f64;
        sum += &add;
        if add.norm() <= 1e-17 * sum.norm() {
            break;
        }
    }
    let out = sum * (2.0 * 2f64.powi(k));
    out.iter().all(|v| v.is_finite()).then_some(out)
}

/// The principal square root by the Denman–Beavers iteration (`Y → √a`, `Z → √a⁻¹`).
fn sqrtm(a: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let n = a.nrows();
    let mut y = a.clone();
    let mut z = DMatrix::<f64>::identity(n, n);
    for _ in 0..100 {
        let yi = y.clone().try_inverse()?;
        let zi = z.clone().try_inverse()?;
        let yn = (&y + &zi) * 0.5;
        let zn = (&z + &yi) * 0.5;
        let done = (&yn - &y).norm() <= 1e-13 * yn.norm();
        y = yn;
        z = zn;
        if done {
            return Some(y);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverts_the_exponential_of_a_damped_oscillator_and_a_fast_pole() {
        // Continuous A with a lightly damped pair (−0.1 ± 2i), a slow pole and a fast one (−40):
        // log(exp(A h)) must give A back when |Im λ h| < π.
        let a = DMatrix::from_row_slice(
            4,
            4,
            &[
                -0.1, 2.0, 0.0, 0.0, //
                -2.0, -0.1, 0.3, 0.0, //
                0.0, 0.0, -0.5, 1.0, //
                0.0, 0.0, 0.0, -40.0,
            ],
        );
        let h = 0.1;
        let back = logm(&(&a * h).exp()).expect("a logarithm") / h;
        let err = (&back - &a).norm() / a.norm();
        assert!(err < 1e-10, "relative error {err:e}");
    }

    #[test]
    fn no_real_logarithm_of_a_negative_eigenvalue_is_a_none() {
        let a = DMatrix::from_row_slice(2, 2, &[-1.0, 0.0, 0.0, 0.5]);
        assert!(logm(&a).is_none());
    }
}
