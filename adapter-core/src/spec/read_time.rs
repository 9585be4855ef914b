//! Read-time rule (docs/design/coupling-semantics.md §6.3): reading at the window end (`read_data_time: WINDOW_END`) is
//! only sound for a participant that runs second in every serial explicit scheme it is part of,
//! because only then has the partner already produced the current window's data. Implicit
//! schemes repeat a window until it converges, so there every participant reads the
//! partner's end-of-window value of the converged iteration: WINDOW_END is sound in any of them.

use super::model::ReadDataTime;
use crate::config::*;
use crate::diagnostics::{Diagnostics, Location};

const LAG: &str =
    "With WINDOW_START (the default) the data read over a window is the partner's value from the previous \
                   window: a one-window lag, which acts like negative damping on a restoring force.";

/// Checks a participant's requested read time against the coupling schemes of `cfg`.
pub fn check_read_data_time(
    cfg: &PreciceConfig,
    participant: &str,
    read_time: ReadDataTime,
    loc: &Location,
) -> Diagnostics {
    let mut out = Diagnostics::default();
    if read_time == ReadDataTime::WindowStart {
        return out;
    }
    let xml = cfg.path.display();
    let schemes: Vec<&CouplingSchemeDecl> = cfg.schemes_of(participant).collect();
    if schemes.is_empty() {
        out.error(
            loc.clone(),
            format!(
                "read_data_time: WINDOW_END was requested for participant \"{participant}\", but it takes part in no coupling scheme \
                 of {xml}. WINDOW_END is only valid for the participant listed second in a serial scheme; add it as second=\"{participant}\" \
                 to a <coupling-scheme:serial-explicit>, or use WINDOW_START."
            ),
        );
        return out;
    }
    for s in schemes.into_iter().filter(|s| !s.kind.is_implicit()) {
        let at = format!("<coupling-scheme:{}> ({})", s.kind.tag(), s.loc);
        if !s.kind.is_serial() {
            let why = if s.kind == SchemeKind::Multi {
                "a multi scheme runs all participants concurrently"
            } else {
                "a parallel scheme runs both participants concurrently"
            };
            out.error(
                loc.clone(),
                format!(
                    "read_data_time: WINDOW_END is not possible for participant \"{participant}\" in {at}: {why}, so neither has produced \
                     the current window's data when the other reads it. {LAG} To remove the lag use a serial scheme with \
                     \"{participant}\" listed second (e.g. first=\"Fluid\" second=\"Solid\"); otherwise set read_data_time: WINDOW_START."
                ),
            );
        } else if s.first == participant {
            out.error(
                loc.clone(),
                format!(
                    "read_data_time: WINDOW_END is not possible for participant \"{participant}\": it is listed first in {at}, so it \
                     runs before \"{}\" in each window and the data it would read at the window end does not exist yet. {LAG} Swap \
                     the order (first=\"{}\" second=\"{participant}\") or set read_data_time: WINDOW_START. With several schemes the \
                     participant has to be second in every one of them.",
                    s.second, s.second
                ),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::parse_str;
    use std::path::Path;

    fn cfg(schemes: &str) -> PreciceConfig {
        let text = format!(
            r#"<precice-configuration>
  <data:scalar name="D1"/>
  <data:scalar name="D2"/>
  <mesh name="M" dimensions="3"><use-data name="D1"/><use-data name="D2"/></mesh>
  <participant name="A"><provide-mesh name="M"/></participant>
  <participant name="B"><receive-mesh name="M" from="A"/></participant>
  <participant name="C"><receive-mesh name="M" from="A"/></participant>
  <m2n:sockets acceptor="A" connector="B"/>
  <m2n:sockets acceptor="A" connector="C"/>
  <m2n:sockets acceptor="B" connector="C"/>
  {schemes}
</precice-configuration>"#
        );
        match parse_str(&text, Path::new("t.xml")) {
            Ok((c, _)) => c,
            Err(e) => panic!("{e}"),
        }
    }

    fn scheme(kind: &str, first: &str, second: &str, data: &str) -> String {
        format!(
            r#"<coupling-scheme:{kind}><participants first="{first}" second="{second}"/><max-time-windows value="2"/>
  <time-window-size value="0.1"/><exchange data="{data}" mesh="M" from="{first}" to="{second}"/></coupling-scheme:{kind}>"#
        )
    }

    fn errors(c: &PreciceConfig, who: &str) -> Vec<String> {
        let loc = Location::new("p.yaml", 7);
        let d = check_read_data_time(c, who, ReadDataTime::WindowEnd, &loc);
        assert!(d.0.iter().all(|x| x.location == loc));
        d.errors().map(|e| e.message.clone()).collect()
    }

    #[test]
    fn second_in_serial_is_fine() {
        let c = cfg(&scheme("serial-explicit", "A", "B", "D1"));
        assert!(errors(&c, "B").is_empty());
    }

    #[test]
    fn window_start_is_always_fine() {
        let c = cfg(&scheme("parallel-explicit", "A", "B", "D1"));
        let d = check_read_data_time(&c, "A", ReadDataTime::WindowStart, &Location::default());
        assert!(d.0.is_empty());
    }

    #[test]
    fn first_in_serial_is_an_error() {
        let c = cfg(&scheme("serial-explicit", "A", "B", "D1"));
        let e = errors(&c, "A");
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].contains("listed first") && e[0].contains("one-window lag"), "{}", e[0]);
    }

    #[test]
    fn parallel_is_an_error() {
        let c = cfg(&scheme("parallel-explicit", "A", "B", "D1"));
        let e = errors(&c, "B");
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].contains("parallel scheme") && e[0].contains("serial scheme"), "{}", e[0]);
    }

    #[test]
    fn second_in_one_but_first_in_another_is_an_error() {
        let c = cfg(&(scheme("serial-explicit", "A", "B", "D1") + &scheme("serial-explicit", "B", "C", "D2")));
        let e = errors(&c, "B");
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].contains("every one of them"), "{}", e[0]);
    }

    #[test]
    fn second_in_two_serial_schemes_is_fine() {
        let c = cfg(&(scheme("serial-explicit", "A", "B", "D1") + &scheme("serial-explicit", "C", "B", "D2")));
        assert!(errors(&c, "B").is_empty());
    }

    #[test]
    fn any_place_in_an_implicit_scheme_is_fine() {
        for kind in ["serial-implicit", "parallel-implicit"] {
            let text = scheme(kind, "A", "B", "D1").replace(
                "</coupling-scheme",
                r#"<exchange data="D2" mesh="M" from="B" to="A"/><max-iterations value="3"/></coupling-scheme"#,
            );
            let c = cfg(&text);
            assert!(errors(&c, "A").is_empty() && errors(&c, "B").is_empty(), "{kind}");
        }
    }

    #[test]
    fn no_scheme_is_an_error() {
        let c = cfg(&scheme("serial-explicit", "A", "B", "D1"));
        let e = errors(&c, "Nobody");
        assert_eq!(e.len(), 1);
        assert!(e[0].contains("no coupling scheme"));
    }
}
