"""The front ends, built from the registry: the command line (cli/), the web calculator (web/)
and the notebook calculator (calculator.py). Nothing imports them but the face."""
