//! A solver dummy on the native engine, with the command line and behaviour of preCICE's solver
//! dummies (precice/precice `examples/solverdummies`, precice/python-bindings
//! `examples/solverdummy`), so that it couples with any of them through their
//! `precice-config.xml`:
//!
//! ```sh
//! cargo run -p tidelink-coupling --example solverdummy -- precice-config.xml SolverOne
//! cargo run -p tidelink-coupling --example solverdummy -- precice-config.xml SolverTwo
//! ```
//!
//! `SolverOne` writes `Data-One` and reads `Data-Two` on `SolverOne-Mesh`; `SolverTwo` the
//! other way round on `SolverTwo-Mesh`. Three vertices, vertex i at (i, …, i); the data start
//! at i in every component. Each step reads the partner's data at the end of the step, writes
//! it plus one and advances by the largest step allowed. Checkpoints are announced, not kept:
//! the dummy has no state. Where the configuration asks for initial data it writes the
//! starting values before `initialize` (the C++ dummy only says so). At the end it prints the last values it read and wrote, so that two
//! runs can be compared.

use std::path::Path;
use tidelink_coupling::native::{NativeParticipant, Settings};
use tidelink_coupling::{Coupling, CouplingData, CouplingError, VertexId};

const USAGE: &str = "The solverdummy was called with an incorrect number of arguments. Usage: solverdummy \
                     configFile solverName\n\nParameter description\n  configurationFile: Path and filename of \
                     preCICE configuration\n  solverName:        SolverDummy participant name in preCICE \
                     configuration";

/// (mesh, data written, data read) of participant `name`.
fn roles(name: &str) -> Result<(&'static str, &'static str, &'static str), CouplingError> {
    match name {
        "SolverOne" => Ok(("SolverOne-Mesh", "Data-One", "Data-Two")),
        "SolverTwo" => Ok(("SolverTwo-Mesh", "Data-Two", "Data-One")),
        other => Err(CouplingError::config(format!(
            "unknown participant \"{other}\": the solver dummy is SolverOne or SolverTwo"
        ))),
    }
}

/// `n` vertices of `components` values each, all equal to the vertex's index (flat).
fn per_vertex(n: usize, components: usize) -> Vec<f64> {
    (0..n).flat_map(|i| std::iter::repeat_n(i as f64, components)).collect()
}

/// The last values read and written, flat (vertex-major).
struct Last {
    read: Vec<f64>,
    written: Vec<f64>,
}

fn run(config: &Path, name: &str) -> Result<Last, CouplingError> {
    let (mesh, write_name, read_name) = roles(name)?;
    let mut p = NativeParticipant::with_settings(name, config, Settings::from_env()?)?;
    const VERTICES: usize = 3;
    if p.requires_mesh_connectivity_for(mesh)? {
        return Err(CouplingError::config(format!("the solver dummy has no connectivity to give for {mesh}")));
    }
    let dim = p.get_mesh_dimensions(mesh)?;
    let (read_dim, write_dim) = (p.get_data_dimensions(mesh, read_name)?, p.get_data_dimensions(mesh, write_name)?);

    p.start_profiling_section("Define mesh")?;
    let vertices: Vec<f64> = per_vertex(VERTICES, dim);
    let mut ids: Vec<VertexId> = vec![0; VERTICES];
    p.set_mesh_vertices(mesh, &vertices, &mut ids)?;
    p.stop_last_profiling_section()?;

    let mut read: Vec<f64> = per_vertex(VERTICES, read_dim);
    let mut written: Vec<f64> = per_vertex(VERTICES, write_dim);
    if read_dim != write_dim {
        return Err(CouplingError::config(format!(
            "{read_name} has {read_dim} components and {write_name} {write_dim}: the dummy writes what it reads plus one"
        )));
    }

    if p.requires_initial_data()? {
        println!("DUMMY: Writing initial data");
        p.write_data(mesh, write_name, &ids, &written)?;
    }
    p.initialize()?;

    while p.is_coupling_ongoing()? {
        if p.requires_writing_checkpoint()? {
            println!("DUMMY: Writing iteration checkpoint");
        }
        let dt = p.get_max_time_step_size()?;
        p.read_data(mesh, read_name, &ids, dt, &mut read)?;
        p.start_profiling_section("Solve")?;
        written = read.iter().map(|r| r + 1.0).collect();
        p.stop_last_profiling_section()?;
        p.write_data(mesh, write_name, &ids, &written)?;
        p.advance(dt)?;
        if p.requires_reading_checkpoint()? {
            println!("DUMMY: Reading iteration checkpoint");
        } else {
            println!("DUMMY: Advancing in time");
        }
    }
    p.finalize()?;
    Ok(Last { read, written })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [config, name] = args.as_slice() else {
        println!("{USAGE}");
        std::process::exit(1)
    };
    println!("DUMMY: Running solver dummy with preCICE config file \"{config}\" and participant name \"{name}\".");
    match run(Path::new(config), name) {
        Ok(last) => {
            println!("DUMMY: last read {:?}, last written {:?}", last.read, last.written);
            println!("DUMMY: Closing Rust solver dummy...");
        }
        Err(e) => {
            eprintln!("{name}: {e}");
            std::process::exit(1)
        }
    }
}
