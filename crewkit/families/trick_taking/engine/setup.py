"""Create games from names: rule set + mission + player count + seed (or an explicit deal)."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from crewkit.engine.errors import SetupError
from crewkit.families.trick_taking.engine.game import Deal, Game
from crewkit.families.trick_taking.engine.rules import Rules, compile_rules, distress_extra_attempts
from crewkit.games import TRICK_TAKING, refuse_other_family
from crewkit.spec.errors import SpecError
from crewkit.spec.loader import load_mission, load_ruleset
from crewkit.spec.model import Mission, MissionTasks, RuleSet, SecretRules
from crewkit.spec.taskcards import TaskDeck, load_task_deck


@dataclass(frozen=True)
class MissionSource:
    """A user's mission (or rule set) file as the game was set up from it: its text and the text's SHA-256. A
    record carries both (``mission_source``, ``ruleset_source``), so that it replays where the file is not, or
    where it has changed since."""

    text: str
    sha256: str

    @classmethod
    def of(cls, text: str) -> MissionSource:
        return cls(text, text_sha256(text))


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", errors="surrogatepass")).hexdigest()


@dataclass(frozen=True)
class GameSpec:
    """A fully named game: what a record's header says (and, for a user's mission file, the text it was set up
    from; a bundled mission is named by its id alone)."""

    ruleset: str
    mission: str
    players: int
    readings: tuple[tuple[str, str], ...] = ()
    source: MissionSource | None = None
    ruleset_source: MissionSource | None = None  # a user's rule set file (a bundled one is named alone)


@dataclass(frozen=True)
class _Loaded:
    """What the spec layer hands the engine for one named game (every player count): the typed rule set and
    mission, and the mission cards of a competitive or secret-deal game."""

    rs: RuleSet
    ms: Mission
    round_missions: tuple[Mission, ...] = ()
    secret_cards: tuple[Mission, ...] = ()
    task_deck: TaskDeck | None = None  # the rule set's task cards with objectives (``tasks.deck``)
    source: MissionSource | None = None  # a user's mission file: its text as loaded (a bundled one: None)
    ruleset_source: MissionSource | None = None  # a user's rule set file, likewise

    def compile(self, players: int) -> Rules:
        try:
            return compile_rules(self.rs, self.ms, players, mission_id=self.ms.id, round_missions=self.round_missions,
                                 secret_cards=self.secret_cards, task_deck=self.task_deck)
        except SetupError as exc:
            raise SetupError(f"{exc}{_listed_note(self.rs, self.ms)}") from None

    def reading_ids(self) -> set[str]:
        """Every reading the named game knows: the rule set's, the mission's and its task cards'."""
        ids = {rid for rid, _ in (*self.rs.in_force, *self.ms.in_force)}
        return ids | (self.task_deck.reading_ids() if self.task_deck is not None else set())


def _listed_note(rs: RuleSet, ms: Mission) -> str:
    """``"; mission X lists rule set Y"`` when the refused game's rule set is not one the mission names (a
    refusal then says which rule sets it is written for), else ``""``."""
    if not ms.data.get("rulesets"):
        return ""  # a mission set (Hammer's, the Persian cards) or a mission that names none
    listed = [str(ref) for ref in ms.rulesets]
    if any(rs.name in (ref, Path(ref).stem) or Path(ref).name == rs.path.name
           for ref in listed):
        return ""
    return f"; {ms.id} lists rule set{'s' if len(listed) > 1 else ''} {', '.join(listed)}"


@functools.lru_cache(maxsize=64)
def _loaded(ruleset: str, mission: str, readings: tuple[tuple[str, str], ...]) -> _Loaded:
    """Loaded once per name, whatever the player count (so each DSL text is parsed once per game name)."""
    return _load_named(ruleset, mission, readings)


