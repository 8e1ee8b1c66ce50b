"""Generated accessor modules (see binparse.codegen)."""
