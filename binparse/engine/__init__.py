"""The schema engine, by stage: `schema` (the .ksy loader and model), `expr` (Kaitai's expression
language), `backends` (numpy dtypes, construct), `codegen` (typed modules), `runtime` (what generated
classes stand on), `dump` (the value tree), `compiler` (`binparse.compile` and its cache), `build`
(bytes from values), `layouts` (device layouts as data), `cheader` (C headers to .ksy), `kaitai_ref`
(the official compiler as an oracle), and `accessors` (generated: never edited by hand).
Imports only `binparse.core` (docs/architecture.md)."""
