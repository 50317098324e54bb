"""`odds serve`: the web calculator, an HTTP API and one page over the procedure registry.

app.py (Starlette routes, the uvicorn server), api.py (request -> keywords -> Result JSON),
limits.py (every limit of the server: bodies, trial caps, time budgets, workers, gates), static/
(the page: HTML, JS, CSS).
"""
