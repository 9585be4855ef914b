//! Coupling schemes (preCICE's `cplscheme`): who sends what when, and what a reader
//! sees inside a window. A participant holds one bi-scheme per partner it is coupled
//! with; several of them form a compositional scheme (docs/design/coupling-semantics.md §5.5).

mod bi;

pub use bi::BiScheme;
