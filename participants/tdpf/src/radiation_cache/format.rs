//! The cache file of one identified realisation set: a fixed layout of little-endian numbers
//! (every `f64` as its bits, so a hit gives the identification's result bit for bit), closed by
//! the SHA-256 of everything before it.
//!
//! ```text
//! magic "TLRADSS\0" · format u32 · IDENTIFY_VERSION u32 · key [32] · span f64 · dofs u32 · fits u32
//! fits × (row u32, col u32, order u32, quality f64)
//! dofs² × (order n u32, A n×n column-major f64, B n f64, C n f64, D f64)     (row-major entries)
//! SHA-256 of all of the above [32]
//! ```
//!
//! Reading trusts nothing: the digest must match, the versions and key must be this run's, the
//! DOF count the IRF's, every order at most the fit's largest, and every declared size is checked
//! against the bytes left before anything is allocated.

use nalgebra::DMatrix;
use sha2::{Digest, Sha256};
use tidelink_bemio::StateSpaceEntry;
use tidelink_tdpf_solver::radiation::{EntryFit, Identified, StateSpaceSet, IDENTIFY_VERSION};

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"TLRADSS\0";
/// Version of this layout: bump it with any change to it.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes of a key and of the closing digest.
pub const KEY_LEN: usize = 32;
/// Bytes before the fit records: magic, two versions, key, span, dofs, fit count.
const HEADER: usize = 8 + 4 + 4 + KEY_LEN + 8 + 4 + 4;
/// Bytes of one fit record.
const FIT_RECORD: usize = 4 + 4 + 4 + 8;

/// What a cache file must match to be used: the key and the shape the IRF and options allow.
#[derive(Debug, Clone, Copy)]
pub struct Expected {
    /// The key of this IRF and these options.
    pub key: [u8; KEY_LEN],
    /// The IRF's DOF count.
    pub dofs: usize,
    /// The largest order the fit may give an entry.
    pub max_order: usize,
}

impl Expected {
    /// The largest file such a set can make (saturating): larger files are refused unread.
    pub fn max_file_len(&self) -> u64 {
        let (d, m) = (self.dofs as u64, self.max_order as u64);
        let entry = 4u64.saturating_add(m.saturating_mul(m).saturating_add(2 * m + 1).saturating_mul(8));
        let entries = d.saturating_mul(d);
        (HEADER as u64 + KEY_LEN as u64)
            .saturating_add(entries.saturating_mul(FIT_RECORD as u64))
            .saturating_add(entries.saturating_mul(entry))
    }
}

/// Why a cache file was not used (it is then identified again and overwritten).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FormatError {
    /// Shorter than its own sizes say, or than a header.
    #[error("truncated (needs {needed} more bytes at byte {at})")]
    Truncated {
        /// Where the read stopped.
        at: usize,
        /// How many bytes were missing.
        needed: usize,
    },
    /// The closing digest does not match the contents.
    #[error("its checksum does not match its contents (a damaged file)")]
    Digest,
    /// Not a realisation cache file.
    #[error("not a radiation realisation cache file")]
    Magic,
    /// Written by another layout or another identification.
    #[error("written by another version (format {format}, identification {identify}; this program: {FORMAT_VERSION}, {IDENTIFY_VERSION})")]
    Version {
        /// The file's layout version.
        format: u32,
        /// The file's identification version.
        identify: u32,
    },
    /// The key inside is not the one asked for (a renamed or colliding file).
    #[error("its key is not that of this IRF and these options")]
    Key,
    /// A declared size or index the IRF and options do not allow.
    #[error("{0}")]
    Shape(String),
    /// Bytes after the last entry.
    #[error("{0} bytes after its end")]
    Trailing(usize),
}

/// The file's bytes for `id`, the set identified under `key`.
pub fn encode(key: &[u8; KEY_LEN], id: &Identified) -> Vec<u8> {
    let dofs = id.set.dofs();
    let mut out = Vec::with_capacity(HEADER + id.fits.len() * FIT_RECORD + dofs * dofs * 12 + KEY_LEN);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&IDENTIFY_VERSION.to_le_bytes());
    out.extend_from_slice(key);
    put_f64(&mut out, id.span);
    put_u32(&mut out, dofs);
    put_u32(&mut out, id.fits.len());
    for f in &id.fits {
        put_u32(&mut out, f.row);
        put_u32(&mut out, f.col);
        put_u32(&mut out, f.order);
        put_f64(&mut out, f.quality);
    }
    for r in 0..dofs {
        for c in 0..dofs {
            let e = id.set.entry(r, c).expect("a square set has every entry");
            put_u32(&mut out, e.a.nrows());
            for m in [&e.a, &e.b, &e.c] {
                for &x in m.iter() {
                    put_f64(&mut out, x);
                }
            }
            put_f64(&mut out, e.d);
        }
    }
    let digest = Sha256::digest(&out);
    out.extend_from_slice(&digest);
    out
}

