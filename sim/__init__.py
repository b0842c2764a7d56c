"""Orchestration and analysis: runners, benchmarks, command-line tools."""
