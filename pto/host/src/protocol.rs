//! Protocol v2: the messages sent to a module and the checks on its replies.
//!
//! The module speaks first: its first frame is `hello` (protocol, token), the token it found
//! in its environment ([`crate::TOKEN_ENV`]); the host accepts no other connection (v2; v1
//! had no hello). Sent: `initialize` (protocol, kind, n_inputs, n_outputs, dt, in_names, config), `evaluate`
//! (t, dt, in), `reset`, `commit`, `rollback`, `shutdown`. Every reply is an object with
//! `status`; anything but `"ok"` is a failure (with the module's `message`). The reply to
//! `initialize` must carry `name`, `version` and `n_states`; the reply to `evaluate` an `out`
//! array of exactly `n_outputs` numbers.

use serde_json::{json, Value};
use thiserror::Error;

/// The protocol version of `hello` and `initialize` (2: the module's first frame is `hello`).
pub const PROTOCOL_VERSION: u32 = 2;

/// The largest first frame read from a connection (a hello is about 120 bytes).
pub const MAX_HELLO: usize = 4096;

/// Why a connection's first frame is not the hello of the host's own child.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HelloError {
    /// Not a `hello` object (its JSON, cut short).
    #[error("its first frame is not a hello: {0}")]
    NotHello(String),
    /// Another protocol version.
    #[error(
        "it speaks protocol {0}, this host {PROTOCOL_VERSION}: a module built on an older helper must use the helper \
         of this version (pto/python/tidelink_pto, pto/matlab), which sends the hello for it"
    )]
    Version(String),
    /// No token, or another one than the child was given.
    #[error("its hello does not carry the token given to the module process (not the host's own child)")]
    Token,
}

/// The hello a module sends first (the helpers' `hello`).
pub fn hello(token: &str) -> Value {
    json!({"op": "hello", "protocol": PROTOCOL_VERSION, "token": token})
}

/// Checks a connection's first frame: a hello of this protocol carrying `token` (compared in
/// constant time).
pub fn check_hello(first: &Value, token: &str) -> Result<(), HelloError> {
    let Some(obj) = first.as_object().filter(|o| o.get("op").and_then(Value::as_str) == Some("hello")) else {
        return Err(HelloError::NotHello(short(first)));
    };
    match obj.get("protocol") {
        Some(p) if p.as_u64() == Some(u64::from(PROTOCOL_VERSION)) => {}
        Some(p) => return Err(HelloError::Version(p.to_string())),
        None => return Err(HelloError::Version("(none)".into())),
    }
    let theirs = obj.get("token").and_then(Value::as_str).unwrap_or("").as_bytes();
    let ours = token.as_bytes();
    let differ = theirs.len() != ours.len() || theirs.iter().zip(ours).fold(0u8, |acc, (a, b)| acc | (a ^ b)) != 0;
    if differ {
        return Err(HelloError::Token);
    }
    Ok(())
}

/// What a module says about itself in its `initialize` reply.
#[derive(Debug, Clone, PartialEq)]
pub struct ModuleInfo {
    /// The module's name.
    pub name: String,
    /// The module's version.
    pub version: String,
    /// How many internal states it keeps (0 for a stateless law).
    pub n_states: u64,
}

/// What the host tells a module in `initialize`.
#[derive(Debug, Clone, PartialEq)]
pub struct Initialize<'a> {
    /// `pto`, `pto_tsda`, `pto_rsda` or `body_force`.
    pub kind: &'a str,
    /// The input channel names (their count is `n_inputs`).
    pub in_names: &'a [String],
    /// The number of outputs expected from `evaluate`.
    pub n_outputs: usize,
    /// The solver's time step (s).
    pub dt: f64,
    /// The module's own settings, passed through.
    pub config: &'a Value,
}

/// The `initialize` message.
pub fn initialize(m: &Initialize) -> Value {
    json!({
        "op": "initialize",
        "protocol": PROTOCOL_VERSION,
        "kind": m.kind,
        "n_inputs": m.in_names.len(),
        "n_outputs": m.n_outputs,
        "dt": m.dt,
        "in_names": m.in_names,
        "config": m.config,
    })
}

/// The `evaluate` message.
pub fn evaluate(t: f64, dt: f64, inputs: &[f64]) -> Value {
    json!({"op": "evaluate", "t": t, "dt": dt, "in": inputs})
}

/// A message without fields: `reset`, `commit`, `rollback` or `shutdown`.
pub fn bare(op: &str) -> Value {
    json!({ "op": op })
}

/// What is wrong with a module's reply; the message says which key or value.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ReplyError {
    /// The reply is not an object (its JSON, cut short).
    #[error("the reply is not a JSON object: {0}")]
    NotAnObject(String),
    /// The module answered a status other than `ok`, with its `message`.
    #[error("the module answered status \"{status}\": {message}")]
    Status {
        /// The status it answered.
        status: String,
        /// Its `message`, or `(no message)`.
        message: String,
    },
    /// The reply has no string `status` (its JSON, cut short).
    #[error("the reply has no string `status`: {0}")]
    NoStatus(String),
    /// A text field of the `initialize` reply holds something else.
    #[error("`{key}` must be a string, got {value}")]
    NotText {
        /// `name` or `version`.
        key: String,
        /// What it holds.
        value: String,
    },
    /// A required field of the `initialize` reply is missing.
    #[error("the initialize reply lacks `{0}` (name, version and n_states are required)")]
    Lacks(String),
    /// `n_states` is not a non-negative integer.
    #[error("`n_states` must be a non-negative integer, got {0}")]
    States(String),
    /// The `evaluate` reply has no `out` array (its JSON, cut short).
    #[error("the evaluate reply has no `out` array: {0}")]
    NoOut(String),
    /// `out` holds another number of values than announced.
    #[error("`out` has {got} values, {expected} expected")]
    OutLength {
        /// Values in `out`.
        got: usize,
        /// `n_outputs` of `initialize`.
        expected: usize,
    },
    /// A value of `out` is not a finite number.
    #[error("`out[{index}]` is not a finite number: {value}")]
    NotFinite {
        /// Its place in `out`.
        index: usize,
        /// What it is.
        value: String,
    },
}

