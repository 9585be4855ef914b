//! The handshake between two sockets of this process: partners with one secret pair; a
//! stranger without it, a replayed proof, a huge length prefix and a trickle of bytes are
//! refused without stalling or allocating.

use super::*;
use std::io::Write;
use std::net::TcpListener;
use std::sync::Arc;

fn ctx(me: &str, partner: &str, secret: &Secret) -> Ctx {
    Ctx {
        me: me.into(),
        partner: partner.into(),
        hash: "h".into(),
        run: Some("r".into()),
        secret: Some(secret.clone()),
        shm: true,
    }
}

/// A connected pair: (the listener's accepted end, the requester's end).
fn pair() -> (TcpStream, TcpStream) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let c = TcpStream::connect(l.local_addr().unwrap()).unwrap();
    (l.accept().unwrap().0, c)
}

fn soon() -> Instant {
    Instant::now() + Duration::from_secs(20)
}

#[test]
fn partners_holding_the_secret_pair() {
    let secret = Secret::random().unwrap();
    let (a, b) = pair();
    let lc = ctx("L", "R", &secret);
    let listener = std::thread::spawn(move || listener_side(a, &lc, soon()));
    requester_side(&b, &ctx("R", "L", &secret), soon(), &|| false).expect("the partner");
    assert!(matches!(listener.join().unwrap(), Incoming::Partner(..)));
}

#[test]
fn a_stranger_without_the_secret_is_refused_and_told_why() {
    let (a, b) = pair();
    let lc = ctx("L", "R", &Secret::random().unwrap());
    let listener = std::thread::spawn(move || listener_side(a, &lc, soon()));
    let e = requester_side(&b, &ctx("R", "L", &Secret::random().unwrap()), soon(), &|| false).unwrap_err();
    assert!(
        e.message.contains("refused the connection") && e.message.contains("does not hold the run's secret"),
        "{e}"
    );
    match listener.join().unwrap() {
        Incoming::Refused(why) => {
            assert!(why.contains("claiming to be \"R\" (run r)") && why.contains("secret"), "{why}")
        }
        other => panic!("{other:?}"),
    }
}

/// A listener without the secret (a planted connection file): the requester stops with the
/// reason and never takes it for its partner.
#[test]
fn a_listener_without_the_secret_is_not_taken_for_the_partner() {
    let (a, b) = pair();
    let fake = std::thread::spawn(move || {
        let mut r = &a;
        let hello = wire::read_frame(&mut r).unwrap().unwrap();
        let Frame::Hello { nonce, .. } = hello else { panic!() };
        let ours = Frame::Hello {
            protocol: wire::PROTOCOL,
            version: VERSION.into(),
            config_hash: "h".into(),
            participant: "L".into(),
            run: "r".into(),
            nonce,
        };
        wire::write_frame(&mut r, &ours).unwrap();
        let _proof = wire::read_frame(&mut r).unwrap();
        wire::write_frame(&mut r, &Frame::Proof { mac: vec![0; 32] }).unwrap();
    });
    let e = requester_side(&b, &ctx("R", "L", &Secret::random().unwrap()), soon(), &|| false).unwrap_err();
    assert!(e.message.contains("could not prove that it belongs to this run"), "{e}");
    fake.join().unwrap();
}

/// A proof seen on one connection is worth nothing on the next: the listener's nonce differs.
#[test]
fn a_replayed_proof_is_refused() {
    let secret = Secret::random().unwrap();
    // Record a real requester's hello and proof.
    let (a, b) = pair();
    let lc = ctx("L", "R", &secret);
    let listener = std::thread::spawn(move || listener_side(a, &lc, soon()));
    let rc = ctx("R", "L", &secret);
    let hello = rc.hello().unwrap();
    let mut w = &b;
    wire::write_frame(&mut w, &hello).unwrap();
    let Some(theirs @ Frame::Hello { .. }) = wire::read_frame(&mut w).unwrap() else { panic!() };
    let proof = Frame::Proof { mac: secret.prove(Role::Requester, &hello.encode(), &theirs.encode()) };
    wire::write_frame(&mut w, &proof).unwrap();
    // After the proofs, the choice of transport: this requester keeps TCP.
    let tcp = Frame::Transport { shm: false, host: String::new(), pid: 0, detail: String::new() };
    wire::write_frame(&mut w, &tcp).unwrap();
    assert!(matches!(listener.join().unwrap(), Incoming::Partner(..)));
    // Replay both frames to a fresh listener.
    let (a, b) = pair();
    let lc = ctx("L", "R", &secret);
    let listener = std::thread::spawn(move || listener_side(a, &lc, soon()));
    let mut w = &b;
    wire::write_frame(&mut w, &hello).unwrap();
    let _ = wire::read_frame(&mut w).unwrap();
    wire::write_frame(&mut w, &proof).unwrap();
    assert!(matches!(listener.join().unwrap(), Incoming::Refused(why) if why.contains("secret")));
}

