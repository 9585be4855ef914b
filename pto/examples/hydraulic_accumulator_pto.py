"""Hydraulic accumulator: a piston (area A) pumps oil into a gas accumulator through a valve.
Internal state (the gas volume), advanced in time by the module, kept across repeated windows
with commit / rollback.

Model (extension positive pushes oil into the accumulator):
    dV/dt = -A v                        gas volume, V(0) = V0
    p     = p0 (V0 / V)^gamma           polytropic gas pressure, p(0) = p0
    F     = -A (p - p0) - c_valve v     resistive force on the link

The state is advanced with the velocity held over the step just taken (explicit Euler, the
host sends one state per step): at a new time t, V += -A v_prev (t - t_prev), then F uses the
new V and the current v. A repeated or earlier time does not advance the state.

commit() keeps (V, t, v) as the accepted state; rollback() returns to it (a coupling window
that is repeated starts again from the same gas volume).

config: area (m^2), v0 (m^3), p0 (Pa), gamma, valve (N s/m), v_min (m^3, floor on V).
"""

import _find_helper  # noqa: F401
from tidelink_pto import PtoModule, PtoState, run


class HydraulicAccumulator(PtoModule):
    def setup(self, cfg):
        self.area = float(cfg.get("area", 0.05))
        self.v0 = float(cfg.get("v0", 1.0))
        self.p0 = float(cfg.get("p0", 1.0e7))
        self.gamma = float(cfg.get("gamma", 1.4))
        self.valve = float(cfg.get("valve", 1.0e6))
        self.v_min = float(cfg.get("v_min", 0.05 * self.v0))
        self.reset()
        return {"name": "HydraulicAccumulator", "version": "1.0", "n_states": 1}

    def reset(self):
        self.volume = self.v0
        self.t_prev = None
        self.vel_prev = 0.0
        self.commit()

    def commit(self):
        self.saved = (self.volume, self.t_prev, self.vel_prev)

    def rollback(self):
        self.volume, self.t_prev, self.vel_prev = self.saved

    def pressure(self) -> float:
        return self.p0 * (self.v0 / self.volume) ** self.gamma

    def force(self, state: PtoState) -> float:
        t, v = state.time, state.velocity
        if self.t_prev is None or t > self.t_prev:
            if self.t_prev is not None:
                self.volume = max(self.v_min, self.volume - self.area * self.vel_prev * (t - self.t_prev))
            self.t_prev, self.vel_prev = t, v
        return -self.area * (self.pressure() - self.p0) - self.valve * v


if __name__ == "__main__":
    run(HydraulicAccumulator())
