"""FuncEvalGMN / Hybrid GMN: pair generation, labelling, graph cache, JAX models, training, ONNX export."""
