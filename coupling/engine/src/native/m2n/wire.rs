//! The engine's own wire format: length-prefixed frames, little-endian numbers. Byte
//! compatibility with real preCICE is not a goal (the two backends never talk).

use crate::native::mesh::Connectivity;
use std::io::{self, Write};

/// Protocol version carried in the hello frame (3: the hello carries the run identity;
/// 4: meshes carry their elements; 5: data items may carry gradients; 6: the hello carries a
/// nonce and partners prove they hold the run's secret with `Proof` frames; 7: `Transport`
/// frames choose shared memory or TCP after the proofs).
pub const PROTOCOL: u32 = 7;

/// One message between two participants.
#[derive(Debug, Clone, PartialEq)]
pub enum Frame {
    /// First frame on every connection: who we are, which configuration we run, and in which
    /// run (the launcher's identity; empty for a participant started by hand), with the sender's
    /// fresh random nonce (the challenge the other side's proof must cover).
    Hello { protocol: u32, version: String, config_hash: String, participant: String, run: String, nonce: Vec<u8> },
    /// HMAC-SHA256 under the run's secret over both hellos (`auth::Secret::prove`): the sender
    /// belongs to the run.
    Proof { mac: Vec<u8> },
    /// After the proofs, the choice of transport (`transport.rs`): the requester's offer, the
    /// listener's answer, the requester's final word. `host` identifies the machine (its boot
    /// id), `pid` the sender's process; `detail` is the listener's socket name when it offers
    /// shared memory, otherwise the reason it does not.
    Transport { shm: bool, host: String, pid: u32, detail: String },
    /// A provided mesh's vertex coordinates and the elements its receiver needs, sent to the
    /// participant that receives it.
    Mesh { name: String, coords: Vec<f64>, connectivity: Connectivity },
    /// All data of one scheme for one window (or initial data), one frame per direction.
    Data(DataFrame),
    /// The sender failed; `message` says why.
    Abort { message: String },
    /// The sender finalized cleanly; a close after this is not an error.
    Bye,
}

/// The data of one exchange step of one scheme.
#[derive(Debug, Clone, PartialEq)]
pub struct DataFrame {
    /// Index of the coupling scheme in the configuration.
    pub scheme: u32,
    /// Window counter of the sender (0 for initial data).
    pub window: u64,
    /// Window size chosen by a first-participant sender.
    pub window_size: Option<f64>,
    /// Implicit schemes, from the measuring participant: whether the window converged.
    pub converged: Option<bool>,
    /// One entry per exchanged datum, in configuration order.
    pub items: Vec<DataItem>,
}

/// Samples of one datum: a single end value, or all sub-step samples with their times.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DataItem {
    pub times: Vec<f64>,
    pub values: Vec<Vec<f64>>,
    /// The gradients of each sample (for a datum a nearest-neighbor-gradient mapping reads),
    /// one entry per sample; empty for every other datum.
    pub gradients: Vec<Vec<f64>>,
}

impl DataItem {
    /// Samples without gradients (the tests' shorthand).
    #[cfg(test)]
    pub fn new(times: Vec<f64>, values: Vec<Vec<f64>>) -> Self {
        DataItem { times, values, gradients: Vec::new() }
    }

    /// Keeps the last sample alone (with its gradients), at time `t`.
    pub fn keep_last_at(&mut self, t: f64) {
        self.times = vec![t];
        self.values = self.values.pop().into_iter().collect();
        if !self.gradients.is_empty() {
            self.gradients = self.gradients.pop().into_iter().collect();
        }
    }
}

const HELLO: u8 = 1;
const MESH: u8 = 2;
const DATA: u8 = 3;
const ABORT: u8 = 4;
const BYE: u8 = 5;
const PROOF: u8 = 6;
const TRANSPORT: u8 = 7;

/// Largest frame accepted (1 GiB) so a corrupt length cannot exhaust memory.
const MAX_FRAME: usize = 1 << 30;

struct Enc(Vec<u8>);