@functools.lru_cache(maxsize=128)
def _compiled(ruleset: str, mission: str, players: int, readings: tuple[tuple[str, str], ...]) -> tuple[Rules, RuleSet, Mission]:
    loaded = _loaded(ruleset, mission, readings)
    rules, rs, ms = loaded.compile(players), loaded.rs, loaded.ms
    known = loaded.reading_ids()
    unknown = sorted(rid for rid, _ in readings if rid not in known)
    if unknown:
        raise SetupError(f"unknown reading {unknown[0]!r}: neither rule set {rs.name} nor {ms.id} has it; "
                         f"readings: {', '.join(sorted(str(k) for k in known)) or 'none'}")
    return rules, rs, ms


def _compile_named(ruleset: str, mission: str, players: int,
                   readings: tuple[tuple[str, str], ...]) -> tuple[Rules, RuleSet, Mission]:
    """Load (uncached) and compile one named game."""
    loaded = _load_named(ruleset, mission, readings)
    return loaded.compile(players), loaded.rs, loaded.ms


def _load_named(ruleset: str, mission: str, readings: tuple[tuple[str, str], ...]) -> _Loaded:
    refuse_other_family(ruleset, TRICK_TAKING)  # its family says which commands run it
    selection = dict(readings)
    rs = load_ruleset(ruleset, selection)
    folder = rs.rounds.missions if rs.rounds else None
    if folder:
        return _load_scoring_game(rs, folder, mission, selection)
    secret = rs.tasks.secret
    if secret is not None and secret.missions:
        return _load_secret_game(rs, secret, mission, selection)
    ms = load_mission(mission, selection, rs)
    why = ms.unsupported.get(rs.name)
    if why:
        raise SetupError(f"{ms.id} cannot be played under {rs.name}: {why}")
    deck = None
    if rs.tasks.deck:
        deck = load_task_deck(rs.tasks.deck, selection, rs, relative_to=rs.path.parent)
    from crewkit.spec import bundled

    return _Loaded(rs, ms, task_deck=deck, source=_user_source(ms.path, bundled.missions_dir()),
                   ruleset_source=_user_source(rs.path, bundled.rulesets_dir()))


def _user_source(path: Path, bundled_folder: Path) -> MissionSource | None:
    """The text of a user's file (read as the loader read it); None for a bundled one (named by its id)."""
    from crewkit.spec import overlay
    from crewkit.spec.yamlio import read_limited

    try:
        path.resolve().relative_to(bundled_folder.resolve())
        return None
    except (OSError, ValueError):
        pass
    text = overlay.text_of(path)
    if text is None:
        try:
            text = read_limited(path).decode("utf-8")
        except (OSError, UnicodeDecodeError):  # (it was read a moment ago; gone since: the record names it only)
            return None
    return MissionSource.of(text)


def _load_scoring_game(rs: RuleSet, folder: str, mission: str, selection: dict[str, str]) -> _Loaded:
    """A competitive game: the dealer picks among the mission cards of ``folder`` each round.

    ``mission`` names the whole set (``hammer``) or one card (``hammer/04``), which is then the only choice."""
    from crewkit.spec import bundled

    if mission in (folder, f"{folder}/", ""):
        paths = [p for p in bundled.bundled_missions() if p.parent.name == folder]
    else:
        paths = [bundled.mission_path(mission)]
    cards = [load_mission(str(p), selection, rs) for p in paths]
    if not cards:
        raise SetupError(f"rule set {rs.name} plays the mission cards of {folder!r}, but there are none")
    first = cards[0]
    counts = first.player_counts or rs.player_counts
    set_mission = Mission(id=mission or folder, number=None, title=f"{folder} mission cards", path=first.path,
                          data={"players": list(counts), "tasks": {"count": 0}}, readings=first.readings,
                          player_counts=counts, tasks=MissionTasks(count=0))
    return _Loaded(rs, set_mission, round_missions=tuple(cards))


