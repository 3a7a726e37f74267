"""Debian's Chromium driven by Playwright, for the browser seat's tests (skipped, saying why, where it is absent)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def launched_chromium(without: str) -> Iterator[Any]:
    """A headless Chromium browser, closed after use; the test is skipped when it is absent (``without``: what is
    then left untested, and where it is tested instead)."""
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium): {without}")
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is in the dev extra: "
                                                                "pip install '.[dev]'")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
