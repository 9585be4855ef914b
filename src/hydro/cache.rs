//! Where `tidelink hydro` keeps its virtual environment and results, and the key of a result.
//!
//! The cache lives outside the repository: `$TIDELINK_CACHE_DIR`, else `$XDG_CACHE_HOME/tidelink`,
//! else `~/.cache/tidelink`. A result is keyed by a SHA-256 of everything that decides its content.

use anyhow::{bail, Result};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The cache root (not created here).
pub fn root() -> Result<PathBuf> {
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = env("TIDELINK_CACHE_DIR") {
        if dir.as_os_str() == "off" {
            // `off` turns the TDPF's realisation cache off; this tool cannot work without a folder.
            bail!(
                "TIDELINK_CACHE_DIR=off, but `tidelink hydro` needs a cache folder for its Python environment: \
                 set TIDELINK_CACHE_DIR to a folder (or unset it) for this command"
            );
        }
        return Ok(dir);
    }
    if let Some(dir) = env("XDG_CACHE_HOME") {
        return Ok(dir.join("tidelink"));
    }
    match env("HOME") {
        Some(home) => Ok(home.join(".cache").join("tidelink")),
        None => bail!("no cache directory: set TIDELINK_CACHE_DIR, XDG_CACHE_HOME or HOME"),
    }
}

/// The hex SHA-256 of `parts`, each length-prefixed so that boundaries count.
pub fn key(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The SHA-256 of a file's bytes (mesh files enter the key by content, not by path).
pub fn file_key(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    Ok(key(&[&bytes]))
}