impl Enc {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn f64(&mut self, v: f64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    fn bytes(&mut self, b: &[u8]) {
        self.u32(b.len() as u32);
        self.0.extend_from_slice(b);
    }
    fn f64s(&mut self, v: &[f64]) {
        self.u32(v.len() as u32);
        for x in v {
            self.f64(*x);
        }
    }
    /// Elements of `N` vertex ids each, as a count and the ids (u32: meshes stay below 2^32 vertices).
    fn elements<const N: usize>(&mut self, v: &[[usize; N]]) {
        self.u32(v.len() as u32);
        for id in v.iter().flatten() {
            self.u32(*id as u32);
        }
    }
}

struct Dec<'a>(&'a [u8]);

impl Dec<'_> {
    fn take(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.0.len() < n {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "truncated frame"));
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    fn u8(&mut self) -> io::Result<u8> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> io::Result<u32> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    fn u64(&mut self) -> io::Result<u64> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    fn f64(&mut self) -> io::Result<f64> {
        Ok(f64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    fn str(&mut self) -> io::Result<String> {
        String::from_utf8(self.bytes()?).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }
    fn bytes(&mut self) -> io::Result<Vec<u8>> {
        let n = self.u32()? as usize;
        Ok(self.take(n)?.to_vec())
    }
    fn f64s(&mut self) -> io::Result<Vec<f64>> {
        let n = self.u32()? as usize;
        let bytes = self.take(n * 8)?;
        Ok(bytes.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes"))).collect())
    }
    fn elements<const N: usize>(&mut self) -> io::Result<Vec<[usize; N]>> {
        let n = self.u32()? as usize;
        // The bytes are taken (and their presence checked) before anything is allocated.
        let bytes = self.take(n * N * 4)?;
        let id = |c: &[u8]| u32::from_le_bytes(c.try_into().expect("4 bytes")) as usize;
        Ok(bytes.chunks_exact(N * 4).map(|e| std::array::from_fn(|k| id(&e[k * 4..k * 4 + 4]))).collect())
    }
}

impl Frame {
    /// Serializes with the 4-byte length prefix.
    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        self.encode_into(&mut bytes);
        bytes
    }

    /// Serializes with the 4-byte length prefix into `out` (cleared first; a sender reuses one
    /// buffer for every frame, so a window's frames allocate nothing).
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(&[0, 0, 0, 0]);
        let mut e = Enc(std::mem::take(out));
        match self {
            Frame::Hello { protocol, version, config_hash, participant, run, nonce } => {
                e.u8(HELLO);
                e.u32(*protocol);
                e.str(version);
                e.str(config_hash);
                e.str(participant);
                e.str(run);
                e.bytes(nonce);
            }
            Frame::Proof { mac } => {
                e.u8(PROOF);
                e.bytes(mac);
            }
            Frame::Transport { shm, host, pid, detail } => {
                e.u8(TRANSPORT);
                e.u8(u8::from(*shm));
                e.str(host);
                e.u32(*pid);
                e.str(detail);
            }
            Frame::Mesh { name, coords, connectivity } => {
                e.u8(MESH);
                e.str(name);
                e.f64s(coords);
                e.elements(&connectivity.edges);
                e.elements(&connectivity.triangles);
                e.elements(&connectivity.tetrahedra);
            }
            Frame::Data(d) => {
                e.u8(DATA);
                e.u32(d.scheme);
                e.u64(d.window);
                match d.window_size {
                    Some(w) => {
                        e.u8(1);
                        e.f64(w);
                    }
                    None => e.u8(0),
                }
                e.u8(match d.converged {
                    None => 0,
                    Some(true) => 1,
                    Some(false) => 2,
                });
                e.u32(d.items.len() as u32);
                for item in &d.items {
                    e.f64s(&item.times);
                    for v in &item.values {
                        e.f64s(v);
                    }
                    // Gradients, when carried: one array per sample.
                    e.u8(u8::from(!item.gradients.is_empty()));
                    for g in &item.gradients {
                        e.f64s(g);
                    }
                }
            }
            Frame::Abort { message } => {
                e.u8(ABORT);
                e.str(message);
            }
            Frame::Bye => e.u8(BYE),
        }
        let len = (e.0.len() - 4) as u32;
        e.0[..4].copy_from_slice(&len.to_le_bytes());
        *out = e.0;
    }

    /// Parses one frame body (without the length prefix).
    pub fn decode(body: &[u8]) -> io::Result<Frame> {
        let mut d = Dec(body);
        let frame = match d.u8()? {
            HELLO => {
                let (protocol, version, config_hash, participant) = (d.u32()?, d.str()?, d.str()?, d.str()?);
                // Protocol 2 hellos end here, those up to 5 after the run; the version check then
                // names the mismatch.
                let run = if d.0.is_empty() { String::new() } else { d.str()? };
                let nonce = if d.0.is_empty() { Vec::new() } else { d.bytes()? };
                Frame::Hello { protocol, version, config_hash, participant, run, nonce }
            }
            MESH => {
                let (name, coords) = (d.str()?, d.f64s()?);
                let connectivity =
                    Connectivity { edges: d.elements()?, triangles: d.elements()?, tetrahedra: d.elements()? };
                Frame::Mesh { name, coords, connectivity }
            }
            DATA => {
                let scheme = d.u32()?;
                let window = d.u64()?;
                let window_size = if d.u8()? == 1 { Some(d.f64()?) } else { None };
                let converged = match d.u8()? {
                    0 => None,
                    1 => Some(true),
                    2 => Some(false),
                    f => {
                        return Err(io::Error::new(io::ErrorKind::InvalidData, format!("unknown convergence flag {f}")))
                    }
                };
                let n = d.u32()? as usize;
                let mut items = Vec::with_capacity(n.min(1024));
                for _ in 0..n {
                    let times = d.f64s()?;
                    let values = (0..times.len()).map(|_| d.f64s()).collect::<io::Result<_>>()?;
                    let gradients = match d.u8()? {
                        0 => Vec::new(),
                        1 => (0..times.len()).map(|_| d.f64s()).collect::<io::Result<_>>()?,
                        f => {
                            return Err(io::Error::new(
                                io::ErrorKind::InvalidData,
                                format!("unknown gradient flag {f}"),
                            ))
                        }
                    };
                    items.push(DataItem { times, values, gradients });
                }
                Frame::Data(DataFrame { scheme, window, window_size, converged, items })
            }
            ABORT => Frame::Abort { message: d.str()? },
            BYE => Frame::Bye,
            PROOF => Frame::Proof { mac: d.bytes()? },
            TRANSPORT => Frame::Transport { shm: d.u8()? == 1, host: d.str()?, pid: d.u32()?, detail: d.str()? },
            t => return Err(io::Error::new(io::ErrorKind::InvalidData, format!("unknown frame type {t}"))),
        };
        Ok(frame)
    }
}

