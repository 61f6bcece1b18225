"""The web viewer: tournaments, standings with rating history, and replays drawn in the browser.

``smtourney web`` serves it from a tournament database; :func:`server.web.export.export_html`
writes one replay as a single self-contained HTML file.
"""
