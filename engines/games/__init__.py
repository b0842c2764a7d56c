"""One package per game: its parameters, rules, Python API class and summary."""