/// Reads one frame; `Ok(None)` on a clean end of stream (the tests' reader: connections read
/// through `Conn`, handshakes through `handshake::read_frame_by`).
#[cfg(test)]
pub fn read_frame(r: &mut impl std::io::Read) -> io::Result<Option<Frame>> {
    let mut len = [0u8; 4];
    match r.read_exact(&mut len) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let n = u32::from_le_bytes(len) as usize;
    if n > MAX_FRAME {
        return Err(io::Error::new(io::ErrorKind::InvalidData, format!("frame of {n} bytes is too large")));
    }
    let mut body = vec![0u8; n];
    r.read_exact(&mut body)?;
    Frame::decode(&body).map(Some)
}

/// Cuts the first complete frame off `buf`: the frame and the bytes it used, or `None`
/// while the frame is incomplete.
pub fn split_frame(buf: &[u8]) -> io::Result<Option<(Frame, usize)>> {
    if buf.len() < 4 {
        return Ok(None);
    }
    let n = u32::from_le_bytes(buf[..4].try_into().expect("4 bytes")) as usize;
    if n > MAX_FRAME {
        return Err(io::Error::new(io::ErrorKind::InvalidData, format!("frame of {n} bytes is too large")));
    }
    if buf.len() < 4 + n {
        return Ok(None);
    }
    Frame::decode(&buf[4..4 + n]).map(|f| Some((f, 4 + n)))
}

