"""Command line: one thin module per subcommand (flags -> API -> report)."""
