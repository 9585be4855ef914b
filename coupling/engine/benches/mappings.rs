//! Mapping cost against vertex count (docs/performance.md, "Mappings"): for every method and
//! about 10², 10³, 10⁴, 10⁵ vertices, the time to build the mapping (libprecice's
//! `computeMapping`) and to apply it to one scalar sample (libprecice's `mapData`), on the
//! native engine and on libprecice, the same meshes and the same `<mapping:*>` tag, measured
//! in one run: rounds interleave the two, the figures are the medians.
//!
//! The meshes are two resolutions of one curved surface z = 0.2·x·y over the unit square (the
//! input an n×n grid with two triangles per cell, the output an (n−1)×(n−1) grid of points);
//! linear-cell-interpolation, which maps volumes, takes the unit cube instead (tetrahedra on an
//! n³ grid, points on an (n−1)³ grid). The mapping is the consistent read mapping of B from
//! A's mesh to B's.
//!
//! Native figures: `native::mappings::build` and `Mapping::map` timed in this process on the
//! meshes as the engine holds them after `initialize` (elements preprocessed, which is not
//! timed: libprecice preprocesses its meshes outside `computeMapping` too), once on all cores
//! (the engine's rayon pool) and once on a pool of one thread (libprecice runs one rank here).
//! libprecice figures: two participant processes (this executable started again) coupled by
//! libprecice 3.4 with `<profiling mode="all"/>`; the durations of B's events
//! `map.<m>.computeMapping.From…To…` and `map.<m>.mapData.From…To…` (median of the samples of
//! a run) as libprecice writes them in `precice-profiling/B-0-1.txt`. Both exclude the mesh
//! exchange and the data transfer.
//!
//! `cargo bench -p tidelink-coupling --features precice --bench mappings` (without the feature
//! the libprecice half is skipped). `TL_BENCH_ROUNDS` (default 3) sets the rounds,
//! `TL_BENCH_ONLY=<method>` runs one method, `TL_BENCH_GRIDS=<n,n,...>` only those grid sizes
//! (e.g. `316` or `46` for the 10⁵ meshes).

use std::path::Path;
use std::time::Instant;
use tidelink_coupling::native::mappings::{build, Connectivity, Mapping, MeshState};

/// How many samples a libprecice run maps (windows of B's read).
const WINDOWS: usize = 3;
/// Applications of the native mapping per round (the median is kept).
const APPLY_REPEATS: usize = 5;

/// One method of the benchmark: its tag name, the `<mapping:*>` text for grid size `n`, and
/// the grid sizes it runs at.
struct Method {
    name: &'static str,
    tag: fn(usize) -> String,
    sizes: &'static [usize],
    /// Runs on libprecice too (rbf-global-iterative needs libprecice's PETSc build).
    #[cfg_attr(not(feature = "precice"), allow(dead_code))]
    on_precice: bool,
}

/// Surface grids of 10², 32², 100², 316² vertices; cube grids of 5³, 10³, 22³, 46³.
const SURFACE: &[usize] = &[10, 32, 100, 316];
const CUBE: &[usize] = &[5, 10, 22, 46];

