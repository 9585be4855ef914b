//! The one error type of the coupling layer, with a kind saying whose fault it is, so callers
//! and tests decide on the kind and only users read the message.

use thiserror::Error;

/// What went wrong, by origin: the caller can tell a bad file from a bad call from a lost partner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The preCICE configuration (or the settings a participant was opened with) cannot be run.
    Config,
    /// A call of the participant API in the wrong state or with wrong arguments (preCICE's misuse errors).
    Misuse,
    /// A partner failed, aborted, went away or never came.
    Partner,
    /// The partners disagree about what is exchanged: an unexpected or inconsistent message.
    Protocol,
    /// A file or socket operation of this participant failed.
    Io,
    /// The program stopped a waiting call (the settings' interrupt hook: Ctrl-C in Python).
    Interrupted,
}

/// Any error of the coupling layer: API misuse, configuration, communication.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{message}")]
pub struct CouplingError {
    /// Whose fault it is; decide on this, not on the message.
    pub kind: ErrorKind,
    /// The whole message, in preCICE's words where preCICE has them.
    pub message: String,
}

impl CouplingError {
    /// An error of `kind` with `message`.
    pub fn with_kind(kind: ErrorKind, message: impl Into<String>) -> Self {
        CouplingError { kind, message: message.into() }
    }

    /// A misuse error with `message`: what a stand-in coupling of a test raises for a call it
    /// does not expect. The engines use the constructors named after the kinds.
    pub fn new(message: impl Into<String>) -> Self {
        Self::misuse(message)
    }

    /// An [`ErrorKind::Config`] error.
    pub fn config(message: impl Into<String>) -> Self {
        Self::with_kind(ErrorKind::Config, message)
    }

    /// An [`ErrorKind::Misuse`] error.
    pub fn misuse(message: impl Into<String>) -> Self {
        Self::with_kind(ErrorKind::Misuse, message)
    }

    /// An [`ErrorKind::Partner`] error.
    pub fn partner(message: impl Into<String>) -> Self {
        Self::with_kind(ErrorKind::Partner, message)
    }

    /// An [`ErrorKind::Protocol`] error.
    pub fn protocol(message: impl Into<String>) -> Self {
        Self::with_kind(ErrorKind::Protocol, message)
    }

    /// An [`ErrorKind::Io`] error.
    pub fn io(message: impl Into<String>) -> Self {
        Self::with_kind(ErrorKind::Io, message)
    }

    /// An [`ErrorKind::Interrupted`] error.
    pub fn interrupted(message: impl Into<String>) -> Self {
        Self::with_kind(ErrorKind::Interrupted, message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_see_the_message_alone_and_new_is_a_misuse() {
        let e = CouplingError::new("unexpected read of \"Force\"");
        assert_eq!(e.kind, ErrorKind::Misuse);
        assert_eq!(e.to_string(), "unexpected read of \"Force\"");
        assert_eq!(CouplingError::partner("gone").kind, ErrorKind::Partner);
    }
}
