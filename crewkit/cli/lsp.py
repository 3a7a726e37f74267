"""``crewkit lsp``: the language server for crewkit's YAML files, over stdio (see README, "In your editor")."""

from __future__ import annotations

import argparse
from typing import Any

from crewkit.errors import EXIT_OK, UsageError


def add_lsp_parser(sub: Any) -> argparse.ArgumentParser:
    return sub.add_parser(
        "lsp",
        help="language server for rule sets, missions, campaigns and card sets (for editors; speaks LSP on stdio)",
        description="A language server (LSP over stdin/stdout) for crewkit's YAML files: crewkit validate's "
        "diagnostics as you type (conditions included), documentation of the condition language on hover, "
        "completion of its words and of card names, roles, symbols and task tokens, and go to definition of "
        "the rule set named by extends:, rulesets: or a campaign's entries. Needs the lsp extra: "
        "pip install \"crewkit[lsp]\". Your editor starts it; see the README for VS Code and Neovim.",
    )


def cmd_lsp(args: argparse.Namespace) -> int:
    try:
        from crewkit.lsp.server import main
    except ModuleNotFoundError as exc:
        if exc.name not in ("pygls", "lsprotocol") and not str(exc.name).startswith(("pygls.", "lsprotocol.")):
            raise
        raise UsageError("the language server needs pygls: pip install \"crewkit[lsp]\" (or \".[lsp]\" from a "
                         "checkout)") from None
    main()
    return EXIT_OK
