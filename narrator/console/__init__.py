"""The table console: seat pads on the players' phones and an operator view, served locally.

A small web app (Starlette on uvicorn) that the narrator serves while a game runs. Every press
becomes an input event of the same vocabulary as every other source and is applied through the
host on the loop's thread; views are built there too and pushed over websockets. Secrets (roles,
shots, check results) go only to the seat they belong to, never to the operator.
"""
