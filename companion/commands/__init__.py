"""One module per ``gingo`` command: ``configure(parser)`` and ``run(args) -> int``."""
