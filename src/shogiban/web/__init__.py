"""The web server and browser UI: play against the computer or a friend, open game records.

``shogiban serve`` runs it; :func:`shogiban.web.app.create_app` builds the Starlette application.
"""

from __future__ import annotations
