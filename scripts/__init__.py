"""Command-line tools: matches, benchmarks."""
