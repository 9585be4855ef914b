//! Files in and out: Chrono's MBS model file ([`model_yaml`], with its shapes in `shape_yaml`) and
//! solver file ([`solver_yaml`], its linear solver in `linear_solver_yaml`) into solver structs; the body states out as CSV ([`output`]), HDF5
//! ([`hdf5_output`]), a ParaView scene of the bodies' shapes ([`scene`]) and PNG plots ([`plot`]); the links'
//! absorbed power ([`link_output`]); all of them on one schedule of output times ([`schedule`]).

pub mod hdf5_output;
mod linear_solver_yaml;
pub mod link_output;
pub mod model_yaml;
pub mod output;
pub mod plot;
pub mod scene;
pub mod schedule;
mod shape_yaml;
pub mod solver_yaml;
mod tessellate;
