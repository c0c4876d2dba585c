"""The server's routes, one module per concern; ``app.create_app`` puts them together.

- ``errors``: every error as ``{"error": "..."}`` with a 4xx status (a 500 only for a bug);
- ``games``: the registered games and what the browser draws them from;
- ``lobby``: listing, creating and getting tables, joining and leaving seats;
- ``play``: a seat's view, its actions, take-backs and the answer for a failed bot;
- ``replays``: records and replays of finished games (the reviews and hints are ``server/hints.py``);
- ``sockets``: the websocket of a table;
- ``pages``: the HTML pages, the players' rules, the games' scripts and the static files.

``common`` holds what they share: the app's ``AppContext`` (``Ctx``) and the error responses.
"""