fn plain(method: &str) -> String {
    format!(r#"<mapping:{method} direction="read" from="A-Mesh" to="B-Mesh" constraint="consistent"/>"#)
}

fn rbf(method: &str, attrs: &str, basis: &str) -> String {
    format!(
        r#"<mapping:{method} direction="read" from="A-Mesh" to="B-Mesh" constraint="consistent"{attrs}>{basis}</mapping:{method}>"#
    )
}

fn methods() -> Vec<Method> {
    vec![
        Method { name: "nearest-neighbor", tag: |_| plain("nearest-neighbor"), sizes: SURFACE, on_precice: true },
        Method { name: "nearest-projection", tag: |_| plain("nearest-projection"), sizes: SURFACE, on_precice: true },
        Method {
            name: "linear-cell-interpolation",
            tag: |_| plain("linear-cell-interpolation"),
            sizes: CUBE,
            on_precice: true,
        },
        // A dense system: 45² ≈ 2·10³ vertices is where the dense factorisation already takes seconds.
        Method {
            name: "rbf-global-direct",
            tag: |_| rbf("rbf-global-direct", "", "<basis-function:thin-plate-splines/>"),
            sizes: &[10, 32, 45],
            on_precice: true,
        },
        // Compact support of five grid spacings: about 80 non-zeros a row at every size.
        Method {
            name: "rbf-global-iterative",
            tag: |n| {
                let r = 5.0 / (n - 1) as f64;
                rbf(
                    "rbf-global-iterative",
                    r#" solver-rtol="1e-9""#,
                    &format!(r#"<basis-function:compact-polynomial-c2 support-radius="{r}"/>"#),
                )
            },
            sizes: SURFACE,
            on_precice: false,
        },
        Method {
            name: "rbf-pum-direct",
            tag: |_| rbf("rbf-pum-direct", "", "<basis-function:thin-plate-splines/>"),
            sizes: SURFACE,
            on_precice: true,
        },
    ]
}

/// A mesh: flat coordinates and elements.
struct Mesh {
    coords: Vec<f64>,
    connectivity: Connectivity,
}

/// A's mesh and B's points for `method` at grid size `n`.
fn meshes(method: &str, n: usize) -> (Mesh, Mesh) {
    if method == "linear-cell-interpolation" {
        (cube(n, true), cube(n - 1, false))
    } else {
        (surface(n, true), surface(n - 1, false))
    }
}

/// The surface z = 0.2·x·y as an n×n grid, with two triangles per cell when `elements`.
fn surface(n: usize, elements: bool) -> Mesh {
    let h = 1.0 / (n - 1) as f64;
    let coords = (0..n * n).flat_map(|k| {
        let (x, y) = ((k % n) as f64 * h, (k / n) as f64 * h);
        [x, y, 0.2 * x * y]
    });
    let mut c = Connectivity::default();
    if elements {
        let id = |i: usize, j: usize| j * n + i;
        for j in 0..n - 1 {
            for i in 0..n - 1 {
                c.triangles.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
                c.triangles.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
            }
        }
    }
    Mesh { coords: coords.collect(), connectivity: c }
}

/// The unit cube as an n³ grid, with the six tetrahedra of Kuhn's triangulation per cell when `elements`.
fn cube(n: usize, elements: bool) -> Mesh {
    let h = 1.0 / (n - 1) as f64;
    let coords = (0..n * n * n).flat_map(|k| [(k % n) as f64 * h, (k / n % n) as f64 * h, (k / (n * n)) as f64 * h]);
    let mut c = Connectivity::default();
    if elements {
        let id = |p: [usize; 3]| p[2] * n * n + p[1] * n + p[0];
        let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
        for k in 0..n - 1 {
            for j in 0..n - 1 {
                for i in 0..n - 1 {
                    for o in orders {
                        let mut p = [i, j, k];
                        let mut t = [id(p); 4];
                        for (s, axis) in o.iter().enumerate() {
                            p[*axis] += 1;
                            t[s + 1] = id(p);
                        }
                        c.tetrahedra.push(t);
                    }
                }
            }
        }
    }
    Mesh { coords: coords.collect(), connectivity: c }
}

/// The field A writes: smooth, not linear.
fn field(x: &[f64]) -> f64 {
    1.0 + x[0] - 2.0 * x[1] + 3.0 * x[2] + 0.3 * (3.0 * x[0]).sin() * (2.0 * x[1]).cos()
}

/// The configuration: A provides its mesh and writes T; B receives it and reads T through `mapping`.
fn config(mapping: &str) -> String {
    format!(
        r#"<?xml version="1.0"?>
<precice-configuration>
  <profiling mode="all" flush-every="0"/>
  <data:scalar name="T"/>
  <mesh name="A-Mesh" dimensions="3"><use-data name="T"/></mesh>
  <mesh name="B-Mesh" dimensions="3"><use-data name="T"/></mesh>
  <participant name="A">
    <provide-mesh name="A-Mesh"/>
    <write-data name="T" mesh="A-Mesh"/>
  </participant>
  <participant name="B">
    <provide-mesh name="B-Mesh"/>
    <receive-mesh name="A-Mesh" from="A"/>
    <read-data name="T" mesh="B-Mesh"/>
    {mapping}
  </participant>
  <m2n:sockets acceptor="A" connector="B" exchange-directory="."/>
  <coupling-scheme:serial-explicit>
    <participants first="A" second="B"/>
    <max-time-windows value="{WINDOWS}"/>
    <time-window-size value="1"/>
    <exchange data="T" mesh="A-Mesh" from="A" to="B"/>
  </coupling-scheme:serial-explicit>
</precice-configuration>
"#
    )
}

/// Median of `v` (not empty).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Native build and apply times in seconds for `method` at grid size `n`, on the current rayon pool.
fn native(method: &Method, n: usize) -> (f64, f64) {
    let (a, b) = meshes(method.name, n);
    let text = config(&(method.tag)(n));
    let (cfg, _) = tidelink_precice_config::parse_str(&text, Path::new("precice-config.xml"))
        .unwrap_or_else(|d| panic!("configuration: {d:?}"));
    let decl = &cfg.participants.iter().find(|p| p.name == "B").expect("participant B").mappings[0];
    let mut from = MeshState::new(3, false);
    from.coords = a.coords;
    from.connectivity = a.connectivity;
    from.connectivity.preprocess();
    let mut to = MeshState::new(3, true);
    to.coords = b.coords;
    let input: Vec<f64> = from.coords.chunks(3).map(field).collect();
    let start = Instant::now();
    let mapping: Box<dyn Mapping> =
        build(decl, &from, &to).unwrap_or_else(|e| panic!("{} at n = {n}: {e}", method.name));
    let built = start.elapsed().as_secs_f64();
    let applies = (0..APPLY_REPEATS)
        .map(|_| {
            let start = Instant::now();
            let out = mapping.map(&input, 1);
            let took = start.elapsed().as_secs_f64();
            assert_eq!(out.len(), to.vertex_count());
            took
        })
        .collect();
    (built, median(applies))
}

#[cfg(feature = "precice")]
mod on_precice {
    //! The libprecice half: two participant processes and libprecice's profiling events.
    use super::*;
    use std::collections::HashMap;
    use std::process::{Command, Stdio};
    use std::time::Duration;
    use tidelink_coupling::Backend;

    /// Environment of a participant process: role, method, grid size, configuration.
    const ENV: [&str; 4] = ["TL_BENCH_ROLE", "TL_BENCH_METHOD", "TL_BENCH_N", "TL_BENCH_CONFIG"];

    /// The participant process named by [`ENV`], when this process is one.
    pub fn participant() -> bool {
        let [Some(role), Some(method), Some(n), Some(config)] = ENV.map(|k| std::env::var(k).ok()) else {
            return false;
        };
        let n: usize = n.parse().expect("grid size");
        let (a, b) = meshes(&method, n);
        let run = || -> tidelink_coupling::Result<()> {
            let mut p = tidelink_coupling::open(Backend::Precice, &role, Path::new(&config))?;
            if role == "A" {
                let mut ids = vec![0; a.coords.len() / 3];
                p.set_mesh_vertices("A-Mesh", &a.coords, &mut ids)?;
                if p.requires_mesh_connectivity_for("A-Mesh")? {
                    let flat = |v: &[usize]| v.iter().map(|&i| ids[i]).collect::<Vec<_>>();
                    p.set_mesh_triangles("A-Mesh", &flat(a.connectivity.triangles.as_flattened()))?;
                    p.set_mesh_tetrahedra("A-Mesh", &flat(a.connectivity.tetrahedra.as_flattened()))?;
                }
                p.initialize()?;
                let t: Vec<f64> = a.coords.chunks(3).map(field).collect();
                for _ in 0..WINDOWS {
                    p.write_data("A-Mesh", "T", &ids, &t)?;
                    p.advance(1.0)?;
                }
            } else {
                let mut ids = vec![0; b.coords.len() / 3];
                p.set_mesh_vertices("B-Mesh", &b.coords, &mut ids)?;
                p.initialize()?;
                let mut t = vec![0.0; ids.len()];
                for _ in 0..WINDOWS {
                    p.read_data("B-Mesh", "T", &ids, 1.0, &mut t)?;
                    p.advance(1.0)?;
                }
            }
            p.finalize()
        };
        if let Err(e) = run() {
            eprintln!("participant {role}: {e}");
            std::process::exit(1);
        }
        true
    }

    /// libprecice's build and apply times in seconds for `method` at grid size `n`.
    pub fn measure(method: &Method, n: usize) -> Result<(f64, f64), String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let config = dir.path().join("precice-config.xml");
        std::fs::write(&config, super::config(&(method.tag)(n))).map_err(|e| e.to_string())?;
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut children = Vec::new();
        for role in ["A", "B"] {
            let log = std::fs::File::create(dir.path().join(format!("{role}.log"))).map_err(|e| e.to_string())?;
            let values = [role, method.name, &n.to_string(), &config.display().to_string()];
            let mut c = Command::new(&exe);
            c.envs(ENV.iter().zip(values)).current_dir(dir.path()).stdin(Stdio::null());
            c.stdout(log.try_clone().map_err(|e| e.to_string())?).stderr(log);
            children.push(c.spawn().map_err(|e| e.to_string())?);
        }
        let deadline = Instant::now() + Duration::from_secs(600);
        for child in &mut children {
            loop {
                match child.try_wait().map_err(|e| e.to_string())? {
                    Some(s) if s.success() => break,
                    Some(s) => {
                        let log = std::fs::read_to_string(dir.path().join("B.log")).unwrap_or_default();
                        return Err(format!("a participant failed ({s}): {}", log.trim()));
                    }
                    None if Instant::now() > deadline => {
                        children.iter_mut().for_each(|c| drop(c.kill()));
                        return Err("a participant hung".into());
                    }
                    None => std::thread::sleep(Duration::from_millis(10)),
                }
            }
        }
        let events = read_events(&dir.path().join("precice-profiling/B-0-1.txt"))?;
        let pick = |what: &str| {
            events
                .iter()
                .find(|(name, _)| {
                    let parts: Vec<&str> = name.splitn(4, '.').collect();
                    parts.len() == 4 && parts[0] == "map" && parts[2] == what && parts[3].starts_with("From")
                })
                .map(|(_, d)| median(d.clone()))
                .ok_or_else(|| format!("no event map.*.{what}.From… in B's profile"))
        };
        Ok((pick("computeMapping")?, pick("mapData")?))
    }

    /// The durations (seconds) of each event of a libprecice events file (`N<id>:<name>`,
    /// `B<id>:<µs>`, `E<id>:<µs>` lines after a JSON header).
    fn read_events(path: &Path) -> Result<Vec<(String, Vec<f64>)>, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut names = HashMap::new();
        let mut open: HashMap<&str, Vec<f64>> = HashMap::new();
        let mut done: HashMap<&str, Vec<f64>> = HashMap::new();
        for line in text.lines().skip(1) {
            let (kind, rest) = line.split_at(1.min(line.len()));
            let Some((id, value)) = rest.split_once(':') else { continue };
            match kind {
                "N" => drop(names.insert(id, value.to_string())),
                "B" => open.entry(id).or_default().push(value.parse().unwrap_or(f64::NAN)),
                "E" => {
                    if let Some(begin) = open.get_mut(id).and_then(Vec::pop) {
                        let end: f64 = value.parse().unwrap_or(f64::NAN);
                        done.entry(id).or_default().push((end - begin) * 1e-6);
                    }
                }
                _ => {}
            }
        }
        Ok(done.into_iter().map(|(id, d)| (names.get(id).cloned().unwrap_or_default(), d)).collect())
    }
}

