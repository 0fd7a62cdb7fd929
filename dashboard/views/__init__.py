"""The dashboard's pages: each file lays one page out (``app.py`` routes to them)."""
