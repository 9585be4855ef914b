"""Adaptive damping: the linear damper with a damping coefficient that adapts and a force
limit. Same skeleton as linear_damper_pto.py plus three things: c(t), saturation, reset.

Law, once per new time level t (the host asks once per step):
    F = clip(-c v, -f_max, f_max)                    (saturated when |c v| > f_max)
    c <- clip(c + dt * gain * c0 * (|v| - v_ref) / v_ref, c_min, c_max)   (for the next step)
so c grows while the motion is larger than v_ref and shrinks while it is smaller.

config: damping c0, gain (1/s), v_ref (m/s or rad/s), c_min, c_max, f_max (N or N m).
reset() puts c back to c0 and clears the saturation count.
"""

import _find_helper  # noqa: F401
from tidelink_pto import PtoModule, PtoState, run


class AdaptiveDamping(PtoModule):
    def setup(self, cfg):
        self.c0 = float(cfg.get("damping", 1.2e6))
        self.gain = float(cfg.get("gain", 0.05))
        self.v_ref = float(cfg.get("v_ref", 0.5))
        self.c_min = float(cfg.get("c_min", 0.25 * self.c0))
        self.c_max = float(cfg.get("c_max", 4.0 * self.c0))
        self.f_max = float(cfg.get("f_max", 2.0e6))
        self.reset()
        return {"name": "AdaptiveDamping", "version": "1.0", "n_states": 1}

    def reset(self):
        self.c = self.c0
        self.saturations = 0

    def force(self, state: PtoState) -> float:
        v = state.velocity
        f = -self.c * v
        if abs(f) > self.f_max:
            self.saturations += 1
            f = self.f_max if f > 0 else -self.f_max
        step = state.dt * self.gain * self.c0 * (abs(v) - self.v_ref) / self.v_ref
        self.c = min(self.c_max, max(self.c_min, self.c + step))
        return f


if __name__ == "__main__":
    run(AdaptiveDamping())
