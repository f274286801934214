"""The languages read by tokens, without a parser (JavaScript/TypeScript, PowerShell, Ruby, Perl,
PHP, Go, Rust, Lua, R, and Python or shell a parser rejects): flow (the linear-time token matcher),
langs (each language's vocabulary; its call patterns from the sink table,
scanner/data/script_sinks.yml, section tokens) and text (literal folding shared by both).

Nothing is imported here: scanner.scripts.facts_for imports the modules it runs."""
