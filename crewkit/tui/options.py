"""What ``crewkit play`` was asked for (imported by the launcher and the app; no Textual here)."""

from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT_CAMPAIGN = "planet-nine"
DEFAULT_DELAY = 0.8


@dataclass
class PlayOptions:
    """What ``crewkit play`` was asked for; ``None`` means "the default"."""

    mission: str | None = None
    ruleset: str | None = None
    players: int | None = 4  # None: the campaign's first allowed count (4 when allowed)
    seats: list[str] | None = None  # per seat: human | bot | a bot name (heuristic, random, ...)
    seed: str | None = None
    fast: bool = False
    delay: float | None = None  # None: the player's bot-speed setting (every family's table)
    campaign: str | None = DEFAULT_CAMPAIGN  # a name, folder, file or zip; None: choose when several exist
    readings: dict[str, str] = field(default_factory=dict)  # reading id -> option (--reading ID=OPTION)
    bot: str | None = None  # the bot in seats given as "bot" or left empty (--bot); None: the default bot
    side: str | None = None  # a game of sides (Not Alone, --seat): the side of the person at the keyboard

    @property
    def bot_delay(self) -> float:
        return self.delay_or(DEFAULT_DELAY)

    def delay_or(self, setting: float) -> float:
        """Seconds per bot move: ``--fast`` (0), else ``--delay``, else ``setting`` (the table setting)."""
        if self.fast:
            return 0.0
        return max(0.0, self.delay if self.delay is not None else setting)


def parse_seats(text: str | None) -> list[str] | None:
    """``"human,bot,bot,bot"`` to a list (``None`` for an empty value)."""
    if not text:
        return None
    return [part.strip() for part in text.split(",") if part.strip()] or None


def normalise_seats(seats: list[str] | None, players: int, bots_available: bool,
                    bot: str | None = None) -> list[str]:
    """``human``/bot names per seat; default: you in seat 0, bots elsewhere (all human without bots).

    ``bot`` names the bot of the seats given as ``bot`` (and of the empty ones); they stay ``bot`` (the
    default bot) without it."""
    if not seats:
        kinds = ["human"] + ["bot"] * (players - 1)
    else:
        kinds = [s.strip().lower() or "human" for s in seats]
        if len(kinds) < players:
            kinds += ["bot"] * (players - len(kinds))
        kinds = kinds[:players]
    kinds = ["human" if k in ("human", "you", "me", "h") else k for k in kinds]
    if not bots_available:
        kinds = ["human"] * players
    if bot:
        kinds = [bot if k == "bot" else k for k in kinds]
    return kinds
