//! An open HDF5 file with its name: typed dataset access whose errors say which file and dataset.

use crate::{BemioError, Shape};
use hdf5::types::{FixedAscii, FixedUnicode, TypeDescriptor, VarLenAscii, VarLenUnicode};
use hdf5_metno as hdf5;
use nalgebra::Vector3;
use std::path::{Path, PathBuf};

/// The longest fixed-length string we read in full (BEMIO names are a few bytes); longer ones are cut.
const MAX_STRING: usize = 1024;

/// The most bytes one dataset may declare: 1 GiB (2²⁷ doubles). A BEMIO file's largest dataset
/// is an IRF, 6 × 6Nb × Nt values per body: 600 MB would already be a 100-body farm with 20 000
/// samples, while real files (hundreds of frequencies, a few thousand IRF samples) hold a few
/// megabytes. The shape is checked before anything is read, so a damaged or hostile header
/// cannot make the reader allocate what it declares.
pub const MAX_DATASET_BYTES: u64 = 1 << 30;

/// One open file plus its name, so that every error can say where it comes from.
pub(crate) struct H5<'a> {
    pub(crate) file: &'a hdf5::File,
    pub(crate) name: &'a Path,
}

impl H5<'_> {
    pub(crate) fn file_name(&self) -> PathBuf {
        self.name.to_path_buf()
    }

    pub(crate) fn invalid(&self, path: &str, reason: String) -> BemioError {
        BemioError::Invalid { file: self.file_name(), path: path.into(), reason }
    }

    pub(crate) fn read_err(&self, path: &str, e: hdf5::Error) -> BemioError {
        BemioError::Read { file: self.file_name(), path: path.into(), reason: e.to_string() }
    }

    /// Whether `path` (a group or a dataset) exists; a missing parent counts as absent.
    pub(crate) fn has(&self, path: &str) -> bool {
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

    pub(crate) fn dataset(&self, path: &str) -> Result<hdf5::Dataset, BemioError> {
        if !self.has(path) {
            return Err(BemioError::Missing { file: self.file_name(), path: path.into() });
        }
        self.file.dataset(path).map_err(|e| self.read_err(path, e))
    }

    pub(crate) fn shape(&self, path: &str) -> Result<Vec<usize>, BemioError> {
        self.dataset(path)?.get_shape().map_err(|e| self.read_err(path, e))
    }

    /// Reads `path` as doubles after checking its shape is exactly `expected`; values are not checked.
    pub(crate) fn array_raw(&self, path: &str, expected: &[usize], note: &str) -> Result<Vec<f64>, BemioError> {
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
        self.check_size(path, &found)?;
        ds.read_raw::<f64>().map_err(|e| self.read_err(path, e))
    }

    /// Refuses a dataset whose declared shape would take more than [`MAX_DATASET_BYTES`] as doubles.
    pub(crate) fn check_size(&self, path: &str, shape: &[usize]) -> Result<(), BemioError> {
        let bytes = shape.iter().map(|&n| n as f64).product::<f64>() * 8.0;
        if bytes > MAX_DATASET_BYTES as f64 {
            return Err(BemioError::TooLarge {
                file: self.file_name(),
                path: path.into(),
                found: Shape(shape.to_vec()),
                bytes,
            });
        }
        Ok(())
    }

    /// As [`Self::array_raw`], and every value must be finite.
    pub(crate) fn array(&self, path: &str, expected: &[usize], note: &str) -> Result<Vec<f64>, BemioError> {
        let values = self.array_raw(path, expected, note)?;
        self.check_finite(path, &values)?;
        Ok(values)
    }

    pub(crate) fn optional_array(
        &self,
        path: &str,
        expected: &[usize],
        note: &str,
    ) -> Result<Option<Vec<f64>>, BemioError> {
        if self.has(path) {
            self.array(path, expected, note).map(Some)
        } else {
            Ok(None)
        }
    }

    pub(crate) fn check_finite(&self, path: &str, values: &[f64]) -> Result<(), BemioError> {
        match values.iter().position(|v| !v.is_finite()) {
            Some(i) => Err(self.invalid(path, format!("value {} at flat index {i} is not finite", values[i]))),
            None => Ok(()),
        }
    }

    /// A vector stored as `(n, 1)`, `(1, n)` or `(n,)`; `n` is checked when given.
    pub(crate) fn vector(&self, path: &str, n: Option<usize>) -> Result<Vec<f64>, BemioError> {
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
        self.check_size(path, &found)?;
        let values = ds.read_raw::<f64>().map_err(|e| self.read_err(path, e))?;
        self.check_finite(path, &values)?;
        Ok(values)
    }

    pub(crate) fn vec3(&self, path: &str) -> Result<Vector3<f64>, BemioError> {
        let v = self.vector(path, Some(3))?;
        Ok(Vector3::new(v[0], v[1], v[2]))
    }

    /// A scalar stored as `(1, 1)`, `(1,)` or `()`; the value may be ±∞ or NaN.
    pub(crate) fn scalar_any(&self, path: &str) -> Result<f64, BemioError> {
        let ds = self.dataset(path)?;
        let found = ds.get_shape().map_err(|e| self.read_err(path, e))?;
        if found.iter().product::<usize>() != 1 {
            let expected = "(1, 1) (a scalar)".to_string();
            return Err(BemioError::Shape { file: self.file_name(), path: path.into(), found: Shape(found), expected });
        }
        let values = ds.read_raw::<f64>().map_err(|e| self.read_err(path, e))?;
        values.first().copied().ok_or_else(|| self.invalid(path, "empty".into()))
    }

    pub(crate) fn scalar(&self, path: &str) -> Result<f64, BemioError> {
        let v = self.scalar_any(path)?;
        self.check_finite(path, &[v])?;
        Ok(v)
    }

    pub(crate) fn positive_scalar(&self, path: &str) -> Result<f64, BemioError> {
        let v = self.scalar(path)?;
        if v > 0.0 {
            Ok(v)
        } else {
            Err(self.invalid(path, format!("{v} is not positive")))
        }
    }

    pub(crate) fn descriptor(&self, path: &str) -> Result<TypeDescriptor, BemioError> {
        let ds = self.dataset(path)?;
        ds.dtype().and_then(|t| t.to_descriptor()).map_err(|e| self.read_err(path, e))
    }

    pub(crate) fn is_string(&self, path: &str) -> Result<bool, BemioError> {
        Ok(matches!(
            self.descriptor(path)?,
            TypeDescriptor::FixedAscii(_)
                | TypeDescriptor::FixedUnicode(_)
                | TypeDescriptor::VarLenAscii
                | TypeDescriptor::VarLenUnicode
        ))
    }

    /// A string dataset (fixed or variable length, ASCII or UTF-8), trimmed of NULs and blanks.
    pub(crate) fn string(&self, path: &str) -> Result<String, BemioError> {
        let ds = self.dataset(path)?;
        let err = |e| self.read_err(path, e);
        // One string is read; a dataset declaring more than a few would be allocated whole.
        let shape = ds.get_shape().map_err(err)?;
        if shape.iter().product::<usize>() > 16 {
            return Err(self.invalid(path, format!("{} strings, expected one", shape.iter().product::<usize>())));
        }
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

    pub(crate) fn optional_string(&self, path: &str) -> Result<Option<String>, BemioError> {
        if self.has(path) {
            self.string(path).map(Some)
        } else {
            Ok(None)
        }
    }
}
