"""Generated accessor modules (see binparse.engine.codegen)."""
