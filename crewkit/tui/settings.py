"""The player's table settings, kept between sessions in ``<crewkit home>/settings.json`` (no Textual here).

A file that cannot be read or holds a wrong value never stops the app: the default is used for that value and
:func:`load_settings` says what it ignored (shown as a notification). Saving is atomic.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

FILE_NAME = "settings.json"
#: the bot speeds offered (seconds per bot move); 0: at once
BOT_DELAYS = (0.0, 0.2, 0.4, 0.8, 1.5)


@dataclass
class Settings:
    """What the player chose at the table (``o``, or "Settings" in the command palette)."""

    #: stop before every trick a bot leads until you press space (off: the game goes on; press ``c`` at any
    #: time and the table stops at the next communication window for you)
    stop_every_trick: bool = False
    #: seconds per bot move (``crewkit play --delay`` / ``--fast`` win over it for that session)
    bot_delay: float = 0.4
    #: the terminal bell when it becomes your turn while the terminal is not focused
    bell: bool = True
    #: at a hosted table, answer each communication window "nothing to say" by itself unless ``c`` was pressed
    pass_window: bool = False

    def describe(self, name: str) -> str:
        """One line for the settings dialog: what the setting does and its value, in words."""
        if name == "stop_every_trick":
            return ("Communication: stop before every trick a bot leads" if self.stop_every_trick
                    else "Communication: press c to speak before the next lead (no stop)")
        if name == "bot_delay":
            return "Bot speed: at once" if self.bot_delay <= 0 else f"Bot speed: {self.bot_delay:g} s per move"
        if name == "bell":
            return "Your turn: bell when the terminal is not focused" if self.bell else "Your turn: no bell"
        if name == "pass_window":
            return ("Hosted table: pass the communication window unless I press c" if self.pass_window
                    else "Hosted table: the communication window waits for my answer")
        raise KeyError(name)

    def toggled(self, name: str) -> Settings:
        """The settings with ``name`` switched to its next value (on/off, or the next bot speed)."""
        values = asdict(self)
        if name == "bot_delay":
            later = [d for d in BOT_DELAYS if d > self.bot_delay + 1e-9]
            values[name] = later[0] if later else BOT_DELAYS[0]
        else:
            values[name] = not values[name]
        return Settings(**values)


SETTING_NAMES = tuple(f.name for f in fields(Settings))


def settings_path(home: Path) -> Path:
    return home / FILE_NAME


def load_settings(home: Path) -> tuple[Settings, list[str]]:
    """The saved settings (defaults for what is missing) and a sentence per value that was ignored."""
    path = settings_path(home)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings(), []
    except OSError as exc:
        return Settings(), [f"{path}: cannot be read ({exc.strerror}); the default settings are used"]
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        return Settings(), [f"{path}:{exc.lineno}:{exc.colno}: not JSON ({exc.msg}); the default settings are used"]
    if not isinstance(data, dict):
        return Settings(), [f"{path}: expected an object of settings, found {type(data).__name__}; "
                            "the default settings are used"]
    notes: list[str] = []
    values: dict[str, Any] = {}
    default = Settings()
    for key, value in data.items():
        if key not in SETTING_NAMES:
            notes.append(f"{path}: unknown setting {key!r} ignored (known: {', '.join(SETTING_NAMES)})")
            continue
        want = type(getattr(default, key))
        if want is float and isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 60:
            values[key] = float(value)
        elif want is bool and isinstance(value, bool):
            values[key] = value
        else:
            expected = "a number of seconds from 0 to 60" if want is float else "true or false"
            notes.append(f"{path}: setting {key!r} expects {expected}, found {value!r}; the default is used")
    return Settings(**values), notes


def save_settings(home: Path, settings: Settings) -> None:
    """Write the settings atomically (a crash never leaves half a file)."""
    from crewkit.atomic import write_json_atomic

    write_json_atomic(settings_path(home), asdict(settings))
