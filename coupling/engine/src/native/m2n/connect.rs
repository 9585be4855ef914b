//! Setting up the connections of `m2n`: this participant's endpoints from the configuration,
//! the acceptor's listening side and the connector's requests (rendezvous file, authentication,
//! the transport chosen), and the errors of a partner that never comes.

use super::*;

/// One side of one `<m2n:sockets>` of this participant.
pub(super) struct Endpoint {
    pub(super) partner: String,
    pub(super) listen: bool,
    pub(super) file: PathBuf,
    pub(super) pair_dir: PathBuf,
    pub(super) exchange_dir: PathBuf,
    pub(super) network: String,
    pub(super) port: u16,
}

/// The IPv4 address of network interface `network` (`lo` is the loopback address), or the
/// error naming the interfaces this machine has.
pub(crate) fn interface_ip(network: &str) -> Result<IpAddr> {
    if network == "lo" || network == "lo0" {
        return Ok(IpAddr::V4(Ipv4Addr::LOCALHOST));
    }
    let ifs =
        if_addrs::get_if_addrs().map_err(|e| CouplingError::io(format!("cannot list network interfaces: {e}")))?;
    ifs.iter().find(|i| i.name == network && i.ip().is_ipv4()).map(|i| i.ip()).ok_or_else(|| {
        let mut names: Vec<String> = ifs.iter().map(|i| i.name.clone()).collect();
        names.dedup();
        names.sort();
        names.dedup();
        CouplingError::config(format!(
            "Cannot find network interface \"{network}\". Available interfaces are: {}",
            names.join(", ")
        ))
    })
}

pub(super) fn endpoints(me: &str, cfg: &PreciceConfig) -> Result<Vec<Endpoint>> {
    let mut out = Vec::new();
    for m in cfg.m2ns.iter().filter(|m| m.acceptor == me || m.connector == me) {
        if let Some(msg) = crate::native::unsupported::m2n_transport_message(m) {
            return Err(CouplingError::config(format!("{}: {msg}", m.loc)));
        }
        let (listener, requester) = (m.connector.as_str(), m.acceptor.as_str());
        let exchange_dir = PathBuf::from(&m.exchange_directory);
        let partner = if me == listener { requester } else { listener };
        out.push(Endpoint {
            partner: partner.to_string(),
            listen: me == listener,
            file: rendezvous::connection_file(&exchange_dir, listener, requester, "PRIMARYCOM", -1),
            pair_dir: rendezvous::pair_dir(&exchange_dir, listener, requester),
            exchange_dir,
            network: m.network.clone(),
            port: m.port,
        });
    }
    Ok(out)
}

pub(super) fn abs(p: &Path) -> String {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()).display().to_string()
}

/// `other`: a live connection file of another run that the requester found instead of its partner's.
pub(super) fn timeout_error(
    me: &str,
    run: Option<&str>,
    ep: &Endpoint,
    timeout: Duration,
    other: Option<&Owner>,
    refused: Option<&str>,
) -> CouplingError {
    let mut msg = format!(
        "participant \"{me}\" waited {:.0} s for participant \"{}\" to connect, without success. Is it running, with \
         the same preCICE configuration, from a folder where exchange-directory \"{}\" is \"{}\"? (Set \
         TIDELINK_HANDSHAKE_TIMEOUT to wait longer.)",
        timeout.as_secs_f64(),
        ep.partner,
        ep.exchange_dir.display(),
        abs(&ep.exchange_dir)
    );
    if let Some(o) = other {
        msg += &format!(
            " The connection file \"{}\" belongs to a \"{}\" of another run ({o}), not to this participant's ({}): \
             two runs share this exchange directory. A participant pairs only with partners of its own run; \
             {RUN_ID_ENV} sets the run of a participant started by hand.",
            abs(&ep.file),
            ep.partner,
            describe_run(run)
        );
    }
    if let Some(r) = refused {
        msg += &format!(" Meanwhile {r}.");
    }
    CouplingError::partner(msg)
}

pub(super) fn tune(stream: &TcpStream) {
    let _ = stream.set_nodelay(true);
    let sock = socket2::SockRef::from(stream);
    let ka = socket2::TcpKeepalive::new().with_time(Duration::from_secs(1)).with_interval(Duration::from_millis(500));
    let _ = sock.set_tcp_keepalive(&ka);
    let _ = sock.set_send_buffer_size(8 << 20);
}

/// At most this many incoming connections are in their handshake at once; more are closed at
/// once (with a warning), so a flood of connections cannot exhaust threads.
pub(super) const MAX_PENDING: usize = 32;

/// The cancelled endpoint's error (never shown: another endpoint's error or the interrupt is).
pub(super) fn cancelled(me: &str) -> CouplingError {
    CouplingError::interrupted(format!("participant \"{me}\": the handshake was cancelled"))
}

