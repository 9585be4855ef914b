//! Which data carry gradients (preCICE's gradient flag of a datum on a mesh,
//! docs/design/coupling-semantics.md §7.6): a nearest-neighbor-gradient mapping needs the
//! gradients of every datum it maps, on its input (`from`) mesh. The flag belongs to the
//! datum on that mesh, not to the participant that maps it, so it travels to whoever writes
//! the datum there: the participant itself for a write mapping, the mesh's provider for a
//! read mapping of a received mesh. That writer is asked for gradients
//! (`requiresGradientDataFor`), sends them with the values, and the mapping reads them.

use super::{MappingDecl, MappingDirection, MappingMethod, PreciceConfig};

impl MappingDecl {
    /// Whether the mapping reads the gradients of its input data (nearest-neighbor-gradient).
    pub fn needs_gradients(&self) -> bool {
        self.method == MappingMethod::NearestNeighborGradient
    }
}

impl PreciceConfig {
    /// Whether datum `data` on `mesh` carries gradients: some participant's
    /// nearest-neighbor-gradient mapping maps it from `mesh`. A write mapping maps the data its
    /// participant writes on `from` that `to` uses; a read mapping the data its participant
    /// reads on `to` that `from` uses (libprecice's pairing of mappings and data contexts).
    pub fn needs_gradients(&self, mesh: &str, data: &str) -> bool {
        let uses = |m: &str| self.mesh(m).is_some_and(|d| d.use_data.iter().any(|u| u == data));
        self.participants.iter().any(|p| {
            p.mappings.iter().filter(|m| m.needs_gradients() && m.from == mesh).any(|m| match m.direction {
                MappingDirection::Write => {
                    p.write_data.iter().any(|w| w.name == data && w.mesh == m.from) && uses(&m.to)
                }
                MappingDirection::Read => p.read_data.iter().any(|r| r.name == data && r.mesh == m.to) && uses(&m.from),
            })
        })
    }

    /// What `requiresGradientDataFor(mesh, data)` answers for participant `name`: it writes
    /// the datum and the datum carries gradients. Data a participant only reads never do.
    pub fn requires_gradient_data(&self, name: &str, mesh: &str, data: &str) -> bool {
        self.participant(name).is_some_and(|p| p.write_data.iter().any(|w| w.name == data && w.mesh == mesh))
            && self.needs_gradients(mesh, data)
    }
}

#[cfg(test)]
mod tests {
    use crate::parse_str;
    use std::path::Path;

    /// A provides MA and writes T and V there; B provides MB, receives MA, reads T and V on
    /// MB and maps with `read`; A maps MA → MC (C's mesh) with `write`, where C reads T.
    fn config(read: &str, write: &str) -> crate::PreciceConfig {
        let text = format!(
            r#"<?xml version="1.0"?>
<precice-configuration>
  <data:scalar name="T"/>
  <data:vector name="V"/>
  <mesh name="MA" dimensions="2"><use-data name="T"/><use-data name="V"/></mesh>
  <mesh name="MB" dimensions="2"><use-data name="T"/><use-data name="V"/></mesh>
  <mesh name="MC" dimensions="2"><use-data name="T"/></mesh>
  <participant name="A"><provide-mesh name="MA"/><receive-mesh name="MC" from="C"/>
    <write-data name="T" mesh="MA"/><write-data name="V" mesh="MA"/>{write}</participant>
  <participant name="B"><provide-mesh name="MB"/><receive-mesh name="MA" from="A"/>
    <read-data name="T" mesh="MB"/><read-data name="V" mesh="MB"/>{read}</participant>
  <participant name="C"><provide-mesh name="MC"/><read-data name="T" mesh="MC"/></participant>
  <m2n:sockets acceptor="A" connector="B"/>
  <m2n:sockets acceptor="A" connector="C"/>
  <coupling-scheme:serial-explicit><participants first="A" second="B"/><max-time value="1"/>
    <time-window-size value="0.1"/><exchange data="T" mesh="MA" from="A" to="B"/>
    <exchange data="V" mesh="MA" from="A" to="B"/></coupling-scheme:serial-explicit>
  <coupling-scheme:serial-explicit><participants first="A" second="C"/><max-time value="1"/>
    <time-window-size value="0.1"/><exchange data="T" mesh="MC" from="A" to="C"/></coupling-scheme:serial-explicit>
</precice-configuration>"#
        );
        parse_str(&text, Path::new("c.xml")).map(|(c, _)| c).unwrap_or_else(|d| panic!("{d}"))
    }

