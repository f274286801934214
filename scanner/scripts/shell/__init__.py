"""Shell scripts, read through tree-sitter-bash: flow (pipes, variables, substitutions,
download-then-run, credentials sent), shapes (persistence, evasion, recon and other one-command
shapes) and base (the parser and what both share). Command names come from the sink table
(scanner/data/script_sinks.yml, section shell).

Nothing is imported here: scanner.scripts.facts_for imports the modules it runs."""
