"""The GitHub Action: inputs from INPUT_* variables, the scan flow, outputs and reporting."""
