//! Coupling schemes (preCICE's `cplscheme`): who sends what when, what a reader sees inside
//! a window, and — for implicit schemes — iterations, convergence and checkpoints. A
//! participant holds one scheme per `<coupling-scheme:*>` it takes part in; several of them
//! form a compositional scheme (docs/design/coupling-semantics.md §5.5, §11.7).

mod convergence;
mod implicit;
mod logs;
mod scheme;
mod unconverged;

pub use scheme::{CouplingScheme, Role};
