//! The native coupling engine: preCICE v3's observable semantics between processes
//! over TCP. Module names follow preCICE's own decomposition.

pub mod acceleration;
mod cplscheme;
mod cxx_format;
mod data;
mod export;
mod m2n;
mod mapping;
mod mesh;
mod participant;
pub mod settings;
pub mod time;
mod txt_table;
mod unsupported;
mod watch;
mod watch_integral;

pub use m2n::auth::Secret;
pub use m2n::rendezvous::{clean_precice_run, Cleaned, Owner};
/// The same-machine transport's segment (the engine uses it between partners; public for the round-trip bench).
pub use m2n::shm;
pub use participant::{check, version_information, Element, NativeParticipant};
pub use settings::{Settings, Transport};

/// The mappings without the participants around them: build one from its `<mapping:*>` tag
/// and two meshes, apply it to a sample. The engine runs the same code inside `initialize`
/// and the reads; this is for measuring it alone (the `mappings` benchmark) and for tools.
pub mod mappings {
    pub use super::mapping::{build, Mapping};
    pub use super::mesh::{Connectivity, MeshState};
}
