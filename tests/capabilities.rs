//! Each participant program's `--capabilities` (declared in its code) against the table of
//! docs/design/participants.md, so the documentation cannot drift from what the programs do.

mod support;

use std::process::Command;

/// The programs with a participant file of their own, (package, binary).
const PROGRAMS: &[(&str, &str)] = &[
    ("tidelink-mbs", "tidelink-mbs"),
    ("tidelink-tdpf", "tidelink-tdpf"),
    ("tidelink-sph", "tidelink-sph"),
    ("tidelink-buoyancy", "tidelink-buoyancy"),
    ("tidelink-buoyancy", "tidelink-stream"),
];

/// The lines of the capabilities table in the document: its header and one row per program.
fn documented() -> Vec<String> {
    let doc = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/design/participants.md");
    let text = std::fs::read_to_string(&doc).unwrap_or_else(|e| panic!("read {}: {e}", doc.display()));
    let header = tidelink_adapter_core::Capabilities::HEADER;
    let start =
        text.lines().position(|l| l == header).unwrap_or_else(|| panic!("{} has no line `{header}`", doc.display()));
    text.lines().skip(start).take_while(|l| l.starts_with('|')).map(str::to_string).collect()
}

#[test]
fn every_program_prints_the_row_the_design_document_lists() {
    let bin_dir = support::participant_programs(PROGRAMS);
    let table = documented();
    assert_eq!(table.len(), 2 + PROGRAMS.len(), "header, rule and one row per program: {table:#?}");
    for (_, bin) in PROGRAMS {
        let out = Command::new(bin_dir.join(bin)).arg("--capabilities").output().expect("run the program");
        assert!(out.status.success(), "{bin} --capabilities: {out:?}");
        let text = String::from_utf8(out.stdout).expect("text");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{bin} --capabilities printed {text}");
        assert_eq!(lines[0], table[0], "{bin}: the header");
        let row = table.iter().find(|r| r.starts_with(&format!("| `{bin}` |")));
        assert_eq!(Some(&lines[1].to_string()), row, "{bin}: its row in docs/design/participants.md");
    }
}