/// The reply's object, if its status is `ok`; else what is wrong with it.
pub fn check_status(reply: &Value) -> Result<&serde_json::Map<String, Value>, ReplyError> {
    let Some(obj) = reply.as_object() else {
        return Err(ReplyError::NotAnObject(short(reply)));
    };
    match obj.get("status").and_then(Value::as_str) {
        Some("ok") => Ok(obj),
        Some(other) => {
            let msg = obj.get("message").and_then(Value::as_str).unwrap_or("(no message)");
            Err(ReplyError::Status { status: other.to_string(), message: msg.to_string() })
        }
        None => Err(ReplyError::NoStatus(short(reply))),
    }
}

/// The `initialize` reply's `name`, `version`, `n_states`.
pub fn module_info(reply: &Value) -> Result<ModuleInfo, ReplyError> {
    let obj = check_status(reply)?;
    let text = |key: &str| match obj.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Number(n)) => Ok(n.to_string()),
        Some(v) => Err(ReplyError::NotText { key: key.to_string(), value: v.to_string() }),
        None => Err(ReplyError::Lacks(key.to_string())),
    };
    let n_states = match obj.get("n_states") {
        Some(v) => v.as_u64().ok_or_else(|| ReplyError::States(v.to_string()))?,
        None => return Err(ReplyError::Lacks("n_states".into())),
    };
    Ok(ModuleInfo { name: text("name")?, version: text("version")?, n_states })
}

/// The `evaluate` reply's `out`, checked to hold `n_outputs` finite numbers.
pub fn outputs(reply: &Value, n_outputs: usize) -> Result<Vec<f64>, ReplyError> {
    let obj = check_status(reply)?;
    let Some(arr) = obj.get("out").and_then(Value::as_array) else {
        return Err(ReplyError::NoOut(short(reply)));
    };
    if arr.len() != n_outputs {
        return Err(ReplyError::OutLength { got: arr.len(), expected: n_outputs });
    }
    arr.iter()
        .enumerate()
        .map(|(i, v)| match v.as_f64() {
            Some(x) if x.is_finite() => Ok(x),
            _ => Err(ReplyError::NotFinite { index: i, value: v.to_string() }),
        })
        .collect()
}

/// A value's JSON, cut to 300 characters for messages.
pub fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() <= 300 {
        s
    } else {
        format!("{}…", s.chars().take(300).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initialize_carries_every_field() {
        let names = vec!["displacement".to_string(), "velocity".to_string()];
        let cfg = json!({"damping": 1.2e6});
        let m = initialize(&Initialize { kind: "pto", in_names: &names, n_outputs: 1, dt: 0.01, config: &cfg });
        assert_eq!(
            m,
            json!({"op": "initialize", "protocol": 2, "kind": "pto", "n_inputs": 2, "n_outputs": 1, "dt": 0.01,
                   "in_names": ["displacement", "velocity"], "config": {"damping": 1.2e6}})
        );
        assert_eq!(
            evaluate(1.23, 0.01, &[0.05, -0.12]),
            json!({"op": "evaluate", "t": 1.23, "dt": 0.01, "in": [0.05, -0.12]})
        );
    }

    #[test]
    fn only_the_hello_with_the_token_passes() {
        let token = "00ff".repeat(8);
        assert_eq!(check_hello(&hello(&token), &token), Ok(()));
        assert_eq!(check_hello(&hello("00ff"), &token), Err(HelloError::Token));
        assert_eq!(check_hello(&json!({"op": "hello", "protocol": 2}), &token), Err(HelloError::Token));
        let e = check_hello(&json!({"op": "hello", "protocol": 1, "token": token}), &token).unwrap_err();
        assert!(e.to_string().contains("protocol 1, this host 2"), "{e}");
        let e = check_hello(&json!({"status": "ok", "out": [0.0]}), &token).unwrap_err().to_string();
        assert!(e.contains("not a hello"), "{e}");
    }

    #[test]
    fn replies_are_checked() {
        let ok = json!({"status": "ok", "name": "MyPTO", "version": "1.0", "n_states": 0});
        assert_eq!(module_info(&ok).unwrap(), ModuleInfo { name: "MyPTO".into(), version: "1.0".into(), n_states: 0 });
        let e = module_info(&json!({"status": "ok", "name": "x", "version": "1"})).unwrap_err().to_string();
        assert!(e.contains("lacks `n_states`"), "{e}");
        let e = outputs(&json!({"status": "error", "message": "division by zero"}), 1).unwrap_err().to_string();
        assert!(e.contains("\"error\"") && e.contains("division by zero"), "{e}");
        assert_eq!(outputs(&json!({"status": "ok", "out": [-144000.0]}), 1).unwrap(), vec![-144000.0]);
        let e = outputs(&json!({"status": "ok", "out": [1.0, 2.0]}), 1).unwrap_err().to_string();
        assert!(e.contains("2 values, 1 expected"), "{e}");
        let e = outputs(&json!({"status": "ok", "out": ["a"]}), 1).unwrap_err().to_string();
        assert!(e.contains("out[0]"), "{e}");
        assert!(check_status(&json!([1])).unwrap_err().to_string().contains("not a JSON object"));
        assert!(check_status(&json!({"out": []})).unwrap_err().to_string().contains("no string `status`"));
    }
}
