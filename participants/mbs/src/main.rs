//! `tidelink-mbs <participant.yaml> --precice-config <xml> [--backend native|precice] [--check]`,
//! or `tidelink-mbs linearize <participant.yaml> --precice-config <xml> [-o DIR] [--hydro FILE]`
//! (the state-space model; the shared entry point sees every other command line).

fn main() -> std::process::ExitCode {
    let mut args = std::env::args_os().skip(1);
    if args.next().is_some_and(|a| a == "linearize") {
        return tidelink_mbs::linearize::main(args);
    }
    tidelink_adapter_core::cli::main::<tidelink_mbs::participant::Mbs>(
        "tidelink-mbs",
        "Multibody (solid) participant: rigid bodies, joints, springs and dampers, coupled through reference frames or points. `tidelink-mbs linearize --help`: its state-space model.",
    )
}
