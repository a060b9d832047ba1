"""/ajuda/: the user documentation kept in ``docs/`` (Markdown), rendered as pages of the site."""
