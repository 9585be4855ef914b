"""Linear mooring: a 6-DOF body-force module. Per body, a spring and damper to its start pose:
force = -K (x - x0) - C v (N, world axes), moment = -Kr (rpy - rpy0) - Cr omega (N m).

The positional API (``ExternalForceModule``): per body the host sends 12 channels (position,
roll/pitch/yaw, velocity, angular velocity; world frame) and takes 6 back (force, moment).
The start pose x0, rpy0 is the first state the module sees, and comes back with ``reset``.

config: stiffness [Kx, Ky, Kz] (N/m), damping [Cx, Cy, Cz] (N s/m), rot_stiffness [Kr...]
(N m/rad), rot_damping [Cr...] (N m s/rad); each default 0.
"""

import _find_helper  # noqa: F401
from tidelink_pto import ExternalForceModule, run


def _triple(cfg, key):
    v = cfg.get(key, [0.0, 0.0, 0.0])
    if len(v) != 3:
        raise ValueError(f"config {key} must have 3 values, not {v!r}")
    return [float(x) for x in v]


class LinearMooring(ExternalForceModule):
    def initialize(self, cfg):
        if self.kind != "body_force" or self.n_inputs != 2 * self.n_outputs:
            raise ValueError(f"a body-force module (12 inputs, 6 outputs per body), not {self.kind!r}")
        self.k = _triple(cfg, "stiffness")
        self.c = _triple(cfg, "damping")
        self.kr = _triple(cfg, "rot_stiffness")
        self.cr = _triple(cfg, "rot_damping")
        self.rest = None
        return {"name": "LinearMooring", "version": "1.0", "n_states": 0}

    def reset(self):
        self.rest = None

    def evaluate(self, t, dt, inputs):
        bodies = [inputs[i : i + 12] for i in range(0, len(inputs), 12)]
        if self.rest is None:
            self.rest = [b[0:6] for b in bodies]
        out = []
        for b, rest in zip(bodies, self.rest):
            out += [-self.k[i] * (b[i] - rest[i]) - self.c[i] * b[6 + i] for i in range(3)]
            out += [-self.kr[i] * (b[3 + i] - rest[3 + i]) - self.cr[i] * b[9 + i] for i in range(3)]
        return out


if __name__ == "__main__":
    run(LinearMooring())
