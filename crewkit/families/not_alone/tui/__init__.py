"""Not Alone at the terminal: its table screen, dialogs, end screen, planet widget and words (the app shell
is :mod:`crewkit.tui`)."""
