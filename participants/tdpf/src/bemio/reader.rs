//! Reads a BEMIO-layout HDF5 file into [`HydroData`], undoing BEMIO's normalisation (× ρ, × ρg, × ρω).
//!
//! Layout (C order, as the `hdf5` crate sees it): per body the rows are its 6 DOFs, the columns all
//! 6·Nb DOFs of the file (or the Nh headings), and frequency or time is the LAST axis; vectors are
//! `(n, 1)` and scalars `(1, 1)`. A vector may also be `(1, n)` or `(n,)` and a scalar `()` or `(1,)`.

use super::error::{BemioError, Shape};
use super::types::{
    BodyHydro, Excitation, ExcitationIrf, HydroData, RadiationIrf, StateSpace, StateSpaceEntry, WaterDepth,
};
use hdf5::types::{FixedAscii, FixedUnicode, TypeDescriptor, VarLenAscii, VarLenUnicode};
use hdf5_metno as hdf5;
use nalgebra::{DMatrix, Matrix6, Vector3};
use std::path::{Path, PathBuf};

/// The longest fixed-length string we read in full (BEMIO names are a few bytes); longer ones are cut.
const MAX_STRING: usize = 1024;

/// Reads the whole file: simulation parameters, then `/body1`, `/body2`, … until the next group is absent.
/// Optional groups (radiation and excitation IRFs, state space, `added_mass/all`, `radiation_damping/all`)
/// become `None` / empty `Vec`; anything required that is missing or mis-shaped is a [`BemioError`].
pub fn read(path: &Path) -> Result<HydroData, BemioError> {
    let open_err = |reason: String| BemioError::Open { file: path.to_path_buf(), reason };
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => {}
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
    let bodies = (1..=nb).map(|n| read_body(&h5, n, &dims, rho, g, &omega)).collect::<Result<Vec<_>, _>>()?;

    Ok(HydroData { source: path.to_path_buf(), code, rho, g, depth, omega, headings_deg, bodies })
}

/// Checks the index association "i-th model body ↔ `/body{i+1}`": fewer file bodies than ours is an
/// error; a name mismatch is a warning (returned and logged), or an error when `strict`.
pub fn check_body_names(data: &HydroData, ours: &[&str], strict: bool) -> Result<Vec<String>, BemioError> {
    if data.bodies.len() < ours.len() {
        return Err(BemioError::TooFewBodies {
            file: data.source.clone(),
            in_file: data.bodies.len(),
            ours: ours.len(),
        });
    }
    let mut warnings = Vec::new();
    for (i, (body, name)) in data.bodies.iter().zip(ours).enumerate() {
        if body.name != *name {
            let message = format!(
                "body index {i}: model body \"{name}\" takes the coefficients of /body{} named \"{}\" in the file",
                i + 1,
                body.name
            );
            if strict {
                return Err(BemioError::NameMismatch { file: data.source.clone(), message });
            }
            log::warn!("{}: {message}", data.source.display());
            warnings.push(message);
        }
    }
    Ok(warnings)
}

/// The sizes every per-body shape is checked against.
struct Dims {
    nb: usize,
    nf: usize,
    nh: usize,
}

