//! The radiation memory of the model's N bodies, built from the file's per-body 6 × 6N_file blocks:
//! only the columns of the model's bodies are kept, and with `body_to_body: false` the off-diagonal
//! body blocks are zeroed (WEC-Sim's default) before the convolution or state-space model is made.

use super::options::RadiationMethod;
use crate::radiation::{
    DirectConvolution, EntryFit, Feedthrough, FitOptions, Identified, Irf, RadiationError, RadiationModel,
    StateSpaceModel, StateSpaceSet,
};
use nalgebra::DMatrix;
use tidelink_hydro_data::{BodyHydro, StateSpaceEntry};

/// Where [`RadiationMethod::Identified`]'s realisations come from: [`crate::radiation::identify`]
/// itself, or a store of its earlier results that gives the same bits for the same IRF and
/// options (the TDPF participant's cache), so that the solver itself reads and writes no file.
pub type Identifier<'a> = &'a mut dyn FnMut(&Irf, &FitOptions) -> Result<Identified, RadiationError>;

/// One of the two interchangeable radiation models; an enum (not a trait object) so it can be cloned
/// for [`super::HydroModel::peek`].
#[derive(Debug, Clone)]
pub(crate) enum Radiation {
    Convolution(DirectConvolution),
    StateSpace(StateSpaceModel),
}

/// Which radiation model a [`super::HydroModel`] ended up with, for the participant's log.
#[derive(Debug, Clone, PartialEq)]
pub enum RadiationChoice {
    /// The convolution, as asked.
    Convolution,
    /// The file's realisations, as asked.
    FileStateSpace,
    /// Our identified realisations: every entry reached the target.
    Identified {
        /// Nonzero entries realised.
        entries: usize,
        /// Total state dimension.
        states: usize,
        /// The entry with the lowest fit quality.
        worst: EntryFit,
        /// The fit span (s).
        span: f64,
    },
    /// The identification missed its target: the convolution over the same span is used.
    Fallback {
        /// The identification's error (which entry, what quality).
        reason: RadiationError,
    },
}

impl std::fmt::Display for RadiationChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RadiationChoice::Convolution => write!(f, "convolution of the IRF"),
            RadiationChoice::FileStateSpace => write!(f, "the file's state-space realisations"),
            RadiationChoice::Identified { entries, states, worst, span } => write!(
                f,
                "state space identified from the IRF over {span} s: {entries} entries, {states} states, lowest fit \
                 quality {:.5} (entry ({}, {}), order {})",
                worst.quality, worst.row, worst.col, worst.order
            ),
            RadiationChoice::Fallback { reason } => {
                write!(f, "convolution of the IRF, because {reason}")
            }
        }
    }
}

impl Radiation {
    /// Builds the model of `bodies` (the model's N bodies, file order) for step `dt`, and says
    /// which it is; `identify` gives the realisations of [`RadiationMethod::Identified`].
    pub fn new(
        bodies: &[BodyHydro],
        dt: f64,
        method: RadiationMethod,
        body_to_body: bool,
        identify: Identifier<'_>,
    ) -> Result<(Self, RadiationChoice), RadiationError> {
        let keep = |r: usize, c: usize| body_to_body || r / 6 == c / 6;
        match method {
            RadiationMethod::Convolution { truncation, entry_tolerance } => {
                let irf = irf(bodies, &keep)?;
                let model = DirectConvolution::with_tolerance(&irf, dt, truncation, entry_tolerance)?;
                Ok((Radiation::Convolution(model), RadiationChoice::Convolution))
            }
            RadiationMethod::StateSpace { feedthrough } => {
                let set = state_space(bodies, &keep)?;
                Ok((
                    Radiation::StateSpace(StateSpaceModel::new(&set, dt, feedthrough)?),
                    RadiationChoice::FileStateSpace,
                ))
            }
            RadiationMethod::Identified { truncation, target, max_order } => {
                let irf = irf(bodies, &keep)?;
                let options = FitOptions { target, max_order, span: truncation };
                match identify(&irf, &options) {
                    Ok(id) => {
                        let model = StateSpaceModel::new(&id.set, dt, Feedthrough::Ignored)?;
                        let worst = id.worst().copied().unwrap_or(EntryFit { row: 0, col: 0, order: 0, quality: 1.0 });
                        let choice = RadiationChoice::Identified {
                            entries: id.fits.len(),
                            states: id.states(),
                            worst,
                            span: id.span,
                        };
                        Ok((Radiation::StateSpace(model), choice))
                    }
                    Err(reason @ RadiationError::FitTarget { .. }) => {
                        let model = DirectConvolution::new(&irf, dt, truncation)?;
                        Ok((Radiation::Convolution(model), RadiationChoice::Fallback { reason }))
                    }
                    Err(other) => Err(other),
                }
            }
        }
    }

