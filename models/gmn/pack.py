"""A graph cache (graphs.py's JSONL) as one compact file, and back, to train on another machine.

    python -m models.gmn.pack pack /tmp/gmn_cache/graphs.jsonl graphs.bin
    python -m models.gmn.pack unpack graphs.bin /tmp/gmn_cache/graphs.jsonl

The JSONL of 15,377 training pairs is 488 MB (gzip: 109 MB), most of it the positional encodings
printed as decimal text; a GPU machine of this workplace takes at most 64 MiB with the working tree.
Here every array is stored in binary and compressed with LZMA, the float32 encodings byte-plane by
byte-plane (the four bytes of a float compress poorly together): 45 MB. Unpacking gives back the
same graphs, every encoding the same float32 (tests/models/test_pack.py).
"""

import json
import lzma
import pickle
import sys

import numpy as np

MODELS = ("funceval", "hybrid")


def _columns(lines):
    """The graphs of every line as flat arrays plus offsets (per side: node, char-list, edge ends)."""
    c = {k: [] for k in ("ids", "relations", "types", "chars", "char_end", "edges", "pe")}
    ends = {"nodes": [0], "char_lists": [0], "edges": [0]}
    for line in lines:
        g = json.loads(line)
        c["ids"].append(g["id"])
        for m in MODELS:
            x = g.get(m)
            c["relations"].append(-1 if x is None else x["relations"])
            for side in [] if x is None else x["graphs"]:
                c["types"] += side["types"]
                for cs in side["chars"]:
                    c["chars"] += cs
                    c["char_end"].append(len(c["chars"]))
                c["edges"] += side["edges"]
                c["pe"] += side["pe"]
                ends["nodes"].append(len(c["types"]))
                ends["char_lists"].append(len(c["char_end"]))
                ends["edges"].append(len(c["edges"]))
    return {
        "ids": np.array(c["ids"]), "relations": np.array(c["relations"], np.int8),
        "types": np.array(c["types"], np.int16), "chars": np.array(c["chars"], np.uint8),
        "char_end": np.array(c["char_end"], np.int64), "edges": np.array(c["edges"], np.int16).reshape(-1, 3),
        "pe": np.array(c["pe"], np.float32).reshape(-1, 16),
        **{k + "_end": np.array(v, np.int64) for k, v in ends.items()},
    }


def pack(src, dst):
    out = {}
    for k, v in _columns(open(src)).items():
        if v.dtype == np.float32:  # byte planes: all first bytes, then all second bytes, ...
            raw = v.view(np.uint8).reshape(-1, 4).T.copy().tobytes()
        else:
            raw = v.tobytes()
        out[k] = (v.dtype.str, v.shape, lzma.compress(raw, preset=6))
    with open(dst, "wb") as f:
        pickle.dump(out, f)


def load(src):
    with open(src, "rb") as f:
        stored = pickle.load(f)
    z = {}
    for k, (dtype, shape, blob) in stored.items():
        dt = np.dtype(dtype)
        raw = lzma.decompress(blob)
        if dt == np.float32:
            a = np.frombuffer(raw, np.uint8).reshape(4, -1).T.copy().view(dt)
        else:
            a = np.frombuffer(raw, dt)
        z[k] = a.reshape(shape)
    return z


def unpack(src, dst):
    z = load(src)
    side, model = 0, 0
    with open(dst, "w") as f:
        for rid in z["ids"]:
            row = {"id": str(rid)}
            for m in MODELS:
                rel = int(z["relations"][model])
                model += 1
                if rel < 0:
                    row[m] = None
                    continue
                graphs = []
                for _ in range(2):
                    n0, n1 = z["nodes_end"][side], z["nodes_end"][side + 1]
                    l0, l1 = z["char_lists_end"][side], z["char_lists_end"][side + 1]
                    e0, e1 = z["edges_end"][side], z["edges_end"][side + 1]
                    starts = [int(z["char_end"][i - 1]) if i else 0 for i in range(l0, l1)]
                    chars = [z["chars"][s : int(e)].tolist() for s, e in zip(starts, z["char_end"][l0:l1])]
                    graphs.append({"types": z["types"][n0:n1].tolist(), "chars": chars,
                                   "edges": z["edges"][e0:e1].tolist(), "pe": z["pe"][n0:n1].tolist()})
                    side += 1
                row[m] = {"model": m, "version": 1, "relations": rel, "pe_steps": 16, "graphs": graphs}
            f.write(json.dumps(row, separators=(",", ":")) + "\n")


def main(argv):
    if len(argv) != 3 or argv[0] not in ("pack", "unpack"):
        sys.exit("usage: python -m models.gmn.pack pack|unpack SRC DST")
    (pack if argv[0] == "pack" else unpack)(argv[1], argv[2])


if __name__ == "__main__":
    main(sys.argv[1:])