/// A listener's endpoint: accepts connections until one proves to be the partner, each
/// connection's handshake in a thread of its own with its own short deadline; refusals are
/// logged with the peer's address. Unpublishes its file however it ends.
pub(super) fn listen(
    ep: &Endpoint,
    l: TcpListener,
    hold: rendezvous::Hold,
    ctx: Arc<handshake::Ctx>,
    deadline: Instant,
    timeout: Duration,
    stop: &AtomicBool,
) -> Result<(TcpStream, Chosen)> {
    let me = ctx.me.as_str();
    let (tx, rx) = mpsc::channel();
    let mut pending = 0usize;
    let mut refused: Option<String> = None;
    let outcome = loop {
        match l.accept() {
            Ok((s, peer)) if pending >= MAX_PENDING => {
                log::warn!("{me}: refused a connection from {peer}: {MAX_PENDING} others are still in their handshake");
                drop(s);
            }
            Ok((s, peer)) => {
                let _ = s.set_nonblocking(false);
                tune(&s);
                pending += 1;
                let (tx, ctx) = (tx.clone(), ctx.clone());
                let by = deadline.min(Instant::now() + handshake::CONNECTION_DEADLINE);
                let started = std::thread::Builder::new().name("m2n-handshake".into()).spawn(move || {
                    let _ = tx.send((peer, handshake::listener_side(s, &ctx, by)));
                });
                if let Err(e) = started {
                    pending -= 1;
                    log::warn!("{me}: cannot handle the connection from {peer}: {e}");
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => break Err(CouplingError::io(format!("accepting \"{}\" failed: {e}", ep.partner))),
        }
        let mut done = None;
        while let Ok((peer, incoming)) = rx.try_recv() {
            pending -= 1;
            match incoming {
                handshake::Incoming::Partner(s, chosen) => {
                    done = Some(Ok((s, chosen)));
                    break;
                }
                handshake::Incoming::Refused(why) => {
                    log::warn!(
                        "{me}: refused a connection from {peer} to the address in {}: {why}; still waiting for \"{}\"",
                        abs(&ep.file),
                        ep.partner
                    );
                    refused = Some(format!("a connection from {peer} was refused: {why}"));
                }
                handshake::Incoming::Probe => log::debug!("{me}: {peer} connected and left without a word"),
                handshake::Incoming::Failed(e) => {
                    done = Some(Err(e));
                    break;
                }
            }
        }
        if let Some(d) = done {
            break d;
        }
        if Instant::now() > deadline {
            break Err(timeout_error(me, ctx.run.as_deref(), ep, timeout, None, refused.as_deref()));
        }
        if stop.load(Ordering::Relaxed) {
            break Err(cancelled(me));
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    rendezvous::unpublish(&ep.file, &ep.pair_dir, hold);
    outcome
}

/// A requester's endpoint: waits for its partner's connection file of this run, connects and
/// runs its side of the handshake.
pub(super) fn request(
    ep: &Endpoint,
    ctx: &handshake::Ctx,
    deadline: Instant,
    timeout: Duration,
    stop: &AtomicBool,
) -> Result<(TcpStream, Chosen)> {
    let (me, run) = (ctx.me.as_str(), ctx.run.as_deref());
    log::info!("{me}: looking for \"{}\" at {}", ep.partner, abs(&ep.file));
    let mut other = None;
    let mut keyless = false;
    loop {
        match rendezvous::lookup(&ep.file, run) {
            Lookup::Partner(addr) => {
                // Without a secret of its own, the partner's key beside its file (written first).
                let key = match &ctx.secret {
                    Some(_) => None,
                    None => keyfile::read_key(&ep.file)
                        .map_err(|e| CouplingError::config(format!("participant \"{me}\": {e}")))?,
                };
                if ctx.secret.is_none() && key.is_none() {
                    keyless = true;
                } else if let Ok(s) = TcpStream::connect_timeout(&addr, Duration::from_millis(500)) {
                    tune(&s);
                    let ctx = handshake::Ctx { secret: ctx.secret.clone().or(key), ..ctx.clone() };
                    let chosen = handshake::requester_side(&s, &ctx, deadline, &|| stop.load(Ordering::Relaxed))
                        .map_err(|e| if stop.load(Ordering::Relaxed) { cancelled(me) } else { e })?;
                    return Ok((s, chosen));
                }
            }
            Lookup::Other(owner) => {
                if other.is_none() {
                    log::warn!(
                        "{me}: \"{}\" belongs to a participant of another run ({owner}); waiting for \"{}\" of this \
                         run ({})",
                        abs(&ep.file),
                        ep.partner,
                        describe_run(run)
                    );
                }
                other = Some(owner);
            }
            Lookup::Stale | Lookup::Nothing => {}
        }
        if Instant::now() > deadline {
            let note = keyless.then_some(
                "its partner's connection file has no key file beside it: the partner holds a secret this participant \
                 lacks (tidelink run gives its participants one; TIDELINK_SECRET_FILE must name the same file on \
                 both sides)",
            );
            return Err(timeout_error(me, run, ep, timeout, other.as_ref(), note));
        }
        if stop.load(Ordering::Relaxed) {
            return Err(cancelled(me));
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The info line saying which transport a connection uses, and why TCP where it is.
pub(super) fn log_transport(me: &str, partner: &str, s: &TcpStream, chosen: &Chosen) {
    if chosen.shm.is_some() {
        log::info!(
            "{me}: exchanging with \"{partner}\" through shared memory (same machine; the TCP connection stays open \
             as the lifeline; {TRANSPORT_ENV}=tcp forces TCP)"
        );
    } else {
        let ends = match (s.local_addr(), s.peer_addr()) {
            (Ok(l), Ok(p)) => format!(" {l} -> {p}"),
            _ => String::new(),
        };
        log::info!("{me}: exchanging with \"{partner}\" over TCP{ends} ({})", chosen.why);
    }
}
