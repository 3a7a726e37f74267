"""Not Alone's part of ``docs/missions.md`` (:meth:`crewkit.tui.family.FamilyTUI.docs_sections`): its places, hunt
cards and survival cards, each card's text and the words of its effects."""

from __future__ import annotations

from crewkit.tui.text import player_text


def docs_sections() -> list[str]:
    return _board_cards()


def _sentence(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _board_cards() -> list[str]:
    """Not Alone's places, hunt cards and survival cards: the card's text, then its effects in words."""
    from crewkit.effects.cardsets import load_card_set
    from crewkit.effects.words import describe
    from crewkit.spec import bundled

    folder = bundled.rulesets_dir() / "not-alone"
    places = load_card_set(folder / "places.yaml")
    out = ["## Not Alone: places and cards", ""]
    for name, title in (("places", "Places"), ("hunt-cards", "Hunt cards"), ("survival-cards", "Survival cards")):
        cards = places if name == "places" else load_card_set(folder / f"{name}.yaml", places.place_ids())
        out += [f"### {title}", ""]
        for card in cards.cards:
            number = f"{card.number}. " if card.number is not None else ""
            out.append(f"- **{number}{card.name}**: {player_text(card.text)}")
            effects = [describe(e) for e in card.effects]
            passive = [describe(e) for e in card.passive]
            if effects:
                out.append(f"  - effects: {_sentence('; '.join(effects))}")
            if passive:
                out.append(f"  - while here: {_sentence('; '.join(passive))}")
        out.append("")
    return out
