//! A validated view of one body's excitation data with its frequency and heading grids, so the
//! models can interpolate X(ω, β) without re-checking shapes.

use super::error::ExcitationError;
use super::grid::{is_ascending, locate, Bracket};
use nalgebra::{Complex, DMatrix, Vector6};
use tidelink_hydro_data::{Excitation, HydroData};

/// Linear interpolation stencil across headings: file columns `lo`, `hi` and weight of `hi`.
pub(crate) type HeadingBracket = Bracket;

/// One body's excitation coefficients (6 × Nh per frequency, × ρg) on the file's grids.
#[derive(Debug, Clone)]
pub struct ExcitationTable<'a> {
    omega: &'a [f64],
    /// Headings sorted ascending, with the file column each one came from.
    headings_sorted: Vec<f64>,
    columns: Vec<usize>,
    data: &'a Excitation,
}

impl<'a> ExcitationTable<'a> {
    /// Body `body` (0-based, file order) of `hydro`.
    pub fn from_hydro(hydro: &'a HydroData, body: usize) -> Result<Self, ExcitationError> {
        let b = hydro.bodies.get(body).ok_or(ExcitationError::Body { index: body, count: hydro.bodies.len() })?;
        Self::new(&hydro.omega, &hydro.headings_deg, &b.excitation)
    }

    /// From explicit grids: `omega` strictly ascending (rad/s, any spacing), `headings_deg`
    /// distinct (any order), `data.re[f]`, `data.im[f]` of shape 6 × Nh for every frequency.
    pub fn new(omega: &'a [f64], headings_deg: &[f64], data: &'a Excitation) -> Result<Self, ExcitationError> {
        if !is_ascending(omega) {
            return Err(malformed("frequencies must be finite, strictly ascending and non-empty"));
        }
        let nh = headings_deg.len();
        if data.re.is_empty() && data.im.is_empty() {
            return Err(ExcitationError::Missing);
        }
        if data.re.len() != omega.len() || data.im.len() != omega.len() {
            return Err(malformed(format!(
                "{} frequencies but {} re and {} im matrices",
                omega.len(),
                data.re.len(),
                data.im.len()
            )));
        }
        if data.re.iter().chain(&data.im).any(|m| m.nrows() != 6 || m.ncols() != nh) {
            return Err(malformed(format!("every re/im matrix must be 6 × {nh} (one column per heading)")));
        }
        let mut columns: Vec<usize> = (0..nh).collect();
        columns.sort_by(|&a, &b| headings_deg[a].total_cmp(&headings_deg[b]));
        let headings_sorted: Vec<f64> = columns.iter().map(|&c| headings_deg[c]).collect();
        if !is_ascending(&headings_sorted) {
            return Err(malformed("headings must be finite, distinct and non-empty"));
        }
        if let Some(irf) = &data.irf {
            let shapes_ok = irf.f.len() == irf.t.len() && irf.f.iter().all(|m| m.nrows() == 6 && m.ncols() == nh);
            if irf.t.len() < 2 || !is_ascending(&irf.t) || !shapes_ok {
                return Err(malformed(format!("excitation IRF needs ≥ 2 ascending times and 6 × {nh} matrices")));
            }
        }
        Ok(ExcitationTable { omega, headings_sorted, columns, data })
    }

    /// The frequency range of the data (rad/s).
    pub fn omega_range(&self) -> (f64, f64) {
        (self.omega[0], self.omega[self.omega.len() - 1])
    }

    /// The heading range of the data (degrees).
    pub fn heading_range(&self) -> (f64, f64) {
        (self.headings_sorted[0], self.headings_sorted[self.headings_sorted.len() - 1])
    }

    /// X(ω, β) for the 6 DOFs (N/m, N·m/m), linear in ω on the file grid (re and im separately)
    /// and linear in heading between the two nearest file headings.
    pub fn coefficients(&self, omega: f64, heading_deg: f64) -> Result<Vector6<Complex<f64>>, ExcitationError> {
        let (min, max) = self.omega_range();
        let f = locate(self.omega, omega).ok_or(ExcitationError::FrequencyOutOfRange { omega, min, max })?;
        let h = self.heading_bracket(heading_deg)?;
        let value = |m: &[DMatrix<f64>], dof: usize| {
            let at = |col: usize| f.mix(m[f.lo][(dof, col)], m[f.hi][(dof, col)]);
            h.mix(at(h.lo), at(h.hi))
        };
        Ok(Vector6::from_fn(|dof, _| Complex::new(value(&self.data.re, dof), value(&self.data.im, dof))))
    }

