//! One `/body{i}` group: properties, hydrostatics, radiation, excitation and state space, in SI units.

use crate::h5::H5;
use crate::read::Dims;
use crate::{BemioError, Shape};
use nalgebra::{DMatrix, Matrix6};
use tidelink_hydro_data::{BodyHydro, Excitation, ExcitationIrf, RadiationIrf, StateSpace, StateSpaceEntry};

pub(crate) fn read_body(
    h5: &H5,
    n: usize,
    dims: &Dims,
    rho: f64,
    g: f64,
    omega: &[f64],
) -> Result<BodyHydro, BemioError> {
    let props = format!("/body{n}/properties");
    let hc = format!("/body{n}/hydro_coeffs");
    let name_path = format!("{props}/name");
    let name = match h5.optional_string(&name_path)? {
        Some(name) => name,
        None => format!("body{n}"),
    };
    let cg = h5.vec3(&format!("{props}/cg"))?;
    let cb = h5.vec3(&format!("{props}/cb"))?;
    let displaced_volume = h5.scalar(&format!("{props}/disp_vol"))?;

    let k = h5.array(&format!("{hc}/linear_restoring_stiffness"), &[6, 6], "(6 × 6)")?;
    let hydrostatic_stiffness = Matrix6::from_fn(|i, j| k[i * 6 + j] * rho * g);

    let (cols, nf) = (dims.cols(), dims.nf);
    let am = format!("{hc}/added_mass");
    let ainf = h5.array(&format!("{am}/inf_freq"), &[6, cols], &dims.coupling_note())?;
    let added_mass_inf = DMatrix::from_fn(6, cols, |i, j| ainf[i * cols + j] * rho);
    let added_mass = match h5.optional_array(&format!("{am}/all"), &[6, cols, nf], &dims.per_frequency_note())? {
        Some(raw) => slices(&raw, 6, cols, nf, |_| rho),
        None => Vec::new(),
    };
    let rd = format!("{hc}/radiation_damping");
    let radiation_damping = match h5.optional_array(&format!("{rd}/all"), &[6, cols, nf], &dims.per_frequency_note())? {
        Some(raw) => slices(&raw, 6, cols, nf, |f| rho * omega[f]),
        None => Vec::new(),
    };
    let radiation_irf = read_radiation_irf(h5, &format!("{rd}/impulse_response_fun"), dims, rho)?;
    let ss = format!("{rd}/state_space");
    let state_space = if h5.has(&ss) { Some(read_state_space(h5, &ss, dims, rho)?) } else { None };
    let excitation = read_excitation(h5, &format!("{hc}/excitation"), dims, rho * g)?;

    Ok(BodyHydro {
        name,
        cg,
        cb,
        displaced_volume,
        hydrostatic_stiffness,
        added_mass_inf,
        added_mass,
        radiation_damping,
        radiation_irf,
        state_space,
        excitation,
    })
}

fn read_radiation_irf(h5: &H5, group: &str, dims: &Dims, rho: f64) -> Result<Option<RadiationIrf>, BemioError> {
    if !h5.has(group) {
        return Ok(None);
    }
    let t = h5.vector(&format!("{group}/t"), None)?;
    let (cols, nt) = (dims.cols(), t.len());
    let note = format!("(6 rows × 6·{} bodies × {nt} samples of t)", dims.nb);
    let raw = h5.array(&format!("{group}/K"), &[6, cols, nt], &note)?;
    Ok(Some(RadiationIrf { t, k: slices(&raw, 6, cols, nt, |_| rho) }))
}

