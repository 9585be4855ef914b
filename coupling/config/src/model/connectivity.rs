//! Which meshes need their elements (preCICE's mesh requirement, docs/design/coupling-semantics.md
//! §7.5): a mapping that searches edges, triangles or cells needs them on the mesh it searches,
//! a scaled-consistent one on both meshes, and a mesh's provider stores and sends them when
//! any participant that receives the mesh needs them.

use super::{MappingConstraint, MappingDecl, MappingMethod, PreciceConfig};

impl MappingDecl {
    /// Whether the mapping needs the elements of its `from` mesh and of its `to` mesh.
    pub fn needs_connectivity(&self) -> (bool, bool) {
        let scaled = matches!(
            self.constraint,
            MappingConstraint::ScaledConsistentSurface | MappingConstraint::ScaledConsistentVolume
        );
        if scaled {
            return (true, true);
        }
        match self.method {
            MappingMethod::NearestProjection | MappingMethod::LinearCellInterpolation => {
                let consistent = self.constraint == MappingConstraint::Consistent;
                (consistent, !consistent)
            }
            _ => (false, false),
        }
    }
}

impl PreciceConfig {
    /// Whether participant `name` must store the elements of `mesh`: one of its own mappings
    /// needs them, or (for a mesh it provides) a mapping of a participant that receives the
    /// mesh from it does. What `requiresMeshConnectivityFor` answers.
    pub fn needs_connectivity(&self, name: &str, mesh: &str) -> bool {
        let own = |participant: &str| {
            self.participant(participant).is_some_and(|p| {
                p.mappings.iter().any(|m| {
                    let (from, to) = m.needs_connectivity();
                    (from && m.from == mesh) || (to && m.to == mesh)
                })
            })
        };
        if own(name) {
            return true;
        }
        let Some(me) = self.participant(name) else { return false };
        me.provides(mesh)
            && self
                .participants
                .iter()
                .filter(|p| p.receives(mesh).is_some_and(|r| r.from == name))
                .any(|p| own(&p.name))
    }
}

#[cfg(test)]
mod tests {
    use crate::parse_str;
    use std::path::Path;

    /// A provides MA, B provides MB and receives MA, mapping it onto MB with `mapping`.
    fn config(mapping: &str) -> crate::PreciceConfig {
        let text = format!(
            r#"<?xml version="1.0"?>
<precice-configuration>
  <data:scalar name="T"/>
  <mesh name="MA" dimensions="3"><use-data name="T"/></mesh>
  <mesh name="MB" dimensions="3"><use-data name="T"/></mesh>
  <participant name="A"><provide-mesh name="MA"/><write-data name="T" mesh="MA"/></participant>
  <participant name="B"><provide-mesh name="MB"/><receive-mesh name="MA" from="A"/>
    <read-data name="T" mesh="MB"/>{mapping}</participant>
  <m2n:sockets acceptor="A" connector="B"/>
  <coupling-scheme:serial-explicit><participants first="A" second="B"/><max-time value="1"/>
    <time-window-size value="0.1"/><exchange data="T" mesh="MA" from="A" to="B"/></coupling-scheme:serial-explicit>
</precice-configuration>"#
        );
        parse_str(&text, Path::new("c.xml")).map(|(c, _)| c).unwrap_or_else(|d| panic!("{d}"))
    }

    fn needs(mapping: &str) -> [bool; 4] {
        let c = config(mapping);
        [
            c.needs_connectivity("A", "MA"),
            c.needs_connectivity("B", "MA"),
            c.needs_connectivity("B", "MB"),
            c.needs_connectivity("A", "MB"),
        ]
    }

    #[test]
    fn the_searched_mesh_needs_elements_and_the_requirement_travels_to_its_provider() {
        let np = r#"<mapping:nearest-projection direction="read" from="MA" to="MB" constraint="consistent"/>"#;
        // B searches MA (received from A): both B and A (the provider, who must send them) store MA's elements.
        assert_eq!(needs(np), [true, true, false, false]);
        let nn = r#"<mapping:nearest-neighbor direction="read" from="MA" to="MB" constraint="consistent"/>"#;
        assert_eq!(needs(nn), [false; 4]);
        let scaled =
            r#"<mapping:nearest-neighbor direction="read" from="MA" to="MB" constraint="scaled-consistent-surface"/>"#;
        assert_eq!(needs(scaled), [true, true, true, false]);
        let rbf = r#"<mapping:rbf-global-direct direction="read" from="MA" to="MB" constraint="consistent"><basis-function:thin-plate-splines/></mapping:rbf-global-direct>"#;
        assert_eq!(needs(rbf), [false; 4]);
    }
}
