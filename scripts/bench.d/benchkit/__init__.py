"""The pieces of scripts/bench (see bench.py): common, servers, workloads, measurement, report."""