    /// The excitation IRF (× ρg, per unit amplitude) interpolated to `heading_deg`: sample times
    /// and the 6-DOF kernel at each.
    pub fn irf(&self, heading_deg: f64) -> Result<(Vec<f64>, Vec<Vector6<f64>>), ExcitationError> {
        let irf = self.data.irf.as_ref().ok_or(ExcitationError::NoIrf)?;
        let h = self.heading_bracket(heading_deg)?;
        let kernel = irf.f.iter().map(|m| Vector6::from_fn(|dof, _| h.mix(m[(dof, h.lo)], m[(dof, h.hi)]))).collect();
        Ok((irf.t.clone(), kernel))
    }

    /// Heading stencil in file columns.
    fn heading_bracket(&self, heading_deg: f64) -> Result<HeadingBracket, ExcitationError> {
        let (min, max) = self.heading_range();
        let b = locate(&self.headings_sorted, heading_deg).ok_or(ExcitationError::HeadingOutOfRange {
            heading: heading_deg,
            min,
            max,
        })?;
        Ok(Bracket { lo: self.columns[b.lo], hi: self.columns[b.hi], w: b.w })
    }
}

fn malformed(message: impl Into<String>) -> ExcitationError {
    ExcitationError::Malformed(message.into())
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{linear_x, synthetic, GRID, HEADINGS};
    use super::*;

    #[test]
    fn exact_on_non_uniform_grid_for_linear_x() {
        let data = synthetic(&GRID, &HEADINGS, linear_x);
        let table = ExcitationTable::new(&GRID, &HEADINGS, &data).unwrap();
        for omega in [0.1, 0.2, 0.785, 1.0, 3.3, 5.2] {
            for heading in [0.0, 10.0, 45.0, 90.0] {
                let x = table.coefficients(omega, heading).unwrap();
                for dof in 0..6 {
                    let expected = linear_x(dof, omega, heading);
                    assert!((x[dof] - expected).norm() <= 1e-9 * expected.norm(), "{omega} {heading} {dof}");
                }
            }
        }
    }

    #[test]
    fn a_file_without_excitation_is_refused_by_name() {
        let none = Excitation { re: Vec::new(), im: Vec::new(), irf: None };
        let e = ExcitationTable::new(&GRID, &HEADINGS, &none).unwrap_err();
        assert_eq!(e, ExcitationError::Missing);
        assert!(e.to_string().contains("NO_WAVE"), "{e}");
    }

    #[test]
    fn unsorted_headings_are_handled() {
        let headings = [90.0, 0.0, 30.0];
        let data = synthetic(&GRID, &headings, linear_x);
        let table = ExcitationTable::new(&GRID, &headings, &data).unwrap();
        let x = table.coefficients(0.5, 60.0).unwrap();
        assert!((x[2] - linear_x(2, 0.5, 60.0)).norm() < 1e-9 * x[2].norm());
        assert_eq!(table.heading_range(), (0.0, 90.0));
    }

    #[test]
    fn out_of_range_is_an_error() {
        let data = synthetic(&GRID, &HEADINGS, linear_x);
        let table = ExcitationTable::new(&GRID, &HEADINGS, &data).unwrap();
        assert_eq!(
            table.coefficients(0.05, 0.0),
            Err(ExcitationError::FrequencyOutOfRange { omega: 0.05, min: 0.1, max: 5.2 })
        );
        assert!(matches!(table.coefficients(5.3, 0.0), Err(ExcitationError::FrequencyOutOfRange { .. })));
        assert!(matches!(table.coefficients(f64::NAN, 0.0), Err(ExcitationError::FrequencyOutOfRange { .. })));
        assert!(matches!(table.coefficients(1.0, 120.0), Err(ExcitationError::HeadingOutOfRange { .. })));
        assert!(matches!(table.coefficients(1.0, -1.0), Err(ExcitationError::HeadingOutOfRange { .. })));
    }

    #[test]
    fn single_heading_file_accepts_only_that_heading() {
        let data = synthetic(&GRID, &[0.0], linear_x);
        let table = ExcitationTable::new(&GRID, &[0.0], &data).unwrap();
        assert!(table.coefficients(1.0, 0.0).is_ok());
        assert!(matches!(table.coefficients(1.0, 5.0), Err(ExcitationError::HeadingOutOfRange { .. })));
    }

    #[test]
    fn malformed_data_is_rejected() {
        let data = synthetic(&GRID, &HEADINGS, linear_x);
        assert!(ExcitationTable::new(&GRID[..4], &HEADINGS, &data).is_err());
        assert!(ExcitationTable::new(&GRID, &HEADINGS[..2], &data).is_err());
        let mut bad = GRID;
        bad.swap(1, 2);
        assert!(ExcitationTable::new(&bad, &HEADINGS, &data).is_err());
        assert!(ExcitationTable::new(&GRID, &[0.0, 0.0, 90.0], &data).is_err());
        assert!(matches!(ExcitationTable::new(&GRID, &HEADINGS, &data).unwrap().irf(0.0), Err(ExcitationError::NoIrf)));
    }
}