/// One row of the table: medians of native (all cores), native (one thread), libprecice.
struct Row {
    method: &'static str,
    vertices: (usize, usize),
    native: [f64; 2],
    single: [f64; 2],
    precice: Option<[f64; 2]>,
}

/// Least-squares slope of log t against log n: the exponent of t ∝ nᵏ.
fn exponent(points: &[(f64, f64)]) -> f64 {
    let pts: Vec<(f64, f64)> = points.iter().filter(|p| p.1 > 0.0).map(|&(n, t)| (n.ln(), t.ln())).collect();
    let k = pts.len() as f64;
    let (mx, my) = (pts.iter().map(|p| p.0).sum::<f64>() / k, pts.iter().map(|p| p.1).sum::<f64>() / k);
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    sxy / sxx
}

fn main() {
    #[cfg(feature = "precice")]
    if on_precice::participant() {
        return;
    }
    #[cfg(not(feature = "precice"))]
    println!("libprecice half skipped: built without the feature `precice`");
    let rounds: usize = std::env::var("TL_BENCH_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(3);
    let only = std::env::var("TL_BENCH_ONLY").ok();
    let methods: Vec<Method> = methods().into_iter().filter(|m| only.as_ref().is_none_or(|o| o == m.name)).collect();
    let single = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a one-thread pool");
    let grids: Option<Vec<usize>> = std::env::var("TL_BENCH_GRIDS")
        .ok()
        .map(|g| g.split(',').map(|n| n.trim().parse().expect("TL_BENCH_GRIDS: grid sizes such as 316,100")).collect());
    let cases: Vec<(&Method, usize)> = methods
        .iter()
        .flat_map(|m| m.sizes.iter().map(move |&n| (m, n)))
        .filter(|(_, n)| grids.as_ref().is_none_or(|g| g.contains(n)))
        .collect();
    type Samples = [Vec<f64>; 6];
    let mut samples: Vec<Samples> = cases.iter().map(|_| Default::default()).collect();
    for round in 1..=rounds {
        for ((method, n), s) in cases.iter().zip(&mut samples) {
            let (nb, na) = native(method, *n);
            let (sb, sa) = single.install(|| native(method, *n));
            #[cfg_attr(not(feature = "precice"), allow(unused_mut))]
            let mut line = format!(
                "round {round}: {:<26} n={n:<4} native {:.3e}/{:.3e} s  1 thread {:.3e}/{:.3e} s",
                method.name, nb, na, sb, sa
            );
            for (v, x) in s.iter_mut().zip([nb, na, sb, sa]) {
                v.push(x);
            }
            #[cfg(feature = "precice")]
            if method.on_precice {
                match on_precice::measure(method, *n) {
                    Ok((pb, pa)) => {
                        line += &format!("  libprecice {pb:.3e}/{pa:.3e} s");
                        s[4].push(pb);
                        s[5].push(pa);
                    }
                    Err(e) => line += &format!("  libprecice failed: {e}"),
                }
            }
            println!("{line}");
        }
    }
    let rows: Vec<Row> = cases
        .iter()
        .zip(samples)
        .map(|((m, n), s)| {
            let (a, b) = meshes(m.name, *n);
            let [nb, na, sb, sa, pb, pa] = s.map(|v| if v.is_empty() { f64::NAN } else { median(v) });
            Row {
                method: m.name,
                vertices: (a.coords.len() / 3, b.coords.len() / 3),
                native: [nb, na],
                single: [sb, sa],
                precice: (!pb.is_nan()).then_some([pb, pa]),
            }
        })
        .collect();
    println!("\nmedians of {rounds} rounds (build = computeMapping, apply = mapData of one scalar sample), ms:");
    println!(
        "| method | vertices in / out | native build | native apply | 1-thread build | 1-thread apply | libprecice build | libprecice apply | build ratio | apply ratio |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let ms = |x: f64| format!("{:.3}", x * 1e3);
    for r in &rows {
        let (pb, pa, rb, ra) = match r.precice {
            Some([pb, pa]) => (ms(pb), ms(pa), format!("{:.2}", pb / r.native[0]), format!("{:.2}", pa / r.native[1])),
            None => ("–".into(), "–".into(), "–".into(), "–".into()),
        };
        println!(
            "| {} | {} / {} | {} | {} | {} | {} | {pb} | {pa} | {rb} | {ra} |",
            r.method,
            r.vertices.0,
            r.vertices.1,
            ms(r.native[0]),
            ms(r.native[1]),
            ms(r.single[0]),
            ms(r.single[1])
        );
    }
    println!("\nratio = libprecice / native (all cores): above 1, native is faster.");
    println!("\nfitted exponent k of t ∝ n^k (n = input vertices), over the sizes run:");
    println!("| method | native build | native apply | libprecice build | libprecice apply |");
    println!("|---|---|---|---|---|");
    for m in &methods {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.method == m.name).collect();
        let fit = |f: &dyn Fn(&Row) -> Option<f64>| {
            let pts: Vec<(f64, f64)> = mine.iter().filter_map(|r| f(r).map(|t| (r.vertices.0 as f64, t))).collect();
            if pts.len() < 2 {
                "–".to_string()
            } else {
                format!("{:.2}", exponent(&pts))
            }
        };
        println!(
            "| {} | {} | {} | {} | {} |",
            m.name,
            fit(&|r| Some(r.native[0])),
            fit(&|r| Some(r.native[1])),
            fit(&|r| r.precice.map(|p| p[0])),
            fit(&|r| r.precice.map(|p| p[1]))
        );
    }
}
