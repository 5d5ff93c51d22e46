"""mpisim-study: scaling and what-if studies of an MPI program, each one command (docs/studies.md)."""
