//! The reader against small files written here: normalisation, shapes, optional groups, errors.

use hdf5::types::{FixedAscii, VarLenUnicode};
use hdf5_metno as hdf5;
use std::path::PathBuf;
use tidelink_bemio::*;

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

/// A radiation-only file (imported from WAMIT's `.1`/`.hst`, docs/hydro.md) has no excitation
/// group: read with empty coefficients, which the TDPF's wave models refuse by name; the
/// excitation's re without im is still a missing dataset.
#[test]
fn a_file_without_excitation_reads_with_empty_coefficients() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample(&dir, |w| {
        for n in 1..=2 {
            w.remove(&format!("/body{n}/hydro_coeffs/excitation"));
        }
    });
    let data = read(&path).unwrap();
    for b in &data.bodies {
        assert!(b.excitation.re.is_empty() && b.excitation.im.is_empty() && b.excitation.irf.is_none());
        assert_eq!(b.added_mass.len(), W.len(), "radiation still read");
    }
    let path = sample(&dir, |w| w.remove("/body1/hydro_coeffs/excitation/im"));
    let msg = read(&path).unwrap_err().to_string();
    assert!(msg.contains("/body1/hydro_coeffs/excitation/im"), "{msg}");
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

#[test]
fn bodies_listed_in_another_order_than_the_file_are_an_error_even_without_strict() {
    let dir = tempfile::tempdir().unwrap();
    let data = read(&sample(&dir, |_| {})).unwrap();
    let msg = check_body_names(&data, &["spar", "float"], false).unwrap_err().to_string();
    for f in ["\"spar\" (index 0) is /body2", "coefficients of /body1 (\"float\")", "file's order"] {
        assert!(msg.contains(f), "{f:?} in {msg}");
    }
}

/// A dataset declared `shape` but never written: HDF5 stores no chunk of it, so the file stays
/// small while its header claims any size.
fn declare(w: &Writer, path: &str, shape: &[usize]) {
    if w.0.link_exists(path) {
        w.0.unlink(path).unwrap();
    }
    w.parents(path);
    w.0.new_dataset::<f64>()
        .shape(shape.to_vec())
        .chunk(shape.iter().map(|&n| n.min(1024)).collect::<Vec<usize>>())
        .create(path)
        .unwrap();
}

#[test]
fn an_irf_declaring_two_billion_samples_is_refused_from_its_shape_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let t = "/body1/hydro_coeffs/radiation_damping/impulse_response_fun/t";
    let path = sample(&dir, |w| declare(w, t, &[2_000_000_000, 1]));
    assert!(std::fs::metadata(&path).unwrap().len() < 1 << 20, "the sample stays small");
    let err = read(&path).unwrap_err();
    assert!(matches!(err, BemioError::TooLarge { .. }), "{err}");
    let msg = err.to_string();
    assert!(msg.contains(&format!("{t} declares shape (2000000000, 1), 16.0 GB of values")), "{msg}");
    assert!(msg.contains("regenerate it with fewer"), "{msg}");
    // The frequencies too, the first large vector read.
    let path = sample(&dir, |w| declare(w, "/simulation_parameters/w", &[200_000_000, 1]));
    assert!(read(&path).unwrap_err().to_string().contains("/simulation_parameters/w declares shape (200000000, 1)"));
}
