"""Checks the MATLAB helper's framing against the Python helper's, without MATLAB.

The MATLAB self-test (tidelink_pto_selftest.m) asserts that its encoder produces the
reference frames listed in tidelink_pto_frame_vectors.m. This script reads that same list
and checks that the Python helper (tidelink_pto.encode_frame / decode_frame) produces and
reads exactly those bytes, and that the MATLAB encoder writes the length big-endian.
Run: python3 pto/matlab/check_framing.py (exit 0 when they agree).
"""

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "python"))
from tidelink_pto import decode_frame, encode_frame  # noqa: E402


def vectors():
    text = (HERE / "tidelink_pto_frame_vectors.m").read_text()
    return re.findall(r"'(\{.*?\})',\s*'([0-9a-f]+)'", text)


def main() -> int:
    found = vectors()
    if not found:
        print("no reference frames found in tidelink_pto_frame_vectors.m")
        return 1
    for js, hexbytes in found:
        expected = bytes.fromhex(hexbytes)
        got = encode_frame(json.loads(js))
        if got != expected:
            print(f"Python frames {js} as {got.hex()}, MATLAB's reference is {hexbytes}")
            return 1
        msg, used = decode_frame(expected)
        if msg != json.loads(js) or used != len(expected):
            print(f"Python decodes {hexbytes} as {msg!r}")
            return 1
    enc = (HERE / "tidelink_encode_frame.m").read_text()
    if "floor(n / 16777216)" not in enc or "mod(n, 256)]" not in enc:
        print("tidelink_encode_frame.m no longer writes the length most significant byte first")
        return 1
    print(f"framing agrees on {len(found)} reference frames")
    return 0


if __name__ == "__main__":
    sys.exit(main())
