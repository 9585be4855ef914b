//! A per-user cache of identified radiation realisations, so that the identification (most of a
//! TDPF's start-up) runs once per IRF and fit options, not in every check and every run.
//!
//! The solver stays free of files: it asks an [`Identifier`] for the realisations, and
//! [`Cache::identifier`] answers from a file named by the inputs' [`key`] or identifies and
//! writes one. A file is used only when whole, undamaged, of this version and for this key
//! ([`format::decode`]); anything else is identified again and overwritten. Files are written
//! to a temporary file and renamed into place (`rw-------`), so a reader never sees half of one
//! and concurrent writers of the same key leave one whole file. Whether it came from the cache
//! (and which file) or was identified (and how long that took) goes to the log.

mod dir;
mod format;
mod key;

pub use dir::{ENV, OFF};
pub use format::FORMAT_VERSION;

use format::Expected;
use std::fs::OpenOptions;
use std::io::{self, Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tidelink_tdpf_solver::radiation::{identify, FitOptions, Identified, Irf, RadiationError};

/// The cache's folder in the per-user cache root (which `tidelink hydro` shares).
pub const SUBDIR: &str = "radiation";
/// Realisation files are named by their key in hexadecimal and end with this.
const SUFFIX: &str = ".ss";
/// The largest order an identification gives (one less than its Hankel rows), whatever the
/// options ask: the bound on a file's entries.
const ORDER_CAP: usize = 149;

/// The realisation cache of this process: a checked folder, or none.
#[derive(Debug, Clone)]
pub struct Cache {
    dir: Option<PathBuf>,
}

impl Cache {
    /// The cache the environment names (`<root>/radiation`, the root from [`ENV`],
    /// `XDG_CACHE_HOME` or `HOME`), its folder created and checked; without a usable folder, a cache that identifies every time (and says why).
    pub fn from_env() -> Self {
        match dir::locate(|name| std::env::var_os(name)) {
            dir::Location::At(root) => Self::at(&root.join(SUBDIR)),
            dir::Location::Off(why) => {
                log::info!("radiation realisation cache off ({why})");
                Cache { dir: None }
            }
        }
    }

    /// The cache in `dir` (created `rwx------`), or none when it cannot be trusted.
    pub fn at(dir: &Path) -> Self {
        match dir::prepare(dir) {
            Ok(()) => Cache { dir: Some(dir.to_path_buf()) },
            Err(why) => {
                log::warn!("radiation realisation cache not used: {why}");
                Cache { dir: None }
            }
        }
    }

    /// A cache that never reads or writes (the identification every time).
    pub fn off() -> Self {
        Cache { dir: None }
    }

    /// The folder in use, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The file of the realisations of `irf` under `options`, if the cache is on.
    pub fn file_for(&self, irf: &Irf, options: &FitOptions) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(format!("{}{SUFFIX}", key::hex(&key::key(irf, options)))))
    }

    /// The realisations of `irf` under `options`: the cache file's when it holds a valid one,
    /// else identified (and written to the cache). `who` prefixes the log lines.
    pub fn identify(&self, irf: &Irf, options: &FitOptions, who: &str) -> Result<Identified, RadiationError> {
        let Some(dir) = &self.dir else {
            return timed_identify(irf, options, who, "the cache is off");
        };
        let key = key::key(irf, options);
        let path = dir.join(format!("{}{SUFFIX}", key::hex(&key)));
        let expected = Expected { key, dofs: irf.dofs(), max_order: options.max_order.min(ORDER_CAP) };
        let why = match load(&path, &expected) {
            Ok(id) => {
                log::info!("{who}: radiation realisation from the cache file {}", path.display());
                return Ok(id);
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => "not in the cache yet".to_string(),
            Err(e) => format!("the cache file {} was not used ({e})", path.display()),
        };
        let id = timed_identify(irf, options, who, &why)?;
        match store(dir, &path, &format::encode(&key, &id)) {
            Ok(()) => log::info!("{who}: radiation realisation saved to the cache file {}", path.display()),
            Err(e) => log::warn!("{who}: cannot write the cache file {}: {e}", path.display()),
        }
        Ok(id)
    }

    /// This cache as the solver's [`tidelink_tdpf_solver::hydro_model::Identifier`]; `who`
    /// prefixes the log lines.
    pub fn identifier<'a>(
        &'a self,
        who: &'a str,
    ) -> impl FnMut(&Irf, &FitOptions) -> Result<Identified, RadiationError> + 'a {
        move |irf, options| self.identify(irf, options, who)
    }
}

/// [`identify`] with its time and the reason it ran in the log.
fn timed_identify(irf: &Irf, options: &FitOptions, who: &str, why: &str) -> Result<Identified, RadiationError> {
    let start = Instant::now();
    let id = identify(irf, options);
    if id.is_ok() {
        log::info!("{who}: radiation realisation identified in {:.3} s ({why})", start.elapsed().as_secs_f64());
    }
    id
}

/// The realisations in the file at `path`, if it is a valid one for `expected`: a plain file of
/// this user (a link is not followed), no larger than such a set can be, whole and undamaged.
fn load(path: &Path, expected: &Expected) -> io::Result<Identified> {
    let file = OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW).open(path)?;
    let m = file.metadata()?;
    let refuse = |why: String| Err(io::Error::new(io::ErrorKind::InvalidData, why));
    if !m.is_file() {
        return refuse("not a plain file".into());
    }
    if m.uid() != dir::euid() {
        return refuse(format!("it belongs to uid {}", m.uid()));
    }
    let limit = expected.max_file_len();
    if m.len() > limit {
        return refuse(format!("{} bytes, more than such a set can take ({limit})", m.len()));
    }
    let mut bytes = Vec::with_capacity(m.len() as usize);
    // A file that grew since its size was read is still read no further than the limit.
    file.take(limit + 1).read_to_end(&mut bytes)?;
    format::decode(&bytes, expected).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))
}

/// Writes `bytes` to `path` in `dir` atomically: a private temporary file, renamed into place.
fn store(dir: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut tmp = tempfile::Builder::new().prefix(".tmp-").tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests;
