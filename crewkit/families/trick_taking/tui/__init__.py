"""The trick-taking table in the terminal app: its screen, widgets and session."""