/// A 1 GiB length prefix is refused at once: nothing is allocated for it, nothing waits for it.
#[test]
fn a_huge_length_prefix_is_refused_before_allocating() {
    let (a, b) = pair();
    (&b).write_all(&(1u32 << 30).to_le_bytes()).unwrap();
    let started = Instant::now();
    match listener_side(a, &ctx("L", "R", &Secret::random().unwrap()), soon()) {
        Incoming::Refused(why) => assert!(why.contains("1073741824 bytes") && why.contains("4096"), "{why}"),
        other => panic!("{other:?}"),
    }
    // Generous: the refusal comes from the prefix alone, the deadline is 20 s away.
    assert!(started.elapsed() < Duration::from_secs(10));
}

/// A connection that trickles bytes (one every 50 ms, never a whole frame) is refused at its
/// own deadline: each byte does not extend it.
#[test]
fn a_trickle_of_bytes_does_not_extend_the_deadline() {
    let (a, b) = pair();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let s2 = stop.clone();
    let trickle = std::thread::spawn(move || {
        let _ = (&b).write_all(&100u32.to_le_bytes());
        while !s2.load(std::sync::atomic::Ordering::Relaxed) {
            if (&b).write_all(&[1]).is_err() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    });
    let by = Instant::now() + Duration::from_millis(500);
    match listener_side(a, &ctx("L", "R", &Secret::random().unwrap()), by) {
        Incoming::Refused(why) => assert!(why.contains("in time"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert!(Instant::now() >= by);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    trickle.join().unwrap();
}

#[test]
fn a_connection_closed_without_a_word_is_a_probe() {
    let (a, b) = pair();
    drop(b);
    assert!(matches!(listener_side(a, &ctx("L", "R", &Secret::random().unwrap()), soon()), Incoming::Probe));
}

/// A partner of another version reads ours from our hello; the listener only refuses it.
#[test]
fn another_protocol_version_is_named() {
    let (a, b) = pair();
    let lc = ctx("L", "R", &Secret::random().unwrap());
    let listener = std::thread::spawn(move || listener_side(a, &lc, soon()));
    let old = Frame::Hello {
        protocol: 5,
        version: "tidelink-native-0.0.1".into(),
        config_hash: "h".into(),
        participant: "R".into(),
        run: "r".into(),
        nonce: Vec::new(),
    };
    let mut w = &b;
    wire::write_frame(&mut w, &old).unwrap();
    assert!(matches!(wire::read_frame(&mut w).unwrap(), Some(Frame::Hello { protocol: wire::PROTOCOL, .. })));
    match listener.join().unwrap() {
        Incoming::Refused(why) => assert!(why.contains("tidelink-native-0.0.1 (protocol 5)"), "{why}"),
        other => panic!("{other:?}"),
    }
}

/// Authenticated but with another configuration: a real error, on both sides.
#[test]
fn an_authenticated_partner_with_another_configuration_is_an_error() {
    let secret = Secret::random().unwrap();
    let (a, b) = pair();
    let lc = ctx("L", "R", &secret);
    let listener = std::thread::spawn(move || listener_side(a, &lc, soon()));
    let rc = Ctx { hash: "other".into(), ..ctx("R", "L", &secret) };
    let e = requester_side(&b, &rc, soon(), &|| false).unwrap_err();
    assert!(e.message.contains("Hashes differ"), "{e}");
    match listener.join().unwrap() {
        Incoming::Failed(e) => assert!(e.message.contains("Hashes differ"), "{e}"),
        other => panic!("{other:?}"),
    }
}

#[test]
#[cfg(target_os = "linux")]
fn partners_on_one_machine_exchange_through_shared_memory() {
    let secret = Secret::random().unwrap();
    let (a, b) = pair();
    let lc = ctx("L", "R", &secret);
    let listener = std::thread::spawn(move || listener_side(a, &lc, soon()));
    let r = requester_side(&b, &ctx("R", "L", &secret), soon(), &|| false).expect("the partner");
    let Incoming::Partner(_, l) = listener.join().unwrap() else { panic!("not paired") };
    let (r, l) = (r.shm.expect("the requester's end"), l.shm.expect("the listener's end"));
    assert_eq!(r.write(b"to L").unwrap(), 4);
    assert_eq!(l.write(b"to R!").unwrap(), 5);
    let (mut at_l, mut at_r) = ([0u8; 8], [0u8; 8]);
    assert_eq!(l.read(&mut at_l).unwrap(), 4);
    assert_eq!(r.read(&mut at_r).unwrap(), 5);
    assert_eq!((&at_l[..4], &at_r[..5]), (&b"to L"[..], &b"to R!"[..]));
}

#[test]
#[cfg(target_os = "linux")]
fn one_side_forcing_tcp_keeps_the_pair_on_tcp_and_says_why() {
    for (l_shm, r_shm) in [(true, false), (false, true)] {
        let secret = Secret::random().unwrap();
        let (a, b) = pair();
        let lc = Ctx { shm: l_shm, ..ctx("L", "R", &secret) };
        let listener = std::thread::spawn(move || listener_side(a, &lc, soon()));
        let r = requester_side(&b, &Ctx { shm: r_shm, ..ctx("R", "L", &secret) }, soon(), &|| false).unwrap();
        let Incoming::Partner(_, l) = listener.join().unwrap() else { panic!("not paired") };
        assert!(r.shm.is_none() && l.shm.is_none(), "listener {l_shm}, requester {r_shm}");
        for why in [&r.why, &l.why] {
            assert!(why.contains("TIDELINK_TRANSPORT=tcp"), "{why}");
        }
    }
}

/// Off Linux shared memory is not built: the pair stays on TCP, and both sides say why.
#[test]
#[cfg(not(target_os = "linux"))]
fn off_linux_the_pair_stays_on_tcp_and_says_why() {
    let secret = Secret::random().unwrap();
    let (a, b) = pair();
    let lc = ctx("L", "R", &secret);
    let listener = std::thread::spawn(move || listener_side(a, &lc, soon()));
    let r = requester_side(&b, &ctx("R", "L", &secret), soon(), &|| false).unwrap();
    let Incoming::Partner(_, l) = listener.join().unwrap() else { panic!("not paired") };
    assert!(r.shm.is_none() && l.shm.is_none());
    for why in [&r.why, &l.why] {
        assert!(why.contains("Linux only"), "{why}");
    }
}

/// The listener hands the segment only to the process the authenticated requester said it is
/// (the kernel's word on who connected to the local socket): here the requester announces
/// another process, so its own connection to the socket (a stranger's, for the listener) gets
/// nothing, and the pair stays on TCP. A stranger that finds the socket's name in
/// /proc/net/unix is in the same place.
#[test]
#[cfg(target_os = "linux")]
fn a_process_other_than_the_authenticated_requester_cannot_attach() {
    use std::os::linux::net::SocketAddrExt;
    let (a, mut b) = pair();
    let lc = ctx("L", "R", &Secret::random().unwrap());
    let listener = std::thread::spawn(move || super::super::transport::listener_side(&a, &lc, soon()));
    let host = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").unwrap().trim().to_string();
    let other_pid = std::process::id() + 1;
    wire::write_frame(
        &mut b,
        &Frame::Transport { shm: true, host: host.clone(), pid: other_pid, detail: String::new() },
    )
    .unwrap();
    let Some(Frame::Transport { shm: true, detail: name, .. }) =
        read_frame_by(&b, soon(), MAX_HANDSHAKE_FRAME, &|| false).unwrap()
    else {
        panic!("no offer")
    };
    let addr = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes()).unwrap();
    let c = std::os::unix::net::UnixStream::connect_addr(&addr).unwrap();
    c.set_read_timeout(Some(Duration::from_millis(300))).unwrap();
    let e = super::super::shm::accept(&c).expect_err("a process other than the one announced gets no segment");
    assert!(
        matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::UnexpectedEof | io::ErrorKind::InvalidData),
        "{e}"
    );
    let why = "no segment came".to_string();
    wire::write_frame(&mut b, &Frame::Transport { shm: false, host, pid: other_pid, detail: why.clone() }).unwrap();
    let chosen = listener.join().unwrap().expect("the listener goes on over TCP");
    assert!(chosen.shm.is_none());
    assert_eq!(chosen.why, why);
}