/// The set in `bytes`, if they are a whole, undamaged file of this version for `expected`.
pub fn decode(bytes: &[u8], expected: &Expected) -> Result<Identified, FormatError> {
    if bytes.len() < HEADER + KEY_LEN {
        return Err(FormatError::Truncated { at: bytes.len(), needed: HEADER + KEY_LEN - bytes.len() });
    }
    let (body, digest) = bytes.split_at(bytes.len() - KEY_LEN);
    if Sha256::digest(body).as_slice() != digest {
        return Err(FormatError::Digest);
    }
    let mut r = Reader { bytes: body, at: 0 };
    if r.take(MAGIC.len())? != MAGIC {
        return Err(FormatError::Magic);
    }
    let (format, identify) = (r.u32()?, r.u32()?);
    if (format, identify) != (FORMAT_VERSION, IDENTIFY_VERSION) {
        return Err(FormatError::Version { format, identify });
    }
    if r.take(KEY_LEN)? != expected.key {
        return Err(FormatError::Key);
    }
    let span = r.f64()?;
    let dofs = r.u32()? as usize;
    if dofs != expected.dofs {
        return Err(FormatError::Shape(format!("{dofs} DOFs, the IRF has {}", expected.dofs)));
    }
    let count = r.u32()? as usize;
    if count > dofs * dofs {
        return Err(FormatError::Shape(format!("{count} fit records for {dofs}² entries")));
    }
    r.need(count * FIT_RECORD)?;
    let mut fits = Vec::with_capacity(count);
    for _ in 0..count {
        let (row, col, order, quality) = (r.u32()? as usize, r.u32()? as usize, r.u32()? as usize, r.f64()?);
        if row >= dofs || col >= dofs || order > expected.max_order {
            return Err(FormatError::Shape(format!("fit record ({row}, {col}) of order {order}")));
        }
        fits.push(EntryFit { row, col, order, quality });
    }
    let mut entries = Vec::with_capacity(dofs);
    for row in 0..dofs {
        let mut line = Vec::with_capacity(dofs);
        for col in 0..dofs {
            let n = r.u32()? as usize;
            if n > expected.max_order {
                return Err(FormatError::Shape(format!("entry ({row}, {col}) of order {n} > {}", expected.max_order)));
            }
            r.need((n * n + 2 * n + 1) * 8)?;
            let a = DMatrix::from_iterator(n, n, (0..n * n).map(|_| r.f64_unchecked()));
            let b = DMatrix::from_iterator(n, 1, (0..n).map(|_| r.f64_unchecked()));
            let c = DMatrix::from_iterator(1, n, (0..n).map(|_| r.f64_unchecked()));
            let d = r.f64_unchecked();
            if a.iter().chain(b.iter()).chain(c.iter()).any(|x| !x.is_finite()) || !d.is_finite() {
                return Err(FormatError::Shape(format!("entry ({row}, {col}) holds a non-finite number")));
            }
            line.push(StateSpaceEntry { a, b, c, d });
        }
        entries.push(line);
    }
    if r.at != body.len() {
        return Err(FormatError::Trailing(body.len() - r.at));
    }
    for f in &fits {
        if entries[f.row][f.col].a.nrows() != f.order {
            return Err(FormatError::Shape(format!(
                "fit record ({}, {}) does not match its entry's order",
                f.row, f.col
            )));
        }
    }
    if !(span > 0.0 && span.is_finite()) {
        return Err(FormatError::Shape(format!("fit span {span}")));
    }
    let set = StateSpaceSet::new(entries).map_err(|e| FormatError::Shape(e.to_string()))?;
    Ok(Identified { set, fits, span })
}

fn put_u32(out: &mut Vec<u8>, x: usize) {
    let x = u32::try_from(x).expect("sizes of a realisation set fit in 32 bits");
    out.extend_from_slice(&x.to_le_bytes());
}

fn put_f64(out: &mut Vec<u8>, x: f64) {
    out.extend_from_slice(&x.to_bits().to_le_bytes());
}

/// A cursor over the file's bytes that never reads past them.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// Fails unless `n` more bytes are there.
    fn need(&self, n: usize) -> Result<(), FormatError> {
        let left = self.bytes.len() - self.at;
        if n > left {
            Err(FormatError::Truncated { at: self.at, needed: n - left })
        } else {
            Ok(())
        }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], FormatError> {
        self.need(n)?;
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, FormatError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }

    fn f64(&mut self) -> Result<f64, FormatError> {
        Ok(f64::from_bits(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes"))))
    }

    /// An `f64` whose 8 bytes [`Reader::need`] has already found.
    fn f64_unchecked(&mut self) -> f64 {
        self.f64().expect("bytes checked by need()")
    }
}
