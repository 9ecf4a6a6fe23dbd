"""models/gmn/pack.py: a graph cache packed and unpacked is the same cache (PE equal as float32)."""
import json

import numpy as np

from models.gmn import pack
from models.gmn import tensors as T


def as_float32(row):
    for m in pack.MODELS:
        for side in (row[m] or {}).get("graphs", []):
            side["pe"] = np.asarray(side["pe"], np.float32).tobytes()
    return row


def test_pack_then_unpack_gives_the_same_graphs(tmp_path):
    rng = np.random.default_rng(8)
    rows = []
    for i in range(30):
        row = {"id": f"p{i}", "funceval": T.random_pair(rng, "funceval", 50), "hybrid": T.random_pair(rng, "hybrid", 50)}
        if i % 7 == 3:
            row["hybrid"] = None  # a pair without a graph stays without one
        if i % 5 == 1:
            row["funceval"]["graphs"][0]["chars"][0] = []  # empty character lists keep their place
        rows.append(row)
    src = tmp_path / "graphs.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    pack.main(["pack", str(src), str(tmp_path / "graphs.bin")])
    pack.main(["unpack", str(tmp_path / "graphs.bin"), str(tmp_path / "back.jsonl")])
    back = [json.loads(x) for x in (tmp_path / "back.jsonl").read_text().splitlines()]
    assert [as_float32(b) for b in back] == [as_float32(json.loads(json.dumps(r))) for r in rows]
