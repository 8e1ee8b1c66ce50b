"""What every command stands on, naming no format: errors and exit codes, the one budget, the inputs
a command read, paths and file mapping, atomic writes, zero-copy buffer views, JSON/YAML documents,
CSV rows, text and number rendering, progress. Imports nothing above it (docs/architecture.md)."""
