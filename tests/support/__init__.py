"""Helpers the tests and the benchmarks share: clients, servers, waiting, and replaying a run."""
