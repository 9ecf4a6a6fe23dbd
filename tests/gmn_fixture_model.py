"""A tiny ONNX model with the GMN interface (contract section 2) for tests of the inference path:
score = sigmoid(sum(g_mask) - sum(p_mask)) per pair, distance = |sum(g_mask) - sum(p_mask)|.
It reads only the masks but declares every input, so the Rust side must feed all ten by name.
Never shipped: tests write it into a temporary directory.

Usage: python tests/gmn_fixture_model.py OUT.onnx [RELATIONS]
"""
import sys

import onnx
from onnx import TensorProto, helper


def build(relations=3):
    def side(prefix):
        return [
            helper.make_tensor_value_info(f"{prefix}_types", TensorProto.INT64, ["B", f"N{prefix}"]),
            helper.make_tensor_value_info(f"{prefix}_chars", TensorProto.INT64, ["B", f"N{prefix}", 64]),
            helper.make_tensor_value_info(
                f"{prefix}_adj", TensorProto.FLOAT, ["B", 2 * relations, f"N{prefix}", f"N{prefix}"]),
            helper.make_tensor_value_info(f"{prefix}_mask", TensorProto.FLOAT, ["B", f"N{prefix}"]),
            helper.make_tensor_value_info(f"{prefix}_pe", TensorProto.FLOAT, ["B", f"N{prefix}", 16]),
        ]

    axes = helper.make_tensor("axes", TensorProto.INT64, [1], [1])
    nodes = [
        helper.make_node("ReduceSum", ["g_mask", "axes"], ["g_n"], keepdims=0),
        helper.make_node("ReduceSum", ["p_mask", "axes"], ["p_n"], keepdims=0),
        helper.make_node("Sub", ["g_n", "p_n"], ["diff"]),
        helper.make_node("Sigmoid", ["diff"], ["score"]),
        helper.make_node("Abs", ["diff"], ["distance"]),
    ]
    graph = helper.make_graph(
        nodes, "gmn_fixture", side("g") + side("p"),
        [helper.make_tensor_value_info("score", TensorProto.FLOAT, ["B"]),
         helper.make_tensor_value_info("distance", TensorProto.FLOAT, ["B"])],
        initializer=[axes],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


if __name__ == "__main__":
    relations = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    onnx.save(build(relations), sys.argv[1])
