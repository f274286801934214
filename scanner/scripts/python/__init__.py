"""Python scripts, read through `ast`: the flow analysis (flow, scope, sinks, taint, sink_gate and
their helpers), which reports what values reach which sinks, and the behaviour pass (behaviour,
shapes, exhaustion), which reports what a tool does to the host. Names of sinks and sources come
from the sink table (scanner/data/script_sinks.yml) through api and behaviour_kinds.

Nothing is imported here: scanner.scripts.facts_for imports the modules it runs when a Python
file is scanned."""
