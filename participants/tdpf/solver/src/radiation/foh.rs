//! Exact discretisation of a SISO realisation `ẋ = A x + B u`, `y = C x + D u` for a fixed step
//! under a first-order hold (u linear across the step), by one matrix exponential.
//!
//! With `u(t_k + σ) = u_k + (u_{k+1} − u_k) σ/dt`:
//! `x_{k+1} = Φ x_k + (Γ₀ − Γ₁) u_k + Γ₁ u_{k+1}`, `Φ = e^{A dt}`, `Γ₀ = ∫_0^dt e^{Aσ} dσ B`,
//! `Γ₁ = ∫_0^dt e^{A(dt−σ)} B σ/dt dσ`. All three are blocks of `exp(M)` for the augmented
//! `M = [[A dt, B dt, 0], [0, 0, 1], [0, 0, 0]]` (state `[x, u, Δu]`): its first row block is `[Φ, Γ₀, Γ₁]`.

use super::RadiationError;
use nalgebra::DMatrix;
use tidelink_hydro_data::StateSpaceEntry;

/// One discretised entry: `x ← Φ x + g_prev u_prev + g_new u_new`, `y = c·x + d u_new`.
#[derive(Debug, Clone, PartialEq)]
pub struct FohEntry {
    /// `Φ`, row-major, `order × order`.
    pub phi: Vec<f64>,
    /// `Γ₀ − Γ₁`, the weight of the step's first input.
    pub g_prev: Vec<f64>,
    /// `Γ₁`, the weight of the step's last input.
    pub g_new: Vec<f64>,
    /// Output row `C`.
    pub c: Vec<f64>,
    /// Feedthrough `D` (0 when [`super::Feedthrough::Ignored`]).
    pub d: f64,
}

impl FohEntry {
    /// Order of the realisation (length of its state).
    pub fn order(&self) -> usize {
        self.c.len()
    }
}

/// Discretises `entry` for step `dt` (first-order hold); `(row, col)` only label errors. Fails on
/// inconsistent shapes or a non-finite exponential.
pub fn discretise_foh(entry: &StateSpaceEntry, dt: f64, row: usize, col: usize) -> Result<FohEntry, RadiationError> {
    let o = entry.a.nrows();
    let shape = |what: &str, m: &DMatrix<f64>, er: usize, ec: usize| {
        if m.nrows() == er && m.ncols() == ec {
            Ok(())
        } else {
            Err(RadiationError::Shape {
                what: format!("state-space entry ({row}, {col}) {what}"),
                rows: m.nrows(),
                cols: m.ncols(),
                expected_rows: er,
                expected_cols: ec,
            })
        }
    };
    shape("A", &entry.a, o, o)?;
    shape("B", &entry.b, o, 1)?;
    shape("C", &entry.c, 1, o)?;
    let finite = entry.a.iter().chain(entry.b.iter()).chain(entry.c.iter()).all(|x| x.is_finite());
    if !finite || !entry.d.is_finite() {
        return Err(RadiationError::NonFinite(format!("state-space entry ({row}, {col})")));
    }
    let mut m = DMatrix::zeros(o + 2, o + 2);
    m.view_mut((0, 0), (o, o)).copy_from(&(&entry.a * dt));
    m.view_mut((0, o), (o, 1)).copy_from(&(&entry.b * dt));
    m[(o, o + 1)] = 1.0;
    let e = m.exp();
    if e.iter().any(|x| !x.is_finite()) {
        return Err(RadiationError::Discretisation { row, col });
    }
    let phi = (0..o).flat_map(|i| (0..o).map(move |j| (i, j))).map(|(i, j)| e[(i, j)]).collect();
    let g0: Vec<f64> = (0..o).map(|i| e[(i, o)]).collect();
    let g_new: Vec<f64> = (0..o).map(|i| e[(i, o + 1)]).collect();
    let g_prev = g0.iter().zip(&g_new).map(|(a, b)| a - b).collect();
    Ok(FohEntry { phi, g_prev, g_new, c: entry.c.iter().copied().collect(), d: entry.d })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_order_system_matches_closed_form() {
        // A = −b: Φ = e^{−b dt}, Γ₀ = (1 − Φ)/b, Γ₁ = 1/b − (1 − Φ)/(b² dt).
        let (b, dt) = (0.7, 0.05);
        let entry = StateSpaceEntry {
            a: DMatrix::from_element(1, 1, -b),
            b: DMatrix::from_element(1, 1, 1.0),
            c: DMatrix::from_element(1, 1, 3.0),
            d: 0.0,
        };
        let foh = discretise_foh(&entry, dt, 0, 0).expect("discretised");
        let phi = (-b * dt).exp();
        let g0 = (1.0 - phi) / b;
        let g1 = 1.0 / b - (1.0 - phi) / (b * b * dt);
        assert!((foh.phi[0] - phi).abs() < 1e-14);
        assert!((foh.g_new[0] - g1).abs() < 1e-13);
        assert!((foh.g_prev[0] - (g0 - g1)).abs() < 1e-13);
        assert_eq!(foh.c, vec![3.0]);
    }

    #[test]
    fn rejects_inconsistent_shapes() {
        let entry =
            StateSpaceEntry { a: DMatrix::zeros(2, 2), b: DMatrix::zeros(1, 1), c: DMatrix::zeros(1, 2), d: 0.0 };
        assert!(matches!(discretise_foh(&entry, 0.1, 3, 4), Err(RadiationError::Shape { .. })));
    }
}
