"""mpisim-study: scaling and what-if studies of an MPI program, one command each
(docs/studies.md)."""
