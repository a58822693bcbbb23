"""Rule sets, one module per game: gin, color_gin, ginski, gingo."""
