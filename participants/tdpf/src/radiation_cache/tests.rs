//! The cache gives the identification's realisations bit for bit, and ignores (then replaces)
//! every file it should not trust.

use super::*;
use sha2::{Digest, Sha256};
use std::fs;
use std::os::unix::fs::PermissionsExt;
use tidelink_tdpf_solver::radiation::IDENTIFY_VERSION;

/// A 3-DOF IRF with four entries that need a fit (and zero ones), quick to identify.
fn irf() -> Irf {
    tidelink_tdpf_solver::testing::three_dof_irf()
}

fn options() -> FitOptions {
    FitOptions { target: 0.9999, ..FitOptions::default() }
}

/// Every number of `id` as bits, in a fixed order.
fn bits(id: &Identified) -> Vec<u64> {
    let mut out = vec![id.span.to_bits()];
    for f in &id.fits {
        out.extend([f.row as u64, f.col as u64, f.order as u64, f.quality.to_bits()]);
    }
    for r in 0..id.set.dofs() {
        for c in 0..id.set.dofs() {
            let e = id.set.entry(r, c).expect("entry");
            out.push(e.a.nrows() as u64);
            out.extend(e.a.iter().chain(e.b.iter()).chain(e.c.iter()).map(|x| x.to_bits()));
            out.push(e.d.to_bits());
        }
    }
    out
}

fn expected(irf: &Irf, options: &FitOptions) -> Expected {
    Expected { key: key::key(irf, options), dofs: irf.dofs(), max_order: options.max_order }
}

#[test]
fn a_cache_hit_is_the_identification_bit_for_bit() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let (irf, options) = (irf(), options());
    let direct = identify(&irf, &options).expect("identified");
    assert!(direct.fits.iter().filter(|f| f.order > 0).count() >= 4, "{:?}", direct.fits);
    let cache = Cache::at(&tmp.path().join("cache"));
    let first = cache.identify(&irf, &options, "test").expect("identified, then written");
    let path = cache.file_for(&irf, &options).expect("the cache is on");
    // What the file holds, read without identifying, and what the cache answers now.
    let stored = load(&path, &expected(&irf, &options)).expect("a valid file");
    let second = cache.identify(&irf, &options, "test").expect("from the file");
    assert_eq!(bits(&first), bits(&direct));
    assert_eq!(bits(&stored), bits(&direct));
    assert_eq!(bits(&second), bits(&direct));
    let mode = |p: &Path| fs::metadata(p).expect("exists").permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o600, "the file is private");
    assert_eq!(mode(cache.dir().expect("on")), 0o700, "the folder is private");
    // Nothing but the file itself is left in the folder (the temporary file was renamed).
    assert_eq!(fs::read_dir(cache.dir().expect("on")).expect("listed").count(), 1);
}

/// The file's bytes with `edit` applied to the contents and the digest made to match again, so
/// that only the checks after the digest can refuse it.
fn resealed(bytes: &[u8], edit: impl Fn(&mut Vec<u8>)) -> Vec<u8> {
    let mut body = bytes[..bytes.len() - 32].to_vec();
    edit(&mut body);
    let digest = Sha256::digest(&body);
    body.extend_from_slice(&digest);
    body
}

#[test]
fn damaged_foreign_or_hostile_files_are_refused_and_then_replaced() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let (irf, options) = (irf(), options());
    let cache = Cache::at(tmp.path());
    let good_id = cache.identify(&irf, &options, "test").expect("identified");
    let path = cache.file_for(&irf, &options).expect("on");
    let good = fs::read(&path).expect("written");
    let exp = expected(&irf, &options);
    assert!(format::decode(&good, &exp).is_ok());
    // Offsets in the layout of format.rs: versions at 8 and 12, key at 16, dofs at 56, the fit
    // count at 60, the first fit record's order at 72.
    let u32_at = |at: usize, x: u32| move |b: &mut Vec<u8>| b[at..at + 4].copy_from_slice(&x.to_le_bytes());
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", vec![]),
        ("truncated", good[..good.len() / 2].to_vec()),
        ("a flipped bit", {
            let mut b = good.clone();
            b[good.len() / 2] ^= 1;
            b
        }),
        ("another format version", resealed(&good, u32_at(8, FORMAT_VERSION + 1))),
        ("another identification version", resealed(&good, u32_at(12, IDENTIFY_VERSION + 1))),
        ("another key", resealed(&good, |b| b[16] ^= 1)),
        ("another DOF count", resealed(&good, u32_at(56, 4))),
        ("a hostile fit count", resealed(&good, u32_at(60, u32::MAX))),
        ("a hostile order", resealed(&good, u32_at(72, u32::MAX))),
        ("trailing bytes", resealed(&good, |b| b.extend_from_slice(&[0; 8]))),
        ("a foreign file", b"not a cache file at all, but long enough to hold a header and a digest........".to_vec()),
    ];
    for (what, bytes) in cases {
        assert!(format::decode(&bytes, &exp).is_err(), "{what} was accepted");
        fs::write(&path, &bytes).expect("written");
        assert!(load(&path, &exp).is_err(), "{what} was loaded");
        let again = cache.identify(&irf, &options, "test").expect("identified again");
        assert_eq!(bits(&again), bits(&good_id), "{what}");
        assert_eq!(fs::read(&path).expect("rewritten"), good, "{what}: the file was not replaced");
    }
}

#[test]
fn a_file_larger_than_any_set_or_a_link_is_not_read() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let (irf, options) = (irf(), options());
    let exp = expected(&irf, &options);
    let path = tmp.path().join("big");
    let file = fs::File::create(&path).expect("created");
    file.set_len(exp.max_file_len() + 1).expect("sized (sparse)");
    let err = load(&path, &exp).expect_err("refused");
    assert!(err.to_string().contains("more than such a set can take"), "{err}");
    let link = tmp.path().join("link");
    std::os::unix::fs::symlink(&path, &link).expect("linked");
    assert!(load(&link, &exp).is_err(), "a link is not followed");
}

#[test]
fn an_untrusted_or_disabled_cache_still_identifies() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o777)).expect("chmod");
    let cache = Cache::at(tmp.path());
    assert!(cache.dir().is_none(), "a folder others may write is not used");
    let (irf, options) = (irf(), options());
    let direct = identify(&irf, &options).expect("identified");
    assert_eq!(bits(&cache.identify(&irf, &options, "test").expect("identified")), bits(&direct));
    assert_eq!(bits(&Cache::off().identify(&irf, &options, "test").expect("identified")), bits(&direct));
    assert_eq!(fs::read_dir(tmp.path()).expect("listed").count(), 0, "nothing written");
}
