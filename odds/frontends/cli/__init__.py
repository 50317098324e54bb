"""`odds ...`: the command line; main.py builds it from the registry and runs it, each command
group its own module (registered by name: main.TOOLS), common.py what they share."""
