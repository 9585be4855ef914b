"""Linear damper: F = -c v on a TSDA (N), tau = -c omega on an RSDA (N m). Stateless.

config: damping (N s/m or N m s/rad, default 1.2e6).
"""

import _find_helper  # noqa: F401
from tidelink_pto import PtoModule, PtoState, run


class LinearDamper(PtoModule):
    def setup(self, cfg):
        self.c = float(cfg.get("damping", 1.2e6))
        return {"name": "LinearDamper", "version": "1.0", "n_states": 0}

    def force(self, state: PtoState) -> float:
        return -self.c * state.velocity


if __name__ == "__main__":
    run(LinearDamper())
