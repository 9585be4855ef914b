//! Helpers for the tests of this crate and of the engine (feature `testing`): the small
//! two-participant file their cases vary.

/// A two-participant file: data `T` (scalar) and `F` (declared by `f_decl`, a whole
/// `<data:*>` tag) on mesh `MA` of `A`, which `B` receives; A writes T, B writes F; one
/// `<coupling-scheme:{kind}>` of A and B whose children after `<participants>` are `body`.
/// Line 2 holds T's declaration, line 17 `<participants>`, so body starts on line 18.
pub fn pair_xml(f_decl: &str, kind: &str, body: &str) -> String {
    format!(
        r#"<precice-configuration>
  <data:scalar name="T"/>
  {f_decl}
  <mesh name="MA" dimensions="2"><use-data name="T"/><use-data name="F"/></mesh>
  <participant name="A">
    <provide-mesh name="MA"/>
    <write-data name="T" mesh="MA"/>
    <read-data name="F" mesh="MA"/>
  </participant>
  <participant name="B">
    <receive-mesh name="MA" from="A"/>
    <read-data name="T" mesh="MA"/>
    <write-data name="F" mesh="MA"/>
  </participant>
  <m2n:sockets acceptor="A" connector="B"/>
  <coupling-scheme:{kind}>
    <participants first="A" second="B"/>
{body}
  </coupling-scheme:{kind}>
</precice-configuration>
"#
    )
}
