//! The two conversions every fluid participant's own error type needs, written once.

/// Gives a participant's error enum `$error` its two conversions. `$error` has a variant
/// `Files(Diagnostics)` (file-and-line findings) and a variant `Interface(AdapterError)` (an error
/// of the adapter layer, passed on as it is):
/// - `$error::into_build_error`: findings stay [`Diagnostics`](crate::diagnostics::Diagnostics)
///   (so `--check` reports each at its line), any other error keeps its chain;
/// - `From<$error> for AdapterError`: the adapter layer's errors unwrapped, the participant's own
///   kept whole as [`AdapterError::Participant`](crate::AdapterError::Participant).
#[macro_export]
macro_rules! participant_error_conversions {
    ($error:ident) => {
        impl $error {
            /// As a participant's build error: findings stay `Diagnostics` (so `--check` reports
            /// each at its line), any other error keeps its chain.
            pub fn into_build_error(self) -> $crate::participant::BuildError {
                match self {
                    $error::Files(d) => Box::new(d),
                    e => Box::new(e),
                }
            }
        }

        impl From<$error> for $crate::AdapterError {
            fn from(e: $error) -> Self {
                match e {
                    $error::Interface(e) => e,
                    e => $crate::AdapterError::participant(e),
                }
            }
        }
    };
}