/// The excitation group; a file without one (a radiation-only import, whose `bem_data/excitation`
/// says so) gives empty coefficients, which the wave models refuse by name.
fn read_excitation(h5: &H5, group: &str, dims: &Dims, rho_g: f64) -> Result<Excitation, BemioError> {
    if !h5.has(group) {
        return Ok(Excitation { re: Vec::new(), im: Vec::new(), irf: None });
    }
    let (nh, nf) = (dims.nh, dims.nf);
    let re = h5.array(&format!("{group}/re"), &[6, nh, nf], &dims.excitation_note())?;
    let im = h5.array(&format!("{group}/im"), &[6, nh, nf], &dims.excitation_note())?;
    let irf_group = format!("{group}/impulse_response_fun");
    let irf = if h5.has(&irf_group) {
        let t = h5.vector(&format!("{irf_group}/t"), None)?;
        let nt = t.len();
        let note = format!("(6 rows × {nh} headings × {nt} samples of t)");
        let raw = h5.array(&format!("{irf_group}/f"), &[6, nh, nt], &note)?;
        Some(ExcitationIrf { t, f: slices(&raw, 6, nh, nt, |_| rho_g) })
    } else {
        None
    };
    Ok(Excitation { re: slices(&re, 6, nh, nf, |_| rho_g), im: slices(&im, 6, nh, nf, |_| rho_g), irf })
}

/// State space `A (6, C, O, O)`, `B (6, C, O, 1)`, `C (6, C, 1, O)`, `D (6, C)`, `it (6, C)`, each entry
/// trimmed to its order `it`; C and D scaled by ρ (BEMIO fits the ρ-normalised IRF).
fn read_state_space(h5: &H5, group: &str, dims: &Dims, rho: f64) -> Result<StateSpace, BemioError> {
    let cols = dims.cols();
    let a_path = format!("{group}/A/all");
    let found = h5.shape(&a_path)?;
    let order_max = match found.as_slice() {
        [6, c, o1, o2] if *c == cols && o1 == o2 => *o1,
        _ => {
            let expected = format!("(6, {cols}, O, O) (6 rows × 6·{} bodies × order × order)", dims.nb);
            return Err(BemioError::Shape { file: h5.file_name(), path: a_path, found: Shape(found), expected });
        }
    };
    let o = order_max;
    let note = |what: &str| format!("(6 rows × 6·{} bodies × {what}), order {o} from A", dims.nb);
    let a = h5.array_raw(&a_path, &[6, cols, o, o], &note("order × order"))?;
    let b = h5.array_raw(&format!("{group}/B/all"), &[6, cols, o, 1], &note("order × 1"))?;
    let c = h5.array_raw(&format!("{group}/C/all"), &[6, cols, 1, o], &note("1 × order"))?;
    let d = h5.array(&format!("{group}/D/all"), &[6, cols], &dims.coupling_note())?;
    let it_path = format!("{group}/it");
    let it = h5.array(&it_path, &[6, cols], &dims.coupling_note())?;

    let mut entries = Vec::with_capacity(6);
    for r in 0..6 {
        let mut row = Vec::with_capacity(cols);
        for col in 0..cols {
            let idx = r * cols + col;
            let order = it[idx];
            if order < 0.0 || order > o as f64 || order.fract() != 0.0 {
                let reason = format!("order {order} of entry ({r}, {col}) is not an integer in 0..={o}");
                return Err(h5.invalid(&it_path, reason));
            }
            let n = order as usize;
            let entry = StateSpaceEntry {
                a: DMatrix::from_fn(n, n, |p, q| a[(idx * o + p) * o + q]),
                b: DMatrix::from_fn(n, 1, |p, _| b[idx * o + p]),
                c: DMatrix::from_fn(1, n, |_, q| c[idx * o + q] * rho),
                d: d[idx] * rho,
            };
            let finite = entry.a.iter().chain(entry.b.iter()).chain(entry.c.iter()).all(|v| v.is_finite());
            if !finite {
                let reason = format!("entry ({r}, {col}) has non-finite A, B or C values within its order {n}");
                return Err(h5.invalid(group, reason));
            }
            row.push(entry);
        }
        entries.push(row);
    }
    Ok(StateSpace { entries })
}

/// Splits a C-order `(rows, cols, n)` array into `n` matrices, the `k`-th scaled by `scale(k)`.
fn slices(raw: &[f64], rows: usize, cols: usize, n: usize, scale: impl Fn(usize) -> f64) -> Vec<DMatrix<f64>> {
    (0..n)
        .map(|k| {
            let s = scale(k);
            DMatrix::from_fn(rows, cols, |i, j| raw[(i * cols + j) * n + k] * s)
        })
        .collect()
}
