//! Partners prove they belong to the run: a shared secret that never crosses the wire, and a
//! challenge–response over both hellos (HMAC-SHA256, a fresh random nonce from each side in its
//! hello), so nothing a connection sends can be replayed on another (docs/security.md).

use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::sync::Arc;

/// Bytes of a generated secret and of each side's nonce.
pub const SECRET_LEN: usize = 32;

/// The fewest bytes a secret read from a file may have.
pub const MIN_SECRET_LEN: usize = 16;

/// A run's shared secret. Its `Debug` never shows the bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Arc<[u8]>);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

/// `n` bytes from the operating system's random source.
pub fn random_bytes(n: usize) -> std::io::Result<Vec<u8>> {
    let mut b = vec![0u8; n];
    getrandom::fill(&mut b).map_err(|e| std::io::Error::other(format!("no random bytes from the system: {e}")))?;
    Ok(b)
}

impl Secret {
    /// A fresh secret of [`SECRET_LEN`] random bytes.
    pub fn random() -> std::io::Result<Secret> {
        Ok(Secret(random_bytes(SECRET_LEN)?.into()))
    }

    /// A secret of the given bytes (at least [`MIN_SECRET_LEN`]; `None` otherwise).
    pub fn from_bytes(bytes: &[u8]) -> Option<Secret> {
        (bytes.len() >= MIN_SECRET_LEN).then(|| Secret(bytes.into()))
    }

    /// The secret as lower-case hex (what a launcher passes its children in their environment).
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The secret of a hex text (at least [`MIN_SECRET_LEN`] bytes), or `None`.
    pub fn from_hex(text: &str) -> Option<Secret> {
        let t = text.trim().as_bytes();
        if !t.len().is_multiple_of(2) {
            return None;
        }
        let digit = |c: u8| (c as char).to_digit(16);
        let bytes: Option<Vec<u8>> = t.chunks(2).map(|p| Some((digit(p[0])? * 16 + digit(p[1])?) as u8)).collect();
        Secret::from_bytes(&bytes?)
    }

    fn mac(&self, label: &[u8], requester_hello: &[u8], listener_hello: &[u8]) -> Hmac<Sha256> {
        let mut m = <Hmac<Sha256> as Mac>::new_from_slice(&self.0).expect("HMAC takes keys of any length");
        for part in [label, requester_hello, listener_hello] {
            m.update(&(part.len() as u64).to_le_bytes());
            m.update(part);
        }
        m
    }

    /// The proof `role` sends: HMAC-SHA256 under the secret of the role's label and both
    /// encoded hellos (each carrying its sender's nonce), each part length-prefixed.
    pub fn prove(&self, role: Role, requester_hello: &[u8], listener_hello: &[u8]) -> Vec<u8> {
        self.mac(role.label(), requester_hello, listener_hello).finalize().into_bytes().to_vec()
    }

    /// Whether `proof` is what `role` holding this secret sends (compared in constant time).
    pub fn verify(&self, role: Role, requester_hello: &[u8], listener_hello: &[u8], proof: &[u8]) -> bool {
        self.mac(role.label(), requester_hello, listener_hello).verify_slice(proof).is_ok()
    }
}

/// Which side of a connection a proof comes from: the labels differ, so one side's proof is
/// never the other's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The side that connects (the XML's acceptor).
    Requester,
    /// The side that publishes and listens (the XML's connector).
    Listener,
}

impl Role {
    fn label(self) -> &'static [u8] {
        match self {
            Role::Requester => b"tidelink-m2n requester proof",
            Role::Listener => b"tidelink-m2n listener proof",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 4231, test case 2: the HMAC-SHA256 used here is the standard one.
    #[test]
    fn hmac_sha256_matches_rfc_4231() {
        let mut m = <Hmac<Sha256> as Mac>::new_from_slice(b"Jefe").unwrap();
        m.update(b"what do ya want for nothing?");
        let hex: String = m.finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    }

    #[test]
    fn proofs_bind_the_secret_the_role_and_both_hellos() {
        let s = Secret::random().unwrap();
        let other = Secret::random().unwrap();
        assert_ne!(s, other);
        let p = s.prove(Role::Requester, b"hello r", b"hello l");
        assert_eq!(p.len(), 32);
        assert!(s.verify(Role::Requester, b"hello r", b"hello l", &p));
        assert!(!other.verify(Role::Requester, b"hello r", b"hello l", &p), "another secret");
        assert!(!s.verify(Role::Listener, b"hello r", b"hello l", &p), "the other role's proof");
        assert!(!s.verify(Role::Requester, b"hello r2", b"hello l", &p), "another requester hello");
        assert!(!s.verify(Role::Requester, b"hello r", b"hello l2", &p), "another listener hello");
        // The parts are length-prefixed: moving a byte from one hello to the other changes the proof.
        assert!(!s.verify(Role::Requester, b"hello ", b"rhello l", &p));
        assert!(!s.verify(Role::Requester, b"hello r", b"hello l", &p[..31]), "a cut proof");
    }

    #[test]
    fn secrets_round_trip_as_hex_and_hide_in_debug() {
        let s = Secret::random().unwrap();
        assert_eq!(s.to_hex().len(), 64);
        assert_eq!(Secret::from_hex(&format!(" {}\n", s.to_hex())), Some(s.clone()));
        assert_eq!(format!("{s:?}"), "Secret(..)");
        for bad in ["", "abc", "zz".repeat(32).as_str(), "ab".repeat(15).as_str()] {
            assert_eq!(Secret::from_hex(bad), None, "{bad:?}");
        }
        assert!(Secret::from_bytes(&[7; 15]).is_none() && Secret::from_bytes(&[7; 16]).is_some());
    }
}
