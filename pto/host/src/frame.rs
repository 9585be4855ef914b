//! Frames: a 4-byte big-endian unsigned length, then that many bytes of UTF-8 JSON (no
//! newline). Decoding never panics: short, oversized, non-UTF-8 or non-JSON input is an error
//! that says which.

use serde_json::Value;
use std::io::{self, Read, Write};
use thiserror::Error;

/// The largest frame accepted (bytes of JSON): far above any message of the protocol, low
/// enough that a corrupt length cannot make us allocate gigabytes.
pub const MAX_FRAME: usize = 16 << 20;

/// Why a frame could not be read.
#[derive(Debug, Error)]
pub enum FrameError {
    /// The input ended inside the length prefix or the body.
    #[error("truncated frame: expected {expected} bytes of {part}, got {got}")]
    Truncated {
        /// `length prefix` or `JSON body`.
        part: &'static str,
        /// Bytes needed.
        expected: usize,
        /// Bytes there were.
        got: usize,
    },
    /// The length prefix is above [`MAX_FRAME`].
    #[error("frame length {0} exceeds the limit of {MAX_FRAME} bytes (a corrupt length prefix?)")]
    TooLong(usize),
    /// The body is not UTF-8.
    #[error("frame body is not UTF-8: {0}")]
    Utf8(#[from] std::str::Utf8Error),
    /// The body is not JSON.
    #[error("frame body is not valid JSON ({0}): {1:?}")]
    Json(serde_json::Error, String),
    /// The connection failed or timed out.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// The frame of `value`.
pub fn encode(value: &Value) -> Vec<u8> {
    let body = value.to_string().into_bytes();
    let mut out = Vec::with_capacity(4 + body.len());
    out.extend_from_slice(&(body.len() as u32).to_be_bytes());
    out.extend_from_slice(&body);
    out
}

/// Writes the frame of `value` and flushes.
pub fn write_frame(w: &mut impl Write, value: &Value) -> io::Result<()> {
    w.write_all(&encode(value))?;
    w.flush()
}

fn parse(body: &[u8]) -> Result<Value, FrameError> {
    let text = std::str::from_utf8(body)?;
    serde_json::from_str(text).map_err(|e| FrameError::Json(e, text.chars().take(200).collect()))
}

/// Decodes the first frame of `bytes`: its value and the bytes it took.
pub fn decode(bytes: &[u8]) -> Result<(Value, usize), FrameError> {
    let Some(prefix) = bytes.get(..4) else {
        return Err(FrameError::Truncated { part: "length prefix", expected: 4, got: bytes.len() });
    };
    let len = u32::from_be_bytes([prefix[0], prefix[1], prefix[2], prefix[3]]) as usize;
    if len > MAX_FRAME {
        return Err(FrameError::TooLong(len));
    }
    let Some(body) = bytes.get(4..4 + len) else {
        return Err(FrameError::Truncated { part: "JSON body", expected: len, got: bytes.len() - 4 });
    };
    Ok((parse(body)?, 4 + len))
}

/// Reads exactly `buf.len()` bytes, saying how many came before the end.
fn fill(r: &mut impl Read, buf: &mut [u8], part: &'static str) -> Result<(), FrameError> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => return Err(FrameError::Truncated { part, expected: buf.len(), got }),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// Reads one frame from a stream.
pub fn read_frame(r: &mut impl Read) -> Result<Value, FrameError> {
    let mut prefix = [0u8; 4];
    fill(r, &mut prefix, "length prefix")?;
    let len = u32::from_be_bytes(prefix) as usize;
    if len > MAX_FRAME {
        return Err(FrameError::TooLong(len));
    }
    let mut body = vec![0u8; len];
    fill(r, &mut body, "JSON body")?;
    parse(&body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trip_big_endian() {
        let v = json!({"op": "evaluate", "t": 1.5, "in": [0.25, -1.0]});
        let f = encode(&v);
        let len = f.len() - 4;
        assert_eq!(&f[..4], &(len as u32).to_be_bytes());
        assert_eq!(decode(&f).unwrap(), (v.clone(), f.len()));
        assert_eq!(read_frame(&mut &f[..]).unwrap(), v);
        // Two frames back to back: the first, then the rest.
        let two = [f.clone(), encode(&json!({"status": "ok"}))].concat();
        let (first, used) = decode(&two).unwrap();
        assert_eq!(first, v);
        assert_eq!(decode(&two[used..]).unwrap().0, json!({"status": "ok"}));
    }

    #[test]
    fn clear_errors() {
        let e = decode(&[0, 0]).unwrap_err().to_string();
        assert!(e.contains("truncated") && e.contains("length prefix"), "{e}");
        let e = decode(&[0, 0, 0, 9, b'{']).unwrap_err().to_string();
        assert!(e.contains("expected 9 bytes of JSON body, got 1"), "{e}");
        let e = decode(&[0xff, 0xff, 0xff, 0xff]).unwrap_err().to_string();
        assert!(e.contains("exceeds the limit"), "{e}");
        let e = decode(&[0, 0, 0, 2, 0xc3, 0x28]).unwrap_err().to_string();
        assert!(e.contains("not UTF-8"), "{e}");
        let e = decode(&[0, 0, 0, 3, b'{', b'x', b'}']).unwrap_err().to_string();
        assert!(e.contains("not valid JSON"), "{e}");
        let e = read_frame(&mut &[0u8, 0, 0, 5, b'['][..]).unwrap_err().to_string();
        assert!(e.contains("expected 5 bytes of JSON body, got 1"), "{e}");
    }

    /// A small deterministic generator (xorshift), so the fuzz runs are reproducible.
    struct XorShift(u64);
    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// Random bytes, valid frames cut anywhere and valid frames with bytes flipped: the
    /// decoder answers every one (a value or an error with a message), never panics, and a
    /// cut valid frame is always reported as truncated.
    #[test]
    fn fuzz_random_and_truncated_input() {
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        let valid = encode(&json!({"status": "ok", "out": [-144000.0, 1e-300], "name": "π-module"}));
        for round in 0..20_000 {
            let n = (rng.next() % 64) as usize;
            let mut bytes: Vec<u8> = match round % 3 {
                0 => (0..n).map(|_| rng.next() as u8).collect(),
                1 => valid[..(rng.next() as usize % valid.len())].to_vec(),
                _ => {
                    let mut b = valid.clone();
                    let i = rng.next() as usize % b.len();
                    b[i] = rng.next() as u8;
                    b
                }
            };
            if round % 5 == 0 && round % 3 != 1 && bytes.len() >= 4 {
                // A length prefix that claims a lot.
                bytes[0] = (rng.next() % 4) as u8;
            }
            let a = decode(&bytes);
            let b = read_frame(&mut &bytes[..]);
            match (&a, &b) {
                (Ok((va, _)), Ok(vb)) => assert_eq!(va, vb),
                (Err(ea), Err(eb)) => {
                    assert!(!ea.to_string().is_empty() && !eb.to_string().is_empty());
                }
                _ => panic!("decode and read_frame disagree on {bytes:?}: {a:?} / {b:?}"),
            }
            if round % 3 == 1 {
                assert!(matches!(a, Err(FrameError::Truncated { .. })), "{bytes:?}: {a:?}");
            }
        }
    }
}
