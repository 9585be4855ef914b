"""Checks the MATLAB helper's framing against the Python helper's, without MATLAB.

The MATLAB self-test (tidelink_pto_selftest.m) asserts that its encoder produces the
reference frames listed in tidelink_pto_frame_vectors.m. This script reads that same list
and checks that the Python helper (tidelink_pto.encode_frame / decode_frame) produces and
reads exactly those bytes, that the MATLAB encoder writes the length big-endian, and that
both helpers start with protocol 2's hello carrying TIDELINK_PTO_TOKEN.
Run: python3 pto/matlab/check_framing.py (exit 0 when they agree).
"""

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "python"))
from tidelink_pto import decode_frame, encode_frame, hello  # noqa: E402


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
    if not any(json.loads(js).get("op") == "hello" for js, _ in found):
        print("tidelink_pto_frame_vectors.m has no hello frame (protocol 2's first frame)")
        return 1
    pto = (HERE / "tidelink_pto.m").read_text()
    if "getenv('TIDELINK_PTO_TOKEN')" not in pto or "struct('op', 'hello', 'protocol', 2, 'token', token)" not in pto:
        print("tidelink_pto.m no longer sends the hello with TIDELINK_PTO_TOKEN first (protocol 2)")
        return 1
    if hello("00ff") != {"op": "hello", "protocol": 2, "token": "00ff"}:
        print(f"the Python helper's hello is {hello('00ff')!r}")
        return 1
    print(f"framing agrees on {len(found)} reference frames")
    return 0


if __name__ == "__main__":
    sys.exit(main())