def _load_secret_game(rs: RuleSet, secret: SecretRules, mission: str, selection: dict[str, str]) -> _Loaded:
    """Secret mission cards (Persian reading): each player is dealt cards of one level from a folder.

    ``mission`` names the folder (``persian``) or a level within it (``persian/level-2``)."""
    from crewkit.spec import bundled

    folder = str(secret.missions)
    level = secret.level
    if mission.startswith(f"{folder}/level-"):
        level = int(mission.rsplit("-", 1)[1])
    elif mission not in (folder, ""):
        raise SetupError(f"rule set {rs.name} deals secret mission cards: name the set ({folder!r} or "
                         f"'{folder}/level-N'), not one card ({mission!r})")
    cards = [load_mission(str(p), selection, rs) for p in bundled.bundled_missions() if p.parent.name == folder]
    cards = [m for m in cards if m.level == level]
    if not cards:
        raise SetupError(f"there are no level-{level} mission cards in {folder!r}")
    set_mission = Mission(id=mission or folder, number=None, title=f"{folder} level {level}", path=cards[0].path,
                          data={"players": list(rs.player_counts), "tasks": {"count": 0}}, readings={},
                          player_counts=rs.player_counts, tasks=MissionTasks(count=0))
    return _Loaded(rs, set_mission, secret_cards=tuple(cards))


def compile_game(ruleset: str, mission: str, players: int, readings: Mapping[str, str] | None = None) -> Rules:
    """Compiled rules, cached per (rule set, mission, players, readings)."""
    return _compiled(ruleset, mission, players, tuple(sorted((readings or {}).items())))[0]


def specs_for(ruleset: str, mission: str, players: int, readings: Mapping[str, str] | None = None) -> tuple[RuleSet, Mission]:
    _, rs, ms = _compiled(ruleset, mission, players, tuple(sorted((readings or {}).items())))
    return rs, ms


def new_game(
    ruleset: str = "crew",
    mission: str = "planet-nine/01",
    players: int = 4,
    seed: str = "",
    readings: Mapping[str, str] | None = None,
    deal: Deal | None = None,
    dealer: int | None = None,
) -> Game:
    rules = compile_game(ruleset, mission, players, readings)
    game = Game.new(rules, seed=seed, deal=deal, dealer=dealer)
    game.spec = game_spec(ruleset, mission, players, readings)
    return game


def game_spec(ruleset: str, mission: str, players: int, readings: Mapping[str, str] | None = None) -> GameSpec:
    """The name of a game compiled by :func:`compile_game`, with the text of a user's mission file as it was
    loaded for it (what a record carries)."""
    key = tuple(sorted((readings or {}).items()))
    loaded = _loaded(ruleset, mission, key)
    return GameSpec(ruleset, mission, players, key, loaded.source, loaded.ruleset_source)


def compile_from_texts(ruleset: str, mission: str, players: int, readings: Mapping[str, str] | None,
                       texts: Mapping[Path, str]) -> Rules:
    """Compiled rules of a game whose files' texts a record carries: the loader reads ``texts[path]`` as the file
    at each path (whether a file is there or not), uncached (another record may carry other texts)."""
    from crewkit.spec import overlay

    key = tuple(sorted((readings or {}).items()))
    with overlay.texts(texts):
        loaded = _load_named(ruleset, mission, key)
        rules = loaded.compile(players)
    known = loaded.reading_ids()
    unknown = sorted(rid for rid, _ in key if rid not in known)
    if unknown:
        raise SetupError(f"unknown reading {unknown[0]!r}: neither rule set {loaded.rs.name} nor {mission} has it; "
                         f"readings: {', '.join(sorted(str(k) for k in known)) or 'none'}")
    return rules


def counts_in_logbook(game: Game) -> bool:
    """Whether an attempt of ``game`` counts in the campaign logbook: a Crew mission's does, a Hammer match
    (scoring) and a Persian secret-mission game do not. The terminal and the hosted table both ask this."""
    return game.scoring is None and game.rules.secret is None


@functools.lru_cache(maxsize=32)
def logbook_extra_attempts(ruleset: str) -> int:
    """What the logbook adds to a mission won under ``ruleset`` (by name) with the distress signal used.

    A rule set that can no longer be loaded (a user file since moved) counts the rule book's 1."""
    try:
        return distress_extra_attempts(load_ruleset(ruleset))
    except SpecError:
        return 1
