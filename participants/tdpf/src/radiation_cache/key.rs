//! The cache key of an identification: SHA-256 of everything [`identify`] reads, in a fixed
//! byte order, with the versions of the file layout and of the identification itself.
//!
//! The key holds the IRF (DOF count, sample times, every sample's entries — the entry layout,
//! including the entries `body_to_body: false` zeroed, is part of the samples) and the fit
//! options (target, largest order, span). The step `dt` is deliberately not in it: the
//! realisation is continuous in time and discretised for the window after the cache, so a
//! changed window reuses it.
//!
//! [`identify`]: tidelink_tdpf_solver::radiation::identify

use super::format::{FORMAT_VERSION, KEY_LEN};
use sha2::{Digest, Sha256};
use tidelink_tdpf_solver::radiation::{FitOptions, Irf, IDENTIFY_VERSION};

/// What the hashed bytes start with, so that no other use of SHA-256 shares a key.
const DOMAIN: &[u8] = b"tidelink radiation realisation cache\0";

/// The key of identifying `irf` with `options`.
pub fn key(irf: &Irf, options: &FitOptions) -> [u8; KEY_LEN] {
    let samples = irf.samples();
    let mut bytes = Vec::with_capacity(128 + 8 * irf.times().len() * (1 + irf.dofs() * irf.dofs()));
    bytes.extend_from_slice(DOMAIN);
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&IDENTIFY_VERSION.to_le_bytes());
    bytes.extend_from_slice(&(irf.dofs() as u64).to_le_bytes());
    bytes.extend_from_slice(&(irf.times().len() as u64).to_le_bytes());
    for t in irf.times() {
        bytes.extend_from_slice(&t.to_bits().to_le_bytes());
    }
    // Column-major within a sample, samples in time order: one fixed order of the same numbers.
    for m in samples {
        for x in m.iter() {
            bytes.extend_from_slice(&x.to_bits().to_le_bytes());
        }
    }
    bytes.extend_from_slice(&options.target.to_bits().to_le_bytes());
    bytes.extend_from_slice(&(options.max_order as u64).to_le_bytes());
    match options.span {
        None => bytes.push(0),
        Some(s) => {
            bytes.push(1);
            bytes.extend_from_slice(&s.to_bits().to_le_bytes());
        }
    }
    Sha256::digest(&bytes).into()
}

/// The key in lower-case hexadecimal (the cache file's name).
pub fn hex(key: &[u8; KEY_LEN]) -> String {
    key.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::DMatrix;

    fn irf(scale: f64) -> Irf {
        let t: Vec<f64> = (0..=20).map(|i| i as f64 * 0.1).collect();
        let k = t
            .iter()
            .map(|&x| DMatrix::from_row_slice(2, 2, &[scale * (-x).exp(), 0.0, 0.0, (-2.0 * x).exp()]))
            .collect();
        Irf::new(t, k).expect("valid")
    }

    #[test]
    fn the_key_changes_with_every_input_and_only_with_them() {
        let o = FitOptions::default();
        let base = key(&irf(1.0), &o);
        assert_eq!(base, key(&irf(1.0), &o), "the same inputs give the same key");
        let changed = [
            key(&irf(1.0 + 1e-15), &o),
            key(&irf(1.0), &FitOptions { target: 0.9999, ..o }),
            key(&irf(1.0), &FitOptions { max_order: 23, ..o }),
            key(&irf(1.0), &FitOptions { span: Some(2.0), ..o }),
        ];
        for (i, k) in changed.iter().enumerate() {
            assert_ne!(&base, k, "change {i}");
        }
        assert_eq!(hex(&base).len(), 64);
    }
}
