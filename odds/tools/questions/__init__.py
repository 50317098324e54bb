"""The players' comparative and inverse questions, for every registered procedure.

compare.py: several plans (keyword changes) against a base, one table (`odds.compare`);
need.py: the value of one integer parameter that reaches a target probability (`odds.need`);
plans.py: the words both take (`KEY=VALUE` plans, `NAME[=LOW..HIGH]` to vary), parsed as the
HTTP API parses a query; cli.py: the `--compare`, `--need`, `--vary`, `--event` flags.
Nothing is imported here: compare needs pandas, which is slow to import.
"""
