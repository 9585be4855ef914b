//! Standard base64 (RFC 4648, with padding), the encoding of VTK's inline binary arrays.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Appends the base64 text of `bytes` to `out`.
pub(crate) fn encode_into(bytes: &[u8], out: &mut String) {
    out.reserve(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let sextet = |k: u32| char::from(ALPHABET[((n >> (18 - 6 * k)) & 63) as usize]);
        out.push(sextet(0));
        out.push(sextet(1));
        out.push(if chunk.len() > 1 { sextet(2) } else { '=' });
        out.push(if chunk.len() > 2 { sextet(3) } else { '=' });
    }
}

/// Decodes base64 text (whitespace ignored); `None` on a character outside the alphabet or a
/// length that is not a whole number of 4-character groups.
pub(crate) fn decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut group = [0u8; 4];
    let mut filled = 0;
    let mut pad = 0;
    for c in text.bytes().filter(|c| !c.is_ascii_whitespace()) {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                pad += 1;
                0
            }
            _ => return None,
        };
        if pad > 0 && c != b'=' {
            return None; // data after padding
        }
        group[filled] = v;
        filled += 1;
        if filled == 4 {
            let n = (u32::from(group[0]) << 18)
                | (u32::from(group[1]) << 12)
                | (u32::from(group[2]) << 6)
                | u32::from(group[3]);
            let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            out.extend_from_slice(&bytes[..3 - pad.min(2)]);
            filled = 0;
        }
    }
    (filled == 0).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(bytes: &[u8]) -> String {
        let mut s = String::new();
        encode_into(bytes, &mut s);
        s
    }

    #[test]
    fn rfc_4648_test_vectors() {
        // The test vectors of RFC 4648 §10.
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(enc(plain.as_bytes()), coded);
            assert_eq!(decode(coded).unwrap(), plain.as_bytes());
        }
    }

    #[test]
    fn every_byte_value_round_trips() {
        let bytes: Vec<u8> = (0..=255u8).chain((0..=255u8).rev()).collect();
        assert_eq!(decode(&enc(&bytes)).unwrap(), bytes);
    }

    #[test]
    fn bad_text_is_refused() {
        assert!(decode("Zm9").is_none());
        assert!(decode("Zm*v").is_none());
        assert!(decode("Zg==Zg==").is_none());
    }
}
