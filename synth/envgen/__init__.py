"""EnvGen (paper 3.2): propose a new environment from authentic sources, model its database, implement its tools,
and check and revise it in a sandbox until the four criteria hold; only passing environments enter the zoo.

Modules, one job each: `sources`, `coverage`, `proposal`, `modeling`, `implementation`, `testing` (the test
agent), `criteria` (the runner; `harness` is its sandboxed side, with `interface` and `unit_tests`), `revision`,
`layout` (the zoo format), `pipeline` (`EnvGen`), `cli` (`envfactory synth env`). Nothing is imported here, so the
sandboxed harness starts light. See docs/envgen.md.
"""
