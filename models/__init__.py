"""sqlsim models: training code for the GMN metrics (models/gmn) and the exported ONNX files."""