/// Writes one frame in a single `write_all`.
pub fn write_frame(w: &mut impl Write, f: &Frame) -> io::Result<()> {
    w.write_all(&f.encode())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip() {
        let frames = vec![
            Frame::Hello {
                protocol: 1,
                version: "0.1".into(),
                config_hash: "ab".into(),
                participant: "Solid".into(),
                run: "r1".into(),
                nonce: vec![7; 32],
            },
            Frame::Proof { mac: vec![1, 2, 3] },
            Frame::Transport { shm: true, host: "boot".into(), pid: 42, detail: "tidelink-m2n-ab".into() },
            Frame::Mesh { name: "M".into(), coords: vec![0.0, 1.0, 2.5], connectivity: Connectivity::default() },
            Frame::Mesh {
                name: "T".into(),
                coords: vec![0.0; 12],
                connectivity: Connectivity {
                    edges: vec![[0, 1]],
                    triangles: vec![[0, 1, 2]],
                    tetrahedra: vec![[0, 1, 2, 3]],
                },
            },
            Frame::Data(DataFrame {
                scheme: 2,
                window: 7,
                window_size: Some(0.5),
                converged: Some(false),
                items: vec![
                    DataItem::new(vec![1.0, 2.0], vec![vec![1.0], vec![f64::MIN_POSITIVE]]),
                    DataItem {
                        times: vec![0.5],
                        values: vec![vec![1.0, 2.0]],
                        gradients: vec![vec![0.1, 0.2, 0.3, 0.4, 0.5, 0.6]],
                    },
                ],
            }),
            Frame::Abort { message: "boom".into() },
            Frame::Bye,
        ];
        for f in frames {
            let bytes = f.encode();
            let back = read_frame(&mut &bytes[..]).unwrap().unwrap();
            assert_eq!(back, f);
        }
    }

    #[test]
    fn frames_are_cut_from_a_stream_buffer() {
        let a = Frame::Abort { message: "x".into() };
        let mut bytes = a.encode();
        bytes.extend(Frame::Bye.encode());
        for cut in 0..a.encode().len() {
            assert_eq!(split_frame(&bytes[..cut]).unwrap(), None, "incomplete at {cut}");
        }
        let (f, used) = split_frame(&bytes).unwrap().unwrap();
        assert_eq!(f, a);
        assert_eq!(split_frame(&bytes[used..]).unwrap(), Some((Frame::Bye, 5)));
    }

    #[test]
    fn a_hello_without_a_run_reads_as_one_without_identity() {
        let mut body = vec![HELLO];
        body.extend(2u32.to_le_bytes());
        for s in ["v", "h", "Solid"] {
            body.extend((s.len() as u32).to_le_bytes());
            body.extend(s.as_bytes());
        }
        match Frame::decode(&body).unwrap() {
            Frame::Hello { protocol: 2, run, .. } => assert_eq!(run, ""),
            f => panic!("{f:?}"),
        }
    }

    #[test]
    fn truncated_data_frames_with_gradients_are_errors_not_panics() {
        let item = DataItem { times: vec![0.5, 1.0], values: vec![vec![1.0; 2]; 2], gradients: vec![vec![2.0; 4]; 2] };
        let bytes =
            Frame::Data(DataFrame { scheme: 0, window: 1, window_size: None, converged: None, items: vec![item] })
                .encode();
        for cut in 5..bytes.len() {
            assert!(Frame::decode(&bytes[4..cut]).is_err(), "cut at {cut}");
        }
        // A count that promises more gradient values than the frame holds fails before allocating them.
        let mut body = bytes[4..].to_vec();
        let at = body.len() - 2 * (4 + 4 * 8);
        body[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Frame::decode(&body).is_err());
        // An unknown gradient flag is refused.
        let mut body = bytes[4..].to_vec();
        let flag = body.len() - 2 * (4 + 4 * 8) - 1;
        body[flag] = 7;
        assert!(Frame::decode(&body).unwrap_err().to_string().contains("unknown gradient flag 7"));
    }

    #[test]
    fn truncated_frames_are_errors_not_panics() {
        let connectivity = Connectivity { edges: vec![[0, 1]], triangles: vec![[1, 2, 3]], tetrahedra: vec![] };
        let bytes = Frame::Mesh { name: "M".into(), coords: vec![1.0; 4], connectivity }.encode();
        for cut in 5..bytes.len() {
            let mut body = bytes[4..cut].to_vec();
            body.truncate(cut - 4);
            assert!(Frame::decode(&body).is_err());
        }
    }
}
