//! The native coupling engine: preCICE v3's observable semantics between processes
//! over TCP. Module names follow preCICE's own decomposition.
