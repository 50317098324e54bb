"""`odds serve`: the web calculator, an HTTP API and one page over the procedure registry.

app.py (Starlette routes, the uvicorn server), api.py (request -> keywords -> Result JSON),
limits.py (trial caps, time budget, concurrency gates), static/ (the page: HTML, JS, CSS).
"""
