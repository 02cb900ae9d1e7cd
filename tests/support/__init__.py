"""Helpers the tests and the benchmarks share: clients, servers, waiting, replaying a run, and leaks."""
