"""``crewkit lsp``: a language server for crewkit's YAML files (rule sets, missions, campaigns, card sets).

:mod:`crewkit.lsp.analysis` answers from a file's text (problems, hover, completion, definition);
:mod:`crewkit.lsp.server` speaks LSP with pygls (the ``lsp`` extra). Importing this package loads neither.
"""