    pub fn model(&self) -> &dyn RadiationModel {
        match self {
            Radiation::Convolution(m) => m,
            Radiation::StateSpace(m) => m,
        }
    }

    pub fn model_mut(&mut self) -> &mut dyn RadiationModel {
        match self {
            Radiation::Convolution(m) => m,
            Radiation::StateSpace(m) => m,
        }
    }
}

/// The 6N × 6N IRF of the model's bodies (entries not kept set to zero, so the convolution skips them).
fn irf(bodies: &[BodyHydro], keep: &dyn Fn(usize, usize) -> bool) -> Result<Irf, RadiationError> {
    let n = 6 * bodies.len();
    let irfs = bodies
        .iter()
        .enumerate()
        .map(|(i, b)| b.radiation_irf.as_ref().ok_or(RadiationError::MissingIrf(i)))
        .collect::<Result<Vec<_>, _>>()?;
    let t = irfs.first().ok_or(RadiationError::NoBodies)?.t.clone();
    let mut k = vec![DMatrix::zeros(n, n); t.len()];
    for (i, irf) in irfs.iter().enumerate() {
        if irf.t.len() != t.len() || irf.t.iter().zip(&t).any(|(a, b)| (a - b).abs() > 1e-9 * (1.0 + b.abs())) {
            return Err(RadiationError::IrfGridMismatch { body: i });
        }
        for (s, block) in irf.k.iter().enumerate().take(t.len()) {
            if block.nrows() != 6 || block.ncols() < n {
                return Err(RadiationError::Shape {
                    what: format!("body {i} IRF sample {s}"),
                    rows: block.nrows(),
                    cols: block.ncols(),
                    expected_rows: 6,
                    expected_cols: n,
                });
            }
            for r in 0..6 {
                for c in (0..n).filter(|&c| keep(6 * i + r, c)) {
                    k[s][(6 * i + r, c)] = block[(r, c)];
                }
            }
        }
    }
    Irf::new(t, k)
}

/// The realisations of the model's 6N × 6N entries (entries not kept replaced by order 0).
fn state_space(bodies: &[BodyHydro], keep: &dyn Fn(usize, usize) -> bool) -> Result<StateSpaceSet, RadiationError> {
    let n = 6 * bodies.len();
    let empty =
        || StateSpaceEntry { a: DMatrix::zeros(0, 0), b: DMatrix::zeros(0, 1), c: DMatrix::zeros(1, 0), d: 0.0 };
    let mut entries = Vec::with_capacity(n);
    for (i, b) in bodies.iter().enumerate() {
        let ss = b.state_space.as_ref().ok_or(RadiationError::MissingStateSpace(i))?;
        if ss.entries.len() != 6 {
            return Err(RadiationError::StateSpaceRows { rows: ss.entries.len(), expected: 6 });
        }
        for (r, row) in ss.entries.iter().enumerate() {
            if row.len() < n {
                return Err(RadiationError::StateSpaceCols { row: 6 * i + r, cols: row.len(), expected: n });
            }
            entries.push((0..n).map(|c| if keep(6 * i + r, c) { row[c].clone() } else { empty() }).collect());
        }
    }
    StateSpaceSet::new(entries)
}