impl Dims {
    fn cols(&self) -> usize {
        6 * self.nb
    }
    fn coupling_note(&self) -> String {
        format!("(6 rows × 6·{} bodies)", self.nb)
    }
    fn per_frequency_note(&self) -> String {
        format!("(6 rows × 6·{} bodies × {} frequencies)", self.nb, self.nf)
    }
    fn excitation_note(&self) -> String {
        format!("(6 rows × {} headings × {} frequencies)", self.nh, self.nf)
    }
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

fn read_body(h5: &H5, n: usize, dims: &Dims, rho: f64, g: f64, omega: &[f64]) -> Result<BodyHydro, BemioError> {
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

fn read_excitation(h5: &H5, group: &str, dims: &Dims, rho_g: f64) -> Result<Excitation, BemioError> {
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

/// One open file plus its name, so that every error can say where it comes from.
struct H5<'a> {
    file: &'a hdf5::File,
    name: &'a Path,
}

impl H5<'_> {
    fn file_name(&self) -> PathBuf {
        self.name.to_path_buf()
    }

    fn invalid(&self, path: &str, reason: String) -> BemioError {
        BemioError::Invalid { file: self.file_name(), path: path.into(), reason }
    }

    fn read_err(&self, path: &str, e: hdf5::Error) -> BemioError {
        BemioError::Read { file: self.file_name(), path: path.into(), reason: e.to_string() }
    }

    /// Whether `path` (a group or a dataset) exists; a missing parent counts as absent.
    fn has(&self, path: &str) -> bool {
        let mut prefix = String::new();
        for part in path.split('/').filter(|p| !p.is_empty()) {
            prefix.push('/');
            prefix.push_str(part);
            if !self.file.link_exists(&prefix) {
                return false;
            }
        }
        true
    }

    fn dataset(&self, path: &str) -> Result<hdf5::Dataset, BemioError> {
        if !self.has(path) {
            return Err(BemioError::Missing { file: self.file_name(), path: path.into() });
        }
        self.file.dataset(path).map_err(|e| self.read_err(path, e))
    }

    fn shape(&self, path: &str) -> Result<Vec<usize>, BemioError> {
        self.dataset(path)?.get_shape().map_err(|e| self.read_err(path, e))
    }

    /// Reads `path` as doubles after checking its shape is exactly `expected`; values are not checked.
    fn array_raw(&self, path: &str, expected: &[usize], note: &str) -> Result<Vec<f64>, BemioError> {
        let ds = self.dataset(path)?;
        let found = ds.get_shape().map_err(|e| self.read_err(path, e))?;
        if found != expected {
            return Err(BemioError::Shape {
                file: self.file_name(),
                path: path.into(),
                found: Shape(found),
                expected: format!("{} {note}", Shape(expected.to_vec())),
            });
        }
        ds.read_raw::<f64>().map_err(|e| self.read_err(path, e))
    }

    /// As [`Self::array_raw`], and every value must be finite.
    fn array(&self, path: &str, expected: &[usize], note: &str) -> Result<Vec<f64>, BemioError> {
        let values = self.array_raw(path, expected, note)?;
        self.check_finite(path, &values)?;
        Ok(values)
    }

    fn optional_array(&self, path: &str, expected: &[usize], note: &str) -> Result<Option<Vec<f64>>, BemioError> {
        if self.has(path) {
            self.array(path, expected, note).map(Some)
        } else {
            Ok(None)
        }
    }

    fn check_finite(&self, path: &str, values: &[f64]) -> Result<(), BemioError> {
        match values.iter().position(|v| !v.is_finite()) {
            Some(i) => Err(self.invalid(path, format!("value {} at flat index {i} is not finite", values[i]))),
            None => Ok(()),
        }
    }

    /// A vector stored as `(n, 1)`, `(1, n)` or `(n,)`; `n` is checked when given.
    fn vector(&self, path: &str, n: Option<usize>) -> Result<Vec<f64>, BemioError> {
        let ds = self.dataset(path)?;
        let found = ds.get_shape().map_err(|e| self.read_err(path, e))?;
        let len = match found.as_slice() {
            [m] | [m, 1] | [1, m] => Some(*m),
            _ => None,
        };
        let ok = match (len, n) {
            (Some(m), Some(n)) => m == n,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if !ok {
            let expected = match n {
                Some(n) => format!("({n}, 1) (a vector of {n})"),
                None => "(n, 1) (a vector)".to_string(),
            };
            return Err(BemioError::Shape { file: self.file_name(), path: path.into(), found: Shape(found), expected });
        }
        let values = ds.read_raw::<f64>().map_err(|e| self.read_err(path, e))?;
        self.check_finite(path, &values)?;
        Ok(values)
    }

    fn vec3(&self, path: &str) -> Result<Vector3<f64>, BemioError> {
        let v = self.vector(path, Some(3))?;
        Ok(Vector3::new(v[0], v[1], v[2]))
    }

    /// A scalar stored as `(1, 1)`, `(1,)` or `()`; the value may be ±∞ or NaN.
    fn scalar_any(&self, path: &str) -> Result<f64, BemioError> {
        let ds = self.dataset(path)?;
        let found = ds.get_shape().map_err(|e| self.read_err(path, e))?;
        if found.iter().product::<usize>() != 1 {
            let expected = "(1, 1) (a scalar)".to_string();
            return Err(BemioError::Shape { file: self.file_name(), path: path.into(), found: Shape(found), expected });
        }
        let values = ds.read_raw::<f64>().map_err(|e| self.read_err(path, e))?;
        values.first().copied().ok_or_else(|| self.invalid(path, "empty".into()))
    }

    fn scalar(&self, path: &str) -> Result<f64, BemioError> {
        let v = self.scalar_any(path)?;
        self.check_finite(path, &[v])?;
        Ok(v)
    }

    fn positive_scalar(&self, path: &str) -> Result<f64, BemioError> {
        let v = self.scalar(path)?;
        if v > 0.0 {
            Ok(v)
        } else {
            Err(self.invalid(path, format!("{v} is not positive")))
        }
    }

    fn descriptor(&self, path: &str) -> Result<TypeDescriptor, BemioError> {
        let ds = self.dataset(path)?;
        ds.dtype().and_then(|t| t.to_descriptor()).map_err(|e| self.read_err(path, e))
    }

    fn is_string(&self, path: &str) -> Result<bool, BemioError> {
        Ok(matches!(
            self.descriptor(path)?,
            TypeDescriptor::FixedAscii(_)
                | TypeDescriptor::FixedUnicode(_)
                | TypeDescriptor::VarLenAscii
                | TypeDescriptor::VarLenUnicode
        ))
    }

    /// A string dataset (fixed or variable length, ASCII or UTF-8), trimmed of NULs and blanks.
    fn string(&self, path: &str) -> Result<String, BemioError> {
        let ds = self.dataset(path)?;
        let err = |e| self.read_err(path, e);
        let bytes: Option<Vec<u8>> = match self.descriptor(path)? {
            TypeDescriptor::FixedAscii(_) => {
                ds.read_raw::<FixedAscii<MAX_STRING>>().map_err(err)?.first().map(|s| s.as_bytes().to_vec())
            }
            TypeDescriptor::FixedUnicode(_) => {
                ds.read_raw::<FixedUnicode<MAX_STRING>>().map_err(err)?.first().map(|s| s.as_bytes().to_vec())
            }
            TypeDescriptor::VarLenAscii => {
                ds.read_raw::<VarLenAscii>().map_err(err)?.first().map(|s| s.as_bytes().to_vec())
            }
            TypeDescriptor::VarLenUnicode => {
                ds.read_raw::<VarLenUnicode>().map_err(err)?.first().map(|s| s.as_bytes().to_vec())
            }
            other => {
                let reason = format!("expected a string, found {other}");
                return Err(BemioError::Read { file: self.file_name(), path: path.into(), reason });
            }
        };
        let bytes = bytes.ok_or_else(|| self.invalid(path, "empty string array".into()))?;
        let text = String::from_utf8_lossy(&bytes);
        Ok(text.trim_matches(|c: char| c == '\0' || c.is_whitespace()).to_string())
    }

    fn optional_string(&self, path: &str) -> Result<Option<String>, BemioError> {
        if self.has(path) {
            self.string(path).map(Some)
        } else {
            Ok(None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hdf5::types::VarLenUnicode;

    const RHO: f64 = 1000.0;
    const G: f64 = 10.0;
    const W: [f64; 3] = [0.5, 1.0, 2.0];
    const NT: usize = 4;
    const ORDER_MAX: usize = 3;

    /// A pattern that encodes its own C-order indices, so that axis mix-ups show.
    fn pat(idx: &[usize]) -> f64 {
        idx.iter().fold(1.0, |acc, &i| acc * 10.0 + i as f64)
    }

    fn filled(shape: &[usize]) -> Vec<f64> {
        let total: usize = shape.iter().product();
        (0..total)
            .map(|mut flat| {
                let mut idx = vec![0; shape.len()];
                for (d, n) in shape.iter().enumerate().rev() {
                    idx[d] = flat % n;
                    flat /= n;
                }
                pat(&idx)
            })
            .collect()
    }

    struct Writer(hdf5::File);

    impl Writer {
        fn parents(&self, path: &str) {
            let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
            let mut prefix = String::new();
            for part in &parts[..parts.len() - 1] {
                prefix.push('/');
                prefix.push_str(part);
                if !self.0.link_exists(&prefix) {
                    self.0.create_group(&prefix).unwrap();
                }
            }
        }
        fn put(&self, path: &str, shape: &[usize], data: &[f64]) {
            if self.0.link_exists(path) {
                self.0.unlink(path).unwrap();
            }
            self.parents(path);
            let ds = self.0.new_dataset::<f64>().shape(shape.to_vec()).create(path).unwrap();
            ds.write_raw(data).unwrap();
        }
        fn put_pattern(&self, path: &str, shape: &[usize]) {
            self.put(path, shape, &filled(shape));
        }
        fn put_str(&self, path: &str, text: &str) {
            if self.0.link_exists(path) {
                self.0.unlink(path).unwrap();
            }
            self.parents(path);
            let value = FixedAscii::<16>::from_ascii(text).unwrap();
            self.0.new_dataset::<FixedAscii<16>>().shape(()).create(path).unwrap().write_scalar(&value).unwrap();
        }
        fn remove(&self, path: &str) {
            self.0.unlink(path).unwrap();
        }
    }

    /// Writes a complete two-body file (3 frequencies, 1 heading, IRFs of 4 samples, state space of
    /// order ≤ 3), lets `edit` change it, and returns its path.
    fn sample(dir: &tempfile::TempDir, edit: impl FnOnce(&Writer)) -> PathBuf {
        let path = dir.path().join("sample.h5");
        let w = Writer(hdf5::File::create(&path).unwrap());
        w.put_str("/bem_data/code", "TEST");
        w.put("/simulation_parameters/rho", &[1, 1], &[RHO]);
        w.put("/simulation_parameters/g", &[1, 1], &[G]);
        w.put_str("/simulation_parameters/water_depth", "infinite");
        w.put("/simulation_parameters/w", &[3, 1], &W);
        w.put("/simulation_parameters/wave_dir", &[1, 1], &[0.0]);
        let (c, nf) = (12, W.len());
        for n in 1..=2 {
            let p = format!("/body{n}/properties");
            w.put_str(&format!("{p}/name"), if n == 1 { "float" } else { "spar" });
            w.put(&format!("{p}/cg"), &[3, 1], &[0.0, 0.0, -(n as f64)]);
            w.put(&format!("{p}/cb"), &[3, 1], &[0.0, 0.0, -2.0 * n as f64]);
            w.put(&format!("{p}/disp_vol"), &[1, 1], &[100.0 * n as f64]);
            let h = format!("/body{n}/hydro_coeffs");
            w.put_pattern(&format!("{h}/linear_restoring_stiffness"), &[6, 6]);
            w.put_pattern(&format!("{h}/added_mass/inf_freq"), &[6, c]);
            w.put_pattern(&format!("{h}/added_mass/all"), &[6, c, nf]);
            w.put_pattern(&format!("{h}/radiation_damping/all"), &[6, c, nf]);
            let irf = format!("{h}/radiation_damping/impulse_response_fun");
            w.put(&format!("{irf}/t"), &[NT, 1], &[0.0, 0.1, 0.2, 0.3]);
            w.put_pattern(&format!("{irf}/K"), &[6, c, NT]);
            let ss = format!("{h}/radiation_damping/state_space");
            w.put_pattern(&format!("{ss}/A/all"), &[6, c, ORDER_MAX, ORDER_MAX]);
            w.put_pattern(&format!("{ss}/B/all"), &[6, c, ORDER_MAX, 1]);
            w.put_pattern(&format!("{ss}/C/all"), &[6, c, 1, ORDER_MAX]);
            w.put_pattern(&format!("{ss}/D/all"), &[6, c]);
            let orders: Vec<f64> = (0..6 * c).map(|i| (i % (ORDER_MAX + 1)) as f64).collect();
            w.put(&format!("{ss}/it"), &[6, c], &orders);
            let ex = format!("{h}/excitation");
            w.put_pattern(&format!("{ex}/re"), &[6, 1, nf]);
            w.put_pattern(&format!("{ex}/im"), &[6, 1, nf]);
            w.put(&format!("{ex}/impulse_response_fun/t"), &[3, 1], &[-1.0, 0.0, 1.0]);
            w.put_pattern(&format!("{ex}/impulse_response_fun/f"), &[6, 1, 3]);
        }
        edit(&w);
        drop(w);
        path
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1.0)
    }

    #[test]
    fn normalisation_is_undone() {
        let dir = tempfile::tempdir().unwrap();
        let data = read(&sample(&dir, |_| {})).unwrap();
        assert_eq!((data.rho, data.g, data.code.as_deref()), (RHO, G, Some("TEST")));
        assert_eq!(data.omega, W.to_vec());
        let b = &data.bodies[1];
        assert_eq!((b.name.as_str(), b.cg.z, b.cb.z, b.displaced_volume), ("spar", -2.0, -4.0, 200.0));
        assert!(close(b.hydrostatic_stiffness[(2, 3)], pat(&[2, 3]) * RHO * G));
        assert!(close(b.added_mass_inf[(2, 9)], pat(&[2, 9]) * RHO));
        assert_eq!((b.added_mass.len(), b.radiation_damping.len()), (3, 3));
        assert!(close(b.added_mass[2][(4, 11)], pat(&[4, 11, 2]) * RHO));
        assert!(close(b.radiation_damping[1][(2, 8)], pat(&[2, 8, 1]) * RHO * W[1]));
        assert!(close(b.radiation_damping[2][(2, 8)], pat(&[2, 8, 2]) * RHO * W[2]));
        let irf = b.radiation_irf.as_ref().unwrap();
        assert_eq!((irf.t.len(), irf.k.len()), (NT, NT));
        assert!(close(irf.k[3][(5, 7)], pat(&[5, 7, 3]) * RHO));
        assert!(close(b.excitation.re[2][(3, 0)], pat(&[3, 0, 2]) * RHO * G));
        assert!(close(b.excitation.im[0][(1, 0)], pat(&[1, 0, 0]) * RHO * G));
        let eirf = b.excitation.irf.as_ref().unwrap();
        assert_eq!(eirf.t, vec![-1.0, 0.0, 1.0]);
        assert!(close(eirf.f[1][(2, 0)], pat(&[2, 0, 1]) * RHO * G));
    }

    #[test]
    fn state_space_is_trimmed_to_its_order_and_scaled() {
        let dir = tempfile::tempdir().unwrap();
        let data = read(&sample(&dir, |_| {})).unwrap();
        let ss = data.bodies[0].state_space.as_ref().unwrap();
        assert_eq!((ss.entries.len(), ss.entries[0].len()), (6, 12));
        for (r, row) in ss.entries.iter().enumerate() {
            for (c, e) in row.iter().enumerate() {
                let n = (r * 12 + c) % (ORDER_MAX + 1);
                assert_eq!((e.a.shape(), e.b.shape(), e.c.shape()), ((n, n), (n, 1), (1, n)));
                assert!(close(e.d, pat(&[r, c]) * RHO));
            }
        }
        let e = &ss.entries[2][3]; // flat 27 → order 3
        assert!(close(e.a[(1, 2)], pat(&[2, 3, 1, 2])));
        assert!(close(e.b[(2, 0)], pat(&[2, 3, 2, 0])));
        assert!(close(e.c[(0, 1)], pat(&[2, 3, 0, 1]) * RHO));
    }

    #[test]
    fn infinite_depth_as_fixed_or_variable_string() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read(&sample(&dir, |_| {})).unwrap().depth, WaterDepth::Infinite);
        let path = sample(&dir, |w| {
            let p = "/simulation_parameters/water_depth";
            w.remove(p);
            let value: VarLenUnicode = "infinite".parse().unwrap();
            w.0.new_dataset::<VarLenUnicode>().shape(()).create(p).unwrap().write_scalar(&value).unwrap();
        });
        assert_eq!(read(&path).unwrap().depth, WaterDepth::Infinite);
    }

    #[test]
    fn numeric_depth() {
        let dir = tempfile::tempdir().unwrap();
        let path = sample(&dir, |w| w.put("/simulation_parameters/water_depth", &[1, 1], &[70.0]));
        assert_eq!(read(&path).unwrap().depth, WaterDepth::Finite(70.0));
        let path = sample(&dir, |w| w.put("/simulation_parameters/water_depth", &[1, 1], &[-3.0]));
        let msg = read(&path).unwrap_err().to_string();
        assert!(msg.contains("water_depth") && msg.contains("not positive"), "{msg}");
        let path = sample(&dir, |w| w.put_str("/simulation_parameters/water_depth", "shallow"));
        assert!(matches!(read(&path), Err(BemioError::Invalid { .. })));
    }

    #[test]
    fn missing_dataset_names_file_and_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = sample(&dir, |w| w.remove("/body2/hydro_coeffs/added_mass/inf_freq"));
        let err = read(&path).unwrap_err();
        assert!(matches!(err, BemioError::Missing { .. }));
        let msg = err.to_string();
        assert!(msg.contains("sample.h5") && msg.contains("/body2/hydro_coeffs/added_mass/inf_freq"), "{msg}");
        let path = sample(&dir, |w| w.remove("/simulation_parameters"));
        let msg = read(&path).unwrap_err().to_string();
        assert!(msg.contains("missing dataset /simulation_parameters/rho"), "{msg}");
    }

    #[test]
    fn wrong_shape_names_both_shapes() {
        let dir = tempfile::tempdir().unwrap();
        let path = sample(&dir, |w| w.put_pattern("/body1/hydro_coeffs/added_mass/inf_freq", &[6, 10]));
        let err = read(&path).unwrap_err();
        let msg = err.to_string();
        assert!(matches!(err, BemioError::Shape { .. }));
        assert!(msg.contains("/body1/hydro_coeffs/added_mass/inf_freq has shape (6, 10), expected (6, 12)"), "{msg}");
        assert!(msg.contains("6·2 bodies") && msg.contains("sample.h5"), "{msg}");
        let path = sample(&dir, |w| w.put_pattern("/body1/hydro_coeffs/excitation/re", &[6, 1, 2]));
        let msg = read(&path).unwrap_err().to_string();
        assert!(msg.contains("(6, 1, 2), expected (6, 1, 3)"), "{msg}");
    }

    #[test]
    fn optional_groups_may_be_absent() {
        let dir = tempfile::tempdir().unwrap();
        let path = sample(&dir, |w| {
            for n in 1..=2 {
                let h = format!("/body{n}/hydro_coeffs");
                w.remove(&format!("{h}/radiation_damping/state_space"));
                w.remove(&format!("{h}/radiation_damping/impulse_response_fun"));
                w.remove(&format!("{h}/radiation_damping/all"));
                w.remove(&format!("{h}/added_mass/all"));
                w.remove(&format!("{h}/excitation/impulse_response_fun"));
            }
            w.remove("/body1/properties/name");
            w.remove("/bem_data/code");
        });
        let data = read(&path).unwrap();
        let b = &data.bodies[0];
        assert!(b.state_space.is_none() && b.radiation_irf.is_none() && b.excitation.irf.is_none());
        assert!(b.added_mass.is_empty() && b.radiation_damping.is_empty() && data.code.is_none());
        assert_eq!(b.name, "body1");
    }

    #[test]
    fn bad_state_space_order_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let it = "/body1/hydro_coeffs/radiation_damping/state_space/it";
        let path = sample(&dir, |w| w.put(it, &[6, 12], &[4.0; 72]));
        let msg = read(&path).unwrap_err().to_string();
        assert!(msg.contains(it) && msg.contains("0..=3"), "{msg}");
    }

    #[test]
    fn missing_or_non_hdf5_file_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let absent = dir.path().join("absent.h5");
        let msg = read(&absent).unwrap_err().to_string();
        assert!(msg.contains("absent.h5"), "{msg}");
        let text = dir.path().join("text.h5");
        std::fs::write(&text, "not hdf5").unwrap();
        let err = read(&text).unwrap_err();
        assert!(matches!(err, BemioError::Open { .. }) && err.to_string().contains("text.h5"), "{err}");
    }

    #[test]
    fn body_names_are_checked_by_index() {
        let dir = tempfile::tempdir().unwrap();
        let data = read(&sample(&dir, |_| {})).unwrap();
        assert!(check_body_names(&data, &["float", "spar"], true).unwrap().is_empty());
        let warnings = check_body_names(&data, &["float", "plate"], false).unwrap();
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("plate") && warnings[0].contains("spar") && warnings[0].contains("index 1"));
        assert!(matches!(check_body_names(&data, &["float", "plate"], true), Err(BemioError::NameMismatch { .. })));
        let msg = check_body_names(&data, &["a", "b", "c"], false).unwrap_err().to_string();
        assert!(msg.contains("2 bodies") && msg.contains("needs 3"), "{msg}");
    }
}
