"""The command line, `python -m core <befehl>`: the parser, one module per group of commands, and `main`, which
loads a command's group only when that command runs."""
