//! The engine's version line, `getVersionInformation`: libprecice's shape, so that tools which
//! read it (preCICE's FMI runner checks the first field) treat the native engine as a preCICE 3.

/// The preCICE release whose participant API and semantics the native engine reproduces (and is
/// differential-tested against): the first field of [`version_information`].
const PRECICE_API_VERSION: &str = "3.4.1";

/// The engine's version line, shaped as libprecice's `getVersionInformation`
/// (`VERSION;REVISION;FEATURE=VALUE;...`), so that tools which check the first field for a
/// preCICE 3 (preCICE's FMI runner does) accept the native engine; the second field names it.
pub fn version_information() -> String {
    format!(
        "{PRECICE_API_VERSION};{};PRECICE_FEATURE_MPI_COMMUNICATION=N;PRECICE_FEATURE_PETSC_MAPPING=N;\
         PRECICE_FEATURE_GINKGO_MAPPING=N;PRECICE_FEATURE_PYTHON_ACTIONS=N;PRECICE_BINDINGS_C=N;\
         PRECICE_BINDINGS_FORTRAN=N",
        engine_banner()
    )
}

/// "Tidelink native engine X.Y.Z": the second field of [`version_information`], which tells
/// this engine from libprecice.
fn engine_banner() -> String {
    format!("Tidelink native engine {}", env!("CARGO_PKG_VERSION"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_line_has_libprecices_fields() {
        let info = version_information();
        let fields: Vec<&str> = info.split(';').collect();
        assert!(fields[0].starts_with("3."), "{info}");
        assert!(fields[1].starts_with("Tidelink native engine"), "{info}");
        assert!(fields[2..].iter().all(|f| f.starts_with("PRECICE_") && f.contains('=')), "{info}");
    }
}
