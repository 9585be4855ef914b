//! Shared pieces of the `engine_*` tests: one XML builder for every case, participants
//! in threads with a watchdog, and small read/write helpers.
//!
//! The temporary-case helpers and `shared_path` (the reference data of ../shared) come from
//! `src/testing.rs` itself (included by path), so
//! these tests need no cargo feature and run under `cargo test -p tidelink-coupling`
//! as well as under `cargo test --workspace`.

#![allow(dead_code)]

#[path = "../../src/testing.rs"]
#[allow(clippy::type_complexity)]
mod testing;

#[allow(unused_imports)] // only the tests that need ../shared use it
pub use testing::shared_path;
pub use testing::{temp_case, TempCase};
pub use tidelink_coupling::native::NativeParticipant;
pub use tidelink_coupling::{Coupling, CouplingData, CouplingError, ErrorKind};

use std::fmt::Display;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The scenarios' float tolerance (docs/design/coupling-semantics.md §12).
pub const TOL: f64 = 1e-12;

/// Asserts `|a − b| ≤ 1e-12` with a message naming what was compared.
#[track_caller]
pub fn close(what: impl Display, got: f64, want: f64) {
    assert!((got - want).abs() <= TOL, "{what}: got {got}, want {want}");
}

/// Asserts that `r` failed with an error of `kind` whose message contains every fragment (the
/// names it must give); returns the message.
#[track_caller]
pub fn fails<T>(r: Result<T, CouplingError>, kind: ErrorKind, fragments: &[&str]) -> String {
    let (got, msg) = match r {
        Ok(_) => panic!("expected a {kind:?} error containing {fragments:?}, but the call succeeded"),
        Err(e) => (e.kind, e.message),
    };
    assert_eq!(got, kind, "the kind of the error {msg:?}");
    for f in fragments {
        assert!(msg.contains(f), "error should contain {f:?}: {msg}");
    }
    msg
}

/// The two-participant case of `scheme` with DataOne from A to B and DataTwo back.
pub fn pair_case(scheme: Scheme) -> TempCase {
    Xml::new(2).scheme(scheme.ex("DataOne", "A", "B").ex("DataTwo", "B", "A")).case()
}

/// The message of `e`, asserting that it is of `kind`.
#[track_caller]
pub fn message_of(e: CouplingError, kind: ErrorKind) -> String {
    assert_eq!(e.kind, kind, "the kind of the error {:?}", e.message);
    e.message
}

/// One `<coupling-scheme:*>` of an [`Xml`] case. Exchanges run on the first participant's mesh.
pub struct Scheme {
    kind: String,
    first: String,
    second: String,
    /// Multi schemes: the participants besides the controller (`first`).
    others: Vec<String>,
    children: Vec<String>,
    exchanges: Vec<(String, String, String, String)>,
}

