"""A small co-simulation master: an FMI 3.0 co-simulation FMU of an MBS model (tidelink-mbs-fmu)
as a preCICE participant on one RIGID_BODY_REFS mesh, through the `precice` Python module
(Tidelink's native engine, `pip install ./bindings/python`, or pyprecice on libprecice).

It does what preCICE's FMI runner (the `fmiprecice` package) does — checkpoints with
fmi3GetFMUState/fmi3SetFMUState for implicit schemes, one fmi3DoStep per time window — but for
several vertices (one per coupled body, in the FMU's body order) and several data: fmiprecice
0.2.1 couples one vertex with one read and one write datum (docs/fmi.md).

    python cosim_master.py model.fmu --participant Solid --config precice-config.xml \
        --mesh SolidMesh --output solid.csv

Loads read are applied at the window end (`read_data_time: WINDOW_END`, as the MBS participant
files of the RM3 cases): the FMU holds them over the step. The CSV has the time and every FMU
output at the end of each converged window, the start included.
"""

import argparse
import csv
import sys
import tempfile

import numpy as np
import fmpy
from fmpy.fmi3 import FMU3Slave

# Default data: name -> the FMU variable prefix of its three components (`float.fx`, `float.x`).
READS = {"forces": "f", "torques": "t"}
WRITES = {"positions": "", "rotations": "r", "velocities": "v", "angular_velocities": "w"}


def parse_map(text, default):
    """`a=p,b=q` into a dict (empty prefix allowed), or the default."""
    if text is None:
        return dict(default)
    out = {}
    for item in text.split(","):
        name, _, prefix = item.partition("=")
        out[name.strip()] = prefix.strip()
    return out


def run(fmu_path, participant_name, config, mesh, output, reads=None, writes=None, start_values=None, quiet=True):
    """Couples the FMU as `participant_name`; its unpacked copy lives in a temporary folder that is
    removed at the end (an FMU's binary can be hundreds of MB)."""
    with tempfile.TemporaryDirectory(prefix="tidelink-fmu-") as unzipdir:
        unzipped = fmpy.extract(fmu_path, unzipdir=unzipdir)
        return _run(fmu_path, unzipped, participant_name, config, mesh, output, reads, writes, start_values, quiet)


def _run(fmu_path, unzipped, participant_name, config, mesh, output, reads, writes, start_values, quiet):
    import precice  # our module (or pyprecice): imported here so that --help works without it

    reads = reads or dict(READS)
    writes = writes or dict(WRITES)
    md = fmpy.read_model_description(fmu_path)
    vr = {v.name: v.valueReference for v in md.modelVariables}
    outputs = [v.name for v in md.modelVariables if v.causality == "output"]
    # The coupled bodies: those with a force input, in the FMU's order.
    bodies = [v.name[: -len(".fx")] for v in md.modelVariables if v.causality == "input" and v.name.endswith(".fx")]
    fmu = FMU3Slave(guid=md.guid, unzipDirectory=unzipped, modelIdentifier=md.coSimulation.modelIdentifier,
                    instanceName=participant_name)
    fmu.instantiate(loggingOn=not quiet)
    fmu.enterInitializationMode(startTime=0.0)
    for name, value in (start_values or {}).items():
        fmu.setFloat64([vr[name]], [float(value)])
    fmu.exitInitializationMode()

    def vrs(prefix):
        return [vr[f"{b}.{prefix}{a}"] for b in bodies for a in "xyz"]

    participant = precice.Participant(participant_name, config, 0, 1)
    # One vertex per body, at its reference point now (what the MBS participant registers).
    coords = np.array(fmu.getFloat64(vrs(writes.get("positions", "")))).reshape(len(bodies), 3)
    ids = participant.set_mesh_vertices(mesh, coords)

    def write_all():
        for name, prefix in writes.items():
            values = np.array(fmu.getFloat64(vrs(prefix))).reshape(len(bodies), 3)
            participant.write_data(mesh, name, ids, values)

    if participant.requires_initial_data():
        write_all()
    participant.initialize()
    t = 0.0
    rows = [[t] + list(fmu.getFloat64([vr[o] for o in outputs]))]
    state = None
    iterations = 0
    while participant.is_coupling_ongoing():
        if participant.requires_writing_checkpoint():
            if state is not None:
                fmu.freeFMUState(state)
            state = fmu.getFMUState()
            t_checkpoint = t
        dt = participant.get_max_time_step_size()
        for name, prefix in reads.items():
            values = participant.read_data(mesh, name, ids, dt)
            fmu.setFloat64(vrs(prefix), list(np.asarray(values, dtype=float).reshape(-1)))
        fmu.doStep(currentCommunicationPoint=t, communicationStepSize=dt, noSetFMUStatePriorToCurrentPoint=False)
        iterations += 1
        write_all()
        t += dt
        participant.advance(dt)
        if participant.requires_reading_checkpoint():
            fmu.setFMUState(state)
            t = t_checkpoint
        elif participant.is_time_window_complete():
            rows.append([t] + list(fmu.getFloat64([vr[o] for o in outputs])))
    participant.finalize()
    if state is not None:
        fmu.freeFMUState(state)
    fmu.terminate()
    fmu.freeInstance()
    with open(output, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["time"] + outputs)
        for r in rows:
            w.writerow([repr(x) for x in r])
    return {"windows": len(rows) - 1, "steps": iterations}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("fmu")
    p.add_argument("--participant", required=True, help="the preCICE participant the FMU plays")
    p.add_argument("--config", required=True, help="the preCICE configuration")
    p.add_argument("--mesh", required=True, help="its RIGID_BODY_REFS mesh (one vertex per body)")
    p.add_argument("--output", default="fmu_results.csv")
    p.add_argument("--read", help="data read, name=prefix,... (default forces=f,torques=t)")
    p.add_argument("--write", help="data written (default positions=,rotations=r,velocities=v,angular_velocities=w)")
    p.add_argument("--set", action="append", default=[], help="name=value start values (e.g. pto.damping=1e6)")
    a = p.parse_args(argv)
    starts = dict(s.split("=", 1) for s in a.set)
    info = run(a.fmu, a.participant, a.config, a.mesh, a.output, parse_map(a.read, READS),
               parse_map(a.write, WRITES), starts)
    print(f"{a.output}: {info['windows']} windows, {info['steps']} fmi3DoStep calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