    const NN_WRITE: &str = r#"<mapping:nearest-neighbor direction="write" from="MA" to="MC" constraint="consistent"/>"#;

    #[test]
    fn a_read_mapping_asks_the_provider_of_its_input_mesh_for_the_gradients_of_what_it_maps() {
        let nng = r#"<mapping:nearest-neighbor-gradient direction="read" from="MA" to="MB" constraint="consistent"/>"#;
        let c = config(nng, NN_WRITE);
        // B maps T and V from MA: A, who writes them there, is asked; B, who reads, never is.
        assert!(c.needs_gradients("MA", "T") && c.needs_gradients("MA", "V"));
        assert!(c.requires_gradient_data("A", "MA", "T") && c.requires_gradient_data("A", "MA", "V"));
        assert!(!c.requires_gradient_data("B", "MA", "T") && !c.requires_gradient_data("B", "MB", "T"));
        assert!(!c.needs_gradients("MB", "T") && !c.needs_gradients("MC", "T"));
        // The plain method asks nobody.
        let nn = r#"<mapping:nearest-neighbor direction="read" from="MA" to="MB" constraint="consistent"/>"#;
        let c = config(nn, NN_WRITE);
        assert!(!c.needs_gradients("MA", "T") && !c.requires_gradient_data("A", "MA", "T"));
    }

    #[test]
    fn conservative_is_refused_and_scaled_consistent_warned_with_libprecices_words() {
        let with = |constraint: &str| {
            let tag = format!(
                r#"<mapping:nearest-neighbor-gradient direction="read" from="MA" to="MB" constraint="{constraint}"/>"#
            );
            let text = format!(
                r#"<?xml version="1.0"?>
<precice-configuration>
  <data:scalar name="T"/>
  <mesh name="MA" dimensions="2"><use-data name="T"/></mesh>
  <mesh name="MB" dimensions="2"><use-data name="T"/></mesh>
  <participant name="A"><provide-mesh name="MA"/><write-data name="T" mesh="MA"/></participant>
  <participant name="B"><provide-mesh name="MB"/><receive-mesh name="MA" from="A"/>
    <read-data name="T" mesh="MB"/>{tag}</participant>
  <m2n:sockets acceptor="A" connector="B"/>
  <coupling-scheme:serial-explicit><participants first="A" second="B"/><max-time value="1"/>
    <time-window-size value="0.1"/><exchange data="T" mesh="MA" from="A" to="B"/></coupling-scheme:serial-explicit>
</precice-configuration>"#
            );
            parse_str(&text, Path::new("c.xml"))
        };
        let refused = with("conservative").map(|_| ()).unwrap_err().to_string();
        assert!(
            refused.contains(
                "c.xml:8: error: Nearest-neighbor-gradient mapping is not implemented using a \"conservative\" \
                 constraint. Please select constraint=\" consistent\" or a different mapping method."
            ),
            "{refused}"
        );
        let (_, warnings) = with("scaled-consistent-surface").expect("accepted with a warning");
        let warnings = warnings.to_string();
        assert!(
            warnings.contains("c.xml:8: warning: The scaled-consistent mapping hasn't been specifically tested"),
            "{warnings}"
        );
        let (_, warnings) = with("consistent").expect("accepted");
        assert!(warnings.0.is_empty(), "{warnings}");
    }

    #[test]
    fn a_write_mapping_asks_its_own_participant_for_the_data_its_output_mesh_uses() {
        let nn = r#"<mapping:nearest-neighbor direction="read" from="MA" to="MB" constraint="consistent"/>"#;
        let nng = r#"<mapping:nearest-neighbor-gradient direction="write" from="MA" to="MC" constraint="consistent"/>"#;
        let c = config(nn, nng);
        // MC uses T only: V is not mapped to it, so V needs no gradients.
        assert!(c.requires_gradient_data("A", "MA", "T"));
        assert!(!c.needs_gradients("MA", "V") && !c.requires_gradient_data("A", "MA", "V"));
        assert!(!c.requires_gradient_data("C", "MC", "T"));
    }
}
