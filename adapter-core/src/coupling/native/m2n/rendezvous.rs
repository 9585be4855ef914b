//! Rendezvous files in `<exchange-directory>/precice-run/` (docs/design/coupling-semantics.md §8.3): the listening
//! side (the XML *connector*) publishes its address atomically; the other side polls.
//! Unlike preCICE, a file left by a crashed run is recognised (its owner is dead) and
//! replaced with a warning instead of failing or hanging.

use std::io;
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;
use uuid::Uuid;

/// preCICE's namespace for connection-file names.
const NAMESPACE: Uuid =
    Uuid::from_bytes([0xaf, 0x7c, 0xe8, 0xf2, 0xa9, 0xee, 0x46, 0xcb, 0x38, 0xee, 0x71, 0xc3, 0x18, 0xaa, 0x35, 0x80]);

/// `precice-run/<listener>-<requester>/` under the exchange directory.
pub fn pair_dir(exchange_dir: &Path, listener: &str, requester: &str) -> PathBuf {
    exchange_dir.join("precice-run").join(format!("{listener}-{requester}"))
}

/// The connection file for one tag and rank: `<pair dir>/<h[0:2]>/<h[2:32]>`.
pub fn connection_file(exchange_dir: &Path, listener: &str, requester: &str, tag: &str, rank: i32) -> PathBuf {
    let name = format!("{listener}{tag}{requester}{rank}");
    let h = Uuid::new_v5(&NAMESPACE, name.as_bytes()).simple().to_string();
    pair_dir(exchange_dir, listener, requester).join(&h[0..2]).join(&h[2..32])
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname").map(|s| s.trim().to_string()).unwrap_or_default()
}

/// What a connection file says.
struct Published {
    addr: Option<SocketAddr>,
    pid: Option<u32>,
    host: Option<String>,
}

fn read_published(path: &Path) -> Option<Published> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut lines = text.lines();
    let addr = lines.next().and_then(|l| l.trim_end().parse().ok());
    let mut pid = None;
    let mut host = None;
    for l in lines {
        if let Some(rest) = l.strip_prefix("Owner: ") {
            let mut parts = rest.split_whitespace();
            pid = parts.next().and_then(|p| p.strip_prefix("pid=")).and_then(|p| p.parse().ok());
            host = parts.next().and_then(|h| h.strip_prefix("host=")).map(str::to_string);
        }
    }
    Some(Published { addr, pid, host })
}

/// True when the process that wrote the file is certainly gone.
fn owner_is_dead(p: &Published) -> bool {
    if let (Some(pid), Some(host)) = (p.pid, &p.host) {
        if *host == hostname() {
            return !Path::new(&format!("/proc/{pid}")).exists();
        }
    }
    match p.addr {
        Some(addr) => TcpStream::connect_timeout(&addr, Duration::from_millis(300))
            .is_err_and(|e| e.kind() == io::ErrorKind::ConnectionRefused),
        None => true,
    }
}

/// Publishes `addr` at `path` (write `path~`, then rename). A file whose owner is dead
/// is replaced with a warning; one whose owner is alive is an error.
pub fn publish(path: &Path, addr: SocketAddr, listener: &str, requester: &str, tag: &str) -> Result<(), String> {
    let tmp = path
        .with_file_name(format!("{}~", path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()));
    for p in [path, tmp.as_path()] {
        if p.exists() {
            match read_published(p) {
                Some(old) if !owner_is_dead(&old) => {
                    return Err(format!(
                        "Unable to establish connection as a connection file already exists at \"{}\" and the \
                         participant that wrote it is still running. Another run is using the same exchange directory: \
                         stop it, or give this run its own directory.",
                        p.display()
                    ))
                }
                _ => {
                    log::warn!(
                        "replacing the stale connection file \"{}\" left by a run that is no longer alive",
                        p.display()
                    );
                    let _ = std::fs::remove_file(p);
                }
            }
        }
    }
    let parent = path.parent().ok_or_else(|| format!("invalid connection file path {}", path.display()))?;
    std::fs::create_dir_all(parent)
        .map_err(|e| format!("cannot create the rendezvous directory \"{}\": {e}", parent.display()))?;
    let text = format!(
        "{addr}\nAcceptor: {listener}, Requester: {requester}, Tag: {tag}, Rank: -1\nOwner: pid={} host={}\n",
        std::process::id(),
        hostname()
    );
    std::fs::write(&tmp, text).map_err(|e| format!("cannot write \"{}\": {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot publish \"{}\": {e}", path.display()))?;
    Ok(())
}

/// The address in a published file, if it exists and is complete.
pub fn lookup(path: &Path) -> Option<SocketAddr> {
    read_published(path)?.addr
}

/// Removes the connection file and the pair directory once the partner is connected,
/// leaving an empty `precice-run/` as preCICE does.
pub fn unpublish(path: &Path, pair_dir: &Path) {
    if std::fs::remove_file(path).is_err() {
        log::warn!(
            "the connection file \"{}\" disappeared or could not be deleted. Make sure to delete the \"precice-run\" \
             directory before restarting the simulation.",
            path.display()
        );
    }
    let _ = std::fs::remove_dir_all(pair_dir);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_name_matches_the_uuid_v5_scheme() {
        let p = connection_file(Path::new("."), "SolverTwo", "SolverOne", "PRIMARYCOM", -1);
        assert_eq!(p, Path::new("./precice-run/SolverTwo-SolverOne/3b/0f28d9a0065c6f8af0a23dfa1ca307"));
    }

    #[test]
    fn stale_file_of_a_dead_owner_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let p = connection_file(dir.path(), "L", "C", "PRIMARYCOM", -1);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        // pid 0 never names a user process; port 1 is closed.
        std::fs::write(&p, format!("127.0.0.1:1\nx\nOwner: pid=4000000 host={}\n", hostname())).unwrap();
        let addr: SocketAddr = "127.0.0.1:5555".parse().unwrap();
        publish(&p, addr, "L", "C", "PRIMARYCOM").unwrap();
        assert_eq!(lookup(&p), Some(addr));
    }

    #[test]
    fn live_owner_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let p = connection_file(dir.path(), "L", "C", "PRIMARYCOM", -1);
        let addr: SocketAddr = "127.0.0.1:5555".parse().unwrap();
        publish(&p, addr, "L", "C", "PRIMARYCOM").unwrap();
        let e = publish(&p, addr, "L", "C", "PRIMARYCOM").unwrap_err();
        assert!(e.contains("connection file already exists"), "{e}");
    }
}
