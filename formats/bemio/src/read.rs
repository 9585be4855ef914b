//! Reads a BEMIO-layout HDF5 file into [`HydroData`], undoing BEMIO's normalisation (× ρ, × ρg, × ρω).
//!
//! Layout (C order, as the `hdf5` crate sees it): per body the rows are its 6 DOFs, the columns all
//! 6·Nb DOFs of the file (or the Nh headings), and frequency or time is the LAST axis; vectors are
//! `(n, 1)` and scalars `(1, 1)`. A vector may also be `(1, n)` or `(n,)` and a scalar `()` or `(1,)`.

use crate::body::read_body;
use crate::h5::H5;
use crate::BemioError;
use hdf5_metno as hdf5;
use std::path::Path;
use tidelink_hydro_data::{HydroData, WaterDepth};

/// Reads the whole file: simulation parameters, then `/body1`, `/body2`, … until the next group is absent.
/// Optional groups (radiation and excitation IRFs, state space, `added_mass/all`, `radiation_damping/all`,
/// the whole `excitation` group of a radiation-only import)
/// become `None` / empty `Vec`; anything required that is missing or mis-shaped is a [`BemioError`].
pub fn read(path: &Path) -> Result<HydroData, BemioError> {
    let open_err = |reason: String| BemioError::Open { file: path.to_path_buf(), reason };
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => {}
        Ok(meta) if meta.is_dir() => {
            return Err(open_err("it is a directory, not a file; name the .h5 file itself".into()))
        }
        Ok(_) => return Err(open_err("not a regular file".into())),
        Err(e) => return Err(open_err(e.to_string())),
    }
    let file = hdf5::File::open(path).map_err(|e| open_err(e.to_string()))?;
    let h5 = H5 { file: &file, name: path };

    let rho = h5.positive_scalar("/simulation_parameters/rho")?;
    let g = h5.positive_scalar("/simulation_parameters/g")?;
    let depth = read_depth(&h5)?;
    let omega = h5.vector("/simulation_parameters/w", None)?;
    check_ascending(&h5, "/simulation_parameters/w", &omega)?;
    let headings_deg = h5.vector("/simulation_parameters/wave_dir", None)?;
    if headings_deg.is_empty() {
        return Err(h5.invalid("/simulation_parameters/wave_dir", "no wave heading".into()));
    }
    let code = h5.optional_string("/bem_data/code")?;

    let nb = count_bodies(&file);
    if nb == 0 {
        return Err(BemioError::Missing { file: path.to_path_buf(), path: "/body1".into() });
    }
    let dims = Dims { nb, nf: omega.len(), nh: headings_deg.len() };
    missing_bodies(&h5, &dims)?;
    let bodies = (1..=nb).map(|n| read_body(&h5, n, &dims, rho, g, &omega)).collect::<Result<Vec<_>, _>>()?;

    Ok(HydroData { source: path.to_path_buf(), code, rho, g, depth, omega, headings_deg, bodies })
}

/// The sizes every per-body shape is checked against.
pub(crate) struct Dims {
    pub(crate) nb: usize,
    pub(crate) nf: usize,
    pub(crate) nh: usize,
}

impl Dims {
    pub(crate) fn cols(&self) -> usize {
        6 * self.nb
    }
    pub(crate) fn coupling_note(&self) -> String {
        format!("(6 rows × 6·{} bodies)", self.nb)
    }
    pub(crate) fn per_frequency_note(&self) -> String {
        format!("(6 rows × 6·{} bodies × {} frequencies)", self.nb, self.nf)
    }
    pub(crate) fn excitation_note(&self) -> String {
        format!("(6 rows × {} headings × {} frequencies)", self.nh, self.nf)
    }
}

/// The body-to-body matrices of `/body1` have a column block per body of the file: more blocks
/// than `/body{i}` groups means groups are missing (deleted, or a file cut down by hand), which
/// is said as such rather than as a shape mismatch.
fn missing_bodies(h5: &H5, dims: &Dims) -> Result<(), BemioError> {
    let path = "/body1/hydro_coeffs/added_mass/inf_freq";
    let Ok(shape) = h5.shape(path) else { return Ok(()) };
    let [6, cols] = shape[..] else { return Ok(()) };
    if cols % 6 != 0 || cols <= dims.cols() {
        return Ok(());
    }
    let blocks = cols / 6;
    let first_missing = dims.nb + 1;
    Err(BemioError::Invalid {
        file: h5.name.to_path_buf(),
        path: format!("/body{first_missing}"),
        reason: format!(
            "missing: the coefficients of /body1 couple {blocks} bodies ({path} has {cols} columns), but the file \
             has only /body1…/body{} (a body group was deleted?); use the complete file from the BEM solver",
            dims.nb
        ),
    })
}

fn count_bodies(file: &hdf5::File) -> usize {
    let mut n = 0;
    while file.link_exists(&format!("body{}", n + 1)) {
        n += 1;
    }
    n
}

fn read_depth(h5: &H5) -> Result<WaterDepth, BemioError> {
    let path = "/simulation_parameters/water_depth";
    if h5.is_string(path)? {
        let text = h5.string(path)?;
        return match text.to_ascii_lowercase().as_str() {
            "infinite" | "inf" | "infinity" => Ok(WaterDepth::Infinite),
            _ => Err(h5.invalid(path, format!("expected a depth in metres or \"infinite\", found \"{text}\""))),
        };
    }
    let depth = h5.scalar_any(path)?;
    if depth == f64::INFINITY {
        Ok(WaterDepth::Infinite)
    } else if depth.is_finite() && depth > 0.0 {
        Ok(WaterDepth::Finite(depth))
    } else {
        Err(h5.invalid(path, format!("depth {depth} m is not positive")))
    }
}

fn check_ascending(h5: &H5, path: &str, omega: &[f64]) -> Result<(), BemioError> {
    if omega.is_empty() {
        return Err(h5.invalid(path, "no frequency".into()));
    }
    if omega.iter().any(|w| *w < 0.0) || omega.windows(2).any(|p| p[1] <= p[0]) {
        return Err(h5.invalid(path, "frequencies are not non-negative and strictly ascending".into()));
    }
    Ok(())
}