impl Scheme {
    /// `kind` is the tag suffix: "serial-explicit", "parallel-explicit", ...
    pub fn new(kind: &str, first: &str, second: &str) -> Scheme {
        Scheme {
            kind: kind.into(),
            first: first.into(),
            second: second.into(),
            others: vec![],
            children: vec![],
            exchanges: vec![],
        }
    }
    /// `<coupling-scheme:multi>` with `controller` (its mesh carries the exchanges) and `others`.
    pub fn multi(controller: &str, others: &[&str]) -> Scheme {
        let mut s = Scheme::new("multi", controller, "");
        s.others = others.iter().map(|o| o.to_string()).collect();
        s
    }
    pub fn serial_implicit(first: &str, second: &str) -> Scheme {
        Scheme::new("serial-implicit", first, second)
    }
    pub fn parallel_implicit(first: &str, second: &str) -> Scheme {
        Scheme::new("parallel-implicit", first, second)
    }
    /// The first participant (a multi scheme's controller): its mesh carries the exchanges.
    pub fn first_name(&self) -> &str {
        &self.first
    }
    /// The participants that receive the first participant's mesh.
    fn receivers(&self) -> Vec<&str> {
        if self.others.is_empty() {
            vec![self.second.as_str()]
        } else {
            self.others.iter().map(String::as_str).collect()
        }
    }
    pub fn serial(first: &str, second: &str) -> Scheme {
        Scheme::new("serial-explicit", first, second)
    }
    pub fn parallel(first: &str, second: &str) -> Scheme {
        Scheme::new("parallel-explicit", first, second)
    }
    /// Any raw child tag, e.g. `<max-iterations value="3"/>`.
    pub fn child(mut self, xml: impl Into<String>) -> Scheme {
        self.children.push(xml.into());
        self
    }
    /// `<time-window-size value=..>`; takes numbers or raw strings such as "1/4".
    pub fn window(self, v: impl Display) -> Scheme {
        self.child(format!(r#"<time-window-size value="{v}"/>"#))
    }
    pub fn first_participant(self) -> Scheme {
        self.child(r#"<time-window-size method="first-participant"/>"#)
    }
    pub fn windows(self, n: u64) -> Scheme {
        self.child(format!(r#"<max-time-windows value="{n}"/>"#))
    }
    pub fn max_time(self, t: impl Display) -> Scheme {
        self.child(format!(r#"<max-time value="{t}"/>"#))
    }
    /// `<exchange data from to/>` with default attributes.
    pub fn ex(self, data: &str, from: &str, to: &str) -> Scheme {
        self.ex_with(data, from, to, "")
    }
    /// `<exchange>` with extra raw attributes, e.g. `initialize="true" substeps="true"`.
    pub fn ex_with(mut self, data: &str, from: &str, to: &str, attrs: &str) -> Scheme {
        self.exchanges.push((data.into(), from.into(), to.into(), attrs.into()));
        self
    }
}

/// Builds a whole preCICE configuration from its coupling schemes. Every participant P
/// provides `P-Mesh`; the second participant of a scheme receives the first's mesh and
/// maps from it (read, consistent) and onto it (write, conservative) with nearest-neighbor,
/// so data from P is written on P's mesh and read on the receiver's own mesh.
pub struct Xml {
    dim: usize,
    vectors: Vec<String>,
    degrees: Vec<(String, u32)>,
    schemes: Vec<Scheme>,
    extra_reads: Vec<(String, String)>,
    m2n_last: bool,
}

/// The mesh participant `p` provides in every [`Xml`] case.
pub fn mesh(p: &str) -> String {
    format!("{p}-Mesh")
}

impl Xml {
    pub fn new(dim: usize) -> Xml {
        Xml { dim, vectors: vec![], degrees: vec![], schemes: vec![], extra_reads: vec![], m2n_last: false }
    }
    /// Declares `data` as `data:vector` (default: scalar).
    pub fn vector(mut self, data: &str) -> Xml {
        self.vectors.push(data.into());
        self
    }
    pub fn degree(mut self, data: &str, degree: u32) -> Xml {
        self.degrees.push((data.into(), degree));
        self
    }
    pub fn scheme(mut self, s: Scheme) -> Xml {
        self.schemes.push(s);
        self
    }
    /// A `<read-data>` of `participant` on its own mesh that no exchange feeds.
    pub fn unfed_read(mut self, participant: &str, data: &str) -> Xml {
        self.extra_reads.push((participant.into(), data.into()));
        self
    }
    /// Places the `<m2n:sockets>` tags after the coupling schemes (invalid, scenario A28 f).
    pub fn m2n_after_schemes(mut self) -> Xml {
        self.m2n_last = true;
        self
    }

    pub fn build(&self) -> String {
        let mut parts: Vec<&str> = Vec::new();
        let mut data: Vec<&str> = Vec::new();
        for s in &self.schemes {
            for p in std::iter::once(s.first.as_str()).chain(s.receivers()) {
                if !parts.contains(&p) {
                    parts.push(p);
                }
            }
            for (d, ..) in &s.exchanges {
                if !data.contains(&d.as_str()) {
                    data.push(d);
                }
            }
        }
        for (_, d) in &self.extra_reads {
            if !data.contains(&d.as_str()) {
                data.push(d);
            }
        }
        let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n<precice-configuration>\n");
        for d in &data {
            let kind = if self.vectors.iter().any(|v| v == d) { "vector" } else { "scalar" };
            let deg = self.degrees.iter().find(|(n, _)| n == d).map(|(_, k)| format!(r#" waveform-degree="{k}""#));
            x += &format!("  <data:{kind} name=\"{d}\"{}/>\n", deg.unwrap_or_default());
        }
        // (participant, data, written?) on the participant's own mesh.
        let mut uses: Vec<(&str, &str, bool)> = Vec::new();
        for s in &self.schemes {
            for (d, from, to, _) in &s.exchanges {
                uses.push((from, d, true));
                uses.push((to, d, false));
            }
        }
        for (p, d) in &self.extra_reads {
            uses.push((p, d, false));
        }
        for p in &parts {
            x += &format!("  <mesh name=\"{}\" dimensions=\"{}\">\n", mesh(p), self.dim);
            let mut on: Vec<&str> = Vec::new();
            for (q, d, _) in &uses {
                if q == p && !on.contains(d) {
                    on.push(d);
                }
            }
            for s in self.schemes.iter().filter(|s| s.first == *p) {
                for (d, ..) in &s.exchanges {
                    if !on.contains(&d.as_str()) {
                        on.push(d);
                    }
                }
            }
            for d in on {
                x += &format!("    <use-data name=\"{d}\"/>\n");
            }
            x += "  </mesh>\n";
        }
        for p in &parts {
            x += &format!("  <participant name=\"{p}\">\n    <provide-mesh name=\"{}\"/>\n", mesh(p));
            for s in self.schemes.iter().filter(|s| s.receivers().contains(p)) {
                x += &format!("    <receive-mesh name=\"{}\" from=\"{}\"/>\n", mesh(&s.first), s.first);
            }
            let mut seen: Vec<(&str, bool)> = Vec::new();
            for &(q, d, w) in &uses {
                if q == *p && !seen.contains(&(d, w)) {
                    seen.push((d, w));
                    let tag = if w { "write-data" } else { "read-data" };
                    x += &format!("    <{tag} name=\"{d}\" mesh=\"{}\"/>\n", mesh(p));
                }
            }
            for s in self.schemes.iter().filter(|s| s.receivers().contains(p)) {
                let (other, own) = (mesh(&s.first), mesh(p));
                if s.exchanges.iter().any(|e| e.2 == *p) {
                    x += &format!("    <mapping:nearest-neighbor direction=\"read\" from=\"{other}\" to=\"{own}\" constraint=\"consistent\"/>\n");
                }
                if s.exchanges.iter().any(|e| e.1 == *p) {
                    x += &format!("    <mapping:nearest-neighbor direction=\"write\" from=\"{own}\" to=\"{other}\" constraint=\"conservative\"/>\n");
                }
            }
            x += "  </participant>\n";
        }
        let mut m2n = String::new();
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        for s in &self.schemes {
            for r in s.receivers() {
                let pair = (s.first.as_str(), r);
                if !pairs.contains(&pair) && !pairs.contains(&(pair.1, pair.0)) {
                    pairs.push(pair);
                    m2n += &format!(
                        "  <m2n:sockets acceptor=\"{}\" connector=\"{r}\" exchange-directory=\"{{dir}}\"/>\n",
                        s.first
                    );
                }
            }
        }
        if !self.m2n_last {
            x += &m2n;
        }
        for s in &self.schemes {
            x += &format!("  <coupling-scheme:{}>\n", s.kind);
            if s.others.is_empty() {
                x += &format!("    <participants first=\"{}\" second=\"{}\"/>\n", s.first, s.second);
            } else {
                x += &format!("    <participant name=\"{}\" control=\"yes\"/>\n", s.first);
                for o in &s.others {
                    x += &format!("    <participant name=\"{o}\"/>\n");
                }
            }
            for c in &s.children {
                x += &format!("    {c}\n");
            }
            for (d, from, to, attrs) in &s.exchanges {
                let sep = if attrs.is_empty() { "" } else { " " };
                x += &format!(
                    "    <exchange data=\"{d}\" mesh=\"{}\" from=\"{from}\" to=\"{to}\"{sep}{attrs}/>\n",
                    mesh(&s.first)
                );
            }
            x += &format!("  </coupling-scheme:{}>\n", s.kind);
        }
        if self.m2n_last {
            x += &m2n;
        }
        x + "</precice-configuration>\n"
    }

    /// Writes the configuration into a fresh temporary case.
    pub fn case(&self) -> TempCase {
        temp_case(&self.build())
    }
}

/// Opens participant `name` and puts `vertices` (flat coordinates; `None`: one vertex
/// at the origin) on its own mesh.
#[track_caller]
pub fn open_at(config: &Path, name: &str, vertices: Option<&[f64]>) -> NativeParticipant {
    let mut p = NativeParticipant::new(name, config).unwrap_or_else(|e| panic!("open {name}: {e}"));
    p.set_handshake_timeout(Duration::from_secs(20));
    let dim = p.get_mesh_dimensions(&mesh(name)).expect("own mesh");
    let origin = vec![0.0; dim];
    let vertices = vertices.unwrap_or(&origin);
    let mut ids = vec![0; vertices.len() / dim];
    p.set_mesh_vertices(&mesh(name), vertices, &mut ids).expect("set vertices");
    p
}

/// Opens participant `name` with one vertex at the origin of its own mesh.
#[track_caller]
pub fn open(config: &Path, name: &str) -> NativeParticipant {
    open_at(config, name, None)
}

/// Reads the scalar `data` at vertex 0 of the participant's own mesh.
#[track_caller]
pub fn read(p: &mut NativeParticipant, data: &str, rel: f64) -> f64 {
    let mut v = [0.0];
    let m = mesh(p.participant_name());
    p.read_data(&m, data, &[0], rel, &mut v).unwrap_or_else(|e| panic!("read {data} at {rel}: {e}"));
    v[0]
}

/// Writes the scalar `data` at vertex 0 of the participant's own mesh.
#[track_caller]
pub fn write(p: &mut NativeParticipant, data: &str, value: f64) {
    let m = mesh(p.participant_name());
    p.write_data(&m, data, &[0], &[value]).unwrap_or_else(|e| panic!("write {data}: {e}"));
}

/// A participant job: runs in its own thread.
pub type Job<T> = Box<dyn FnOnce() -> T + Send>;

/// Boxes a closure as a [`Job`].
pub fn job<T>(f: impl FnOnce() -> T + Send + 'static) -> Job<T> {
    Box::new(f)
}

/// How long a test's participants may run before the test is declared hung.
pub const WATCHDOG: Duration = Duration::from_secs(90);

/// Runs every job in its own thread and returns the results in order; fails the test
/// (instead of hanging it) when the jobs do not finish within [`WATCHDOG`].
pub fn run<T: Send + 'static>(jobs: Vec<Job<T>>) -> Vec<T> {
    struct Done(mpsc::Sender<()>);
    impl Drop for Done {
        fn drop(&mut self) {
            let _ = self.0.send(());
        }
    }
    let (tx, rx) = mpsc::channel();
    let n = jobs.len();
    let handles: Vec<_> = jobs
        .into_iter()
        .enumerate()
        .map(|(i, f)| {
            let done = Done(tx.clone());
            std::thread::Builder::new()
                .name(format!("participant-{i}"))
                .spawn(move || {
                    let _done = done;
                    f()
                })
                .expect("spawn participant thread")
        })
        .collect();
    let deadline = Instant::now() + WATCHDOG;
    for _ in 0..n {
        let left = deadline.saturating_duration_since(Instant::now());
        rx.recv_timeout(left).unwrap_or_else(|_| panic!("participants still running after {WATCHDOG:?}: hung"));
    }
    handles.into_iter().map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
}

/// [`run`] for the usual two participants.
pub fn run2<T: Send + 'static>(
    a: impl FnOnce() -> T + Send + 'static,
    b: impl FnOnce() -> T + Send + 'static,
) -> (T, T) {
    let mut r = run(vec![job(a), job(b)]);
    let b = r.pop().expect("two results");
    (r.pop().expect("two results"), b)
}

/// The config path of a case, owned, for moving into jobs.
pub fn cfg(case: &TempCase) -> PathBuf {
    case.config.clone()
}

/// One `advance` of [`drive`]: 0-based window, time before the step, step size, value read.
#[derive(Debug, Clone, Copy)]
pub struct Step {
    pub window: usize,
    pub t: f64,
    pub dt: f64,
    pub read: f64,
}

/// The canonical loop of docs/design/coupling-semantics.md §2.2 with the step rule `dt = min(solver_dt, max)`: reads
/// `rd` at rel = dt, writes `f(t + dt)` into `wd`, advances, finalizes. Time is tracked
/// by the test itself (window index · `window` + steps inside the window).
pub fn drive(
    p: &mut NativeParticipant,
    solver_dt: f64,
    window: f64,
    rd: &str,
    wd: &str,
    f: impl Fn(f64) -> f64,
) -> Vec<Step> {
    let mut out = Vec::new();
    let (mut k, mut local) = (0usize, 0.0);
    while p.is_coupling_ongoing().expect("ongoing") {
        let dt = solver_dt.min(p.get_max_time_step_size().expect("max dt"));
        let t = k as f64 * window + local;
        let v = read(p, rd, dt);
        write(p, wd, f(t + dt));
        p.advance(dt).unwrap_or_else(|e| panic!("advance({dt}) at t={t}: {e}"));
        out.push(Step { window: k, t, dt, read: v });
        if p.is_time_window_complete().expect("window complete") {
            k += 1;
            local = 0.0;
        } else {
            local += dt;
        }
    }
    p.finalize().expect("finalize");
    out
}

/// One `advance` of [`drive_implicit`]: 0-based window, 1-based iteration, time before the
/// step, step size, value read, value written, and what the coupling said afterwards.
#[derive(Debug, Clone, Copy)]
pub struct IStep {
    pub window: usize,
    pub iteration: u32,
    pub t: f64,
    pub dt: f64,
    pub read: f64,
    pub wrote: f64,
    /// `requires_reading_checkpoint()` after the advance.
    pub repeat: bool,
    /// `is_time_window_complete()` after the advance.
    pub complete: bool,
}

/// The canonical implicit loop (docs/design/coupling-semantics.md §2.2): checkpoints the
/// test's own clock, reads `rd` at `rel(dt)`, writes `f(p, step)` into `wd` (`f` may read and
/// write more data), advances,
/// restores on request; finalizes at the end.
pub fn drive_implicit(
    p: &mut NativeParticipant,
    solver_dt: f64,
    rd: &str,
    wd: &str,
    rel: impl Fn(f64) -> f64,
    mut f: impl FnMut(&mut NativeParticipant, &IStep) -> f64,
) -> Vec<IStep> {
    let mut out = Vec::new();
    let (mut window, mut iteration, mut t, mut saved) = (0usize, 1u32, 0.0f64, 0.0f64);
    while p.is_coupling_ongoing().expect("ongoing") {
        if p.requires_writing_checkpoint().expect("write checkpoint?") {
            saved = t;
        }
        let dt = solver_dt.min(p.get_max_time_step_size().expect("max dt"));
        let mut s =
            IStep { window, iteration, t, dt, read: read(p, rd, rel(dt)), wrote: 0.0, repeat: false, complete: false };
        s.wrote = f(p, &s);
        write(p, wd, s.wrote);
        p.advance(dt).unwrap_or_else(|e| panic!("advance({dt}) at t={t}: {e}"));
        s.repeat = p.requires_reading_checkpoint().expect("read checkpoint?");
        s.complete = p.is_time_window_complete().expect("complete?");
        if s.repeat {
            t = saved;
            iteration += 1;
        } else {
            t += dt;
            if s.complete {
                window += 1;
                iteration = 1;
            }
        }
        out.push(s);
    }
    assert!(!p.requires_writing_checkpoint().unwrap(), "no checkpoint after the last window");
    p.finalize().expect("finalize");
    out
}

/// The last step of every iteration, as (window, iteration) → step.
pub fn iteration_ends(steps: &[IStep]) -> Vec<IStep> {
    steps.iter().filter(|s| s.repeat || s.complete).copied().collect()
}

/// Iterations per window of a run.
pub fn iterations_per_window(steps: &[IStep]) -> Vec<u32> {
    steps.iter().filter(|s| s.complete).map(|s| s.iteration).collect()
}

/// Opens `name` with its iteration logs written into the case folder (the config's folder).
#[track_caller]
pub fn open_logged(config: &Path, name: &str) -> NativeParticipant {
    let mut p = open(config, name);
    p.set_log_directory(config.parent().expect("case folder"));
    p
}

/// The engine's log lines up to `max` (`Warn`: warnings and errors), captured for the whole test
/// binary from the first call on. A process has one logger: the first call's level holds.
pub fn captured_log(max: log::Level) -> &'static std::sync::Mutex<Vec<String>> {
    use std::sync::{Mutex, OnceLock};
    struct Capture {
        level: OnceLock<log::Level>,
        lines: Mutex<Vec<String>>,
    }
    impl log::Log for Capture {
        fn enabled(&self, m: &log::Metadata) -> bool {
            self.level.get().is_some_and(|l| m.level() <= *l)
        }
        fn log(&self, r: &log::Record) {
            if self.enabled(r.metadata()) {
                self.lines.lock().unwrap().push(r.args().to_string());
            }
        }
        fn flush(&self) {}
    }
    static CAPTURE: Capture = Capture { level: OnceLock::new(), lines: Mutex::new(Vec::new()) };
    if CAPTURE.level.set(max).is_ok() && log::set_logger(&CAPTURE).is_ok() {
        log::set_max_level(max.to_level_filter());
    }
    &CAPTURE.lines
}
