//! What the native engine does not do (docs/design/coupling-semantics.md §10), found on the
//! configuration alone: the features it refuses, each an error at the tag's line. (Its output
//! files, watch-points, watch-integrals and exports, it writes: none of them is refused.)
//!
//! `NativeParticipant::from_config` refuses with these errors;
//! `native::check` returns them, so that `--check` and `tidelink check` report exactly what a
//! run would stop on, with the same words and location.

use tidelink_precice_config::diagnostics::Diagnostics;
use tidelink_precice_config::{M2nDecl, M2nKind, PreciceConfig};

/// The refusal of an `<m2n:mpi…>`: the native engine speaks TCP only.
pub(crate) fn m2n_transport_message(m: &M2nDecl) -> Option<String> {
    let tag = match m.kind {
        M2nKind::Sockets => return None,
        M2nKind::Mpi => "m2n:mpi",
        M2nKind::MpiMultiplePorts => "m2n:mpi-multiple-ports",
    };
    Some(format!(
        "{tag} can only be used if preCICE was compiled with MPI support enabled. Either switch to a \"sockets\" \
         communication or use the precice backend built with MPI."
    ))
}

/// Every feature of participant `name`'s part of `cfg` the native engine refuses, each an error
/// at its tag.
pub(crate) fn findings(cfg: &PreciceConfig, name: &str) -> Diagnostics {
    let mut d = Diagnostics::default();
    let Some(me) = cfg.participant(name) else { return d };
    for rm in me.receive_meshes.iter().filter(|r| r.api_access) {
        d.error(
            rm.loc.clone(),
            format!(
                "api-access=\"true\" on <receive-mesh name=\"{}\"> (direct access to a received mesh) is not supported by \
                 the native engine; map the data onto a provided mesh instead, or run with the precice backend.",
                rm.name
            ),
        );
    }
    for m in &me.mappings {
        let dim = cfg.mesh(&m.from).or_else(|| cfg.mesh(&m.to)).map_or(3, |d| d.dimensions);
        if let Some(why) = super::mapping::unsupported(m, dim) {
            d.error(m.loc.clone(), why);
        } else if m.from.is_empty() || m.to.is_empty() {
            d.error(
                m.loc.clone(),
                format!(
                    "just-in-time mapping (mapping:{} without {}) is not supported by the native engine; give both from \
                     and to, or run with the precice backend.",
                    m.method.tag(),
                    if m.from.is_empty() { "from" } else { "to" }
                ),
            );
        }
    }
    for a in &me.actions {
        d.error(
            a.loc.clone(),
            format!(
                "action:{} is not supported by the native engine: it would leave the data of mesh \"{}\" unchanged. \
                 Remove the action, or run with the precice backend.",
                a.kind, a.mesh
            ),
        );
    }
    for m in cfg.m2ns.iter().filter(|m| m.acceptor == name || m.connector == name) {
        if let Some(msg) = m2n_transport_message(m) {
            d.error(m.loc.clone(), msg);
        } else if m.connector == name {
            // The side that listens needs the interface's address (before any connection).
            if let Err(e) = super::m2n::interface_ip(&m.network) {
                let hint =
                    "set network= of <m2n:sockets> to one of them, or leave it out (\"lo\") for a run on one machine.";
                d.error(m.loc.clone(), format!("{} ({hint})", e.message));
            }
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::super::{check, NativeParticipant};
    use std::path::Path;
    use tidelink_precice_config::{parse_str, PreciceConfig};

    /// B receives MA at line 16, maps what it reads with `mapping` (line 18) and carries `extra`
    /// (from line 19 on); the m2n follows B.
    fn config(root: &str, receive: &str, mapping: &str, extra: &str, m2n: &str) -> PreciceConfig {
        let text = format!(
            r#"<?xml version="1.0"?>
<precice-configuration{root}>
  <data:scalar name="T"/>
  <mesh name="MA" dimensions="2">
    <use-data name="T"/>
  </mesh>
  <mesh name="MB" dimensions="2">
    <use-data name="T"/>
  </mesh>
  <participant name="A">
    <provide-mesh name="MA"/>
    <write-data name="T" mesh="MA"/>
  </participant>
  <participant name="B">
    <provide-mesh name="MB"/>
    <receive-mesh name="MA" from="A"{receive}/>
    <read-data name="T" mesh="MB"/>
    {mapping}
    {extra}
  </participant>
  <{m2n} acceptor="A" connector="B"/>
  <coupling-scheme:serial-explicit>
    <participants first="A" second="B"/>
    <max-time value="1"/>
    <time-window-size value="0.1"/>
    <exchange data="T" mesh="MA" from="A" to="B"/>
  </coupling-scheme:serial-explicit>
</precice-configuration>
"#
        );
        match parse_str(&text, Path::new("c.xml")) {
            Ok((cfg, _)) => cfg,
            Err(d) => panic!("the test configuration does not validate:\n{d}\n{text}"),
        }
    }

    const NN: &str = r#"<mapping:nearest-neighbor direction="read" from="MA" to="MB" constraint="consistent"/>"#;

    fn lines(cfg: &PreciceConfig, name: &str) -> Vec<String> {
        check(cfg, name).0.iter().map(|d| d.to_string()).collect()
    }

    #[test]
    fn nearest_neighbor_and_sockets_are_accepted_silently() {
        let cfg = config("", "", NN, "", "m2n:sockets");
        assert!(lines(&cfg, "A").is_empty() && lines(&cfg, "B").is_empty(), "{:?}", lines(&cfg, "B"));
        assert!(NativeParticipant::from_config("B", cfg).is_ok());
    }

    #[test]
    fn nearest_neighbor_gradient_is_accepted_silently() {
        let nng = r#"<mapping:nearest-neighbor-gradient direction="read" from="MA" to="MB" constraint="consistent"/>"#;
        let cfg = config(r#" experimental="true""#, "", nng, "", "m2n:sockets");
        assert!(lines(&cfg, "A").is_empty() && lines(&cfg, "B").is_empty(), "{:?}", lines(&cfg, "B"));
        assert!(NativeParticipant::from_config("B", cfg.clone()).is_ok());
        // The gradients are asked of A, who writes T on MA.
        let a = NativeParticipant::from_config("A", cfg).expect("A runs");
        assert!(a.requires_gradient_data_for("MA", "T").unwrap());
    }

    #[test]
    fn every_refused_feature_is_an_error_at_its_tag_and_a_run_refuses_them_all() {
        let rbf = r#"<mapping:rbf-global-direct direction="read" from="MA" to="MB" constraint="consistent"><basis-function:thin-plate-splines/><executor:cuda/></mapping:rbf-global-direct>"#;
        let action = r#"<action:multiply-by-area timing="read-mapping-post" mesh="MB"><target-data name="T"/></action:multiply-by-area>"#;
        let cfg = config("", "", rbf, action, "m2n:mpi");
        let found = lines(&cfg, "B");
        let expected = [
            "c.xml:18: error: <mapping:rbf-global-direct> from mesh \"MA\" to mesh \"MB\": <executor:cuda> is not \
             available in the native engine, which maps on the CPU. Remove the executor tag or use <executor:cpu/>.",
            "c.xml:19: error: action:multiply-by-area is not supported by the native engine: it would leave the data \
             of mesh \"MB\" unchanged. Remove the action, or run with the precice backend.",
            "c.xml:21: error: m2n:mpi can only be used if preCICE was compiled with MPI support enabled. Either switch \
             to a \"sockets\" communication or use the precice backend built with MPI.",
        ];
        assert_eq!(found, expected);
        // A run stops on the same errors, every one of them, at construction.
        let run = NativeParticipant::from_config("B", cfg.clone()).err().expect("refused").message;
        let run: Vec<&str> = run.lines().collect();
        let without_severity: Vec<String> = expected.iter().map(|e| e.replacen(" error:", "", 1)).collect();
        assert_eq!(run, without_severity);
        // A does not map or act; only the transport it shares with B is refused.
        assert_eq!(lines(&cfg, "A"), [expected[2].to_string()]);
    }

    #[test]
    fn direct_access_and_just_in_time_mapping_are_refused() {
        let jit = r#"<mapping:nearest-neighbor direction="read" from="MA" constraint="consistent"/>"#;
        let cfg = config(r#" experimental="true""#, r#" api-access="true""#, jit, NN, "m2n:sockets");
        let found = lines(&cfg, "B");
        assert_eq!(found.len(), 2, "{found:#?}");
        assert!(
            found[0].starts_with("c.xml:16: error: api-access=\"true\" on <receive-mesh name=\"MA\"> (direct access")
        );
        assert!(found[1].starts_with("c.xml:18: error: just-in-time mapping (mapping:nearest-neighbor without to)"));
    }

    #[test]
    fn watch_points_watch_integrals_and_exports_are_accepted_silently() {
        let extra = r#"<watch-point name="P" mesh="MB" coordinate="0;1"/>
    <watch-integral name="I" mesh="MB" scale-with-connectivity="false"/>
    <export:vtu directory="out"/>
    <export:vtp/>
    <export:vtk every-n-time-windows="2"/>
    <export:csv every-iteration="true"/>"#;
        let cfg = config("", "", NN, extra, "m2n:sockets");
        // Written by native/watch.rs, native/watch_integral.rs and native/export/: nothing refused.
        assert!(lines(&cfg, "B").is_empty(), "{:?}", lines(&cfg, "B"));
        assert!(lines(&cfg, "A").is_empty(), "{:?}", lines(&cfg, "A"));
        let b = NativeParticipant::from_config("B", cfg).expect("B runs with every output tag");
        drop(b);
    }

    #[test]
    fn the_first_other_construction_error_is_reported_at_its_line() {
        // B's exchange of T needs a write on A's side: drop A's write-data.
        let cfg = config("", "", NN, "", "m2n:sockets");
        let mut broken = cfg.clone();
        broken.participants[0].write_data.clear();
        let found = lines(&broken, "A");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0]
            .starts_with("c.xml:10: error: participant \"A\" sends data \"T\" on mesh \"MA\" but does not write it"));
    }
}
