"""The shared cards module: encodings, names and decks."""

import pytest

from engines.core import cards


def test_standard_ids_names_and_parsing_round_trip():
    seen = set()
    for suit in cards.SUITS:
        for rank in range(2, 15):
            card = cards.card_id(rank, suit)
            assert cards.suit_of(card) == suit and cards.rank_of(card) == rank
            name = cards.card_name(card)
            assert cards.parse_card(name) == card
            seen.add(name)
    assert len(seen) == 52
    assert cards.card_name(cards.card_id(10, cards.HEARTS)) == "10♥"
    assert cards.card_name(cards.card_id(cards.QUEEN, cards.SPADES)) == "Q♠"
    assert cards.parse_card("Ah") == cards.card_id(cards.ACE, cards.HEARTS)


def test_jokers():
    assert cards.card_name(cards.joker_id(0)) == "Joker"
    assert cards.card_name(cards.joker_id(1)) == "Joker2"
    assert cards.parse_card("Joker2") == 53
    assert cards.is_joker(52) and not cards.is_joker(51)
    assert cards.suit_of(52) == -1 and cards.rank_of(52) == 0


def test_decks():
    assert len(cards.deck_52()) == 52 and len(set(cards.deck_52().tolist())) == 52
    piquet = cards.deck_32()
    assert len(piquet) == 32 and all(cards.rank_of(c) >= 7 for c in piquet)
    assert len(cards.deck_54()) == 54 and cards.deck_54()[-1] == 53


def test_tarot():
    deck = cards.tarot_deck()
    names = [cards.tarot_card_name(c) for c in deck]
    assert len(deck) == 78 and len(set(names)) == 78
    assert names[cards.tarot_trump_id(21)] == "T21"
    assert names[cards.TAROT_EXCUSE] == "Excuse"
    assert names[13] == "R♥" and names[11] == "C♥" and names[0] == "1♥"
    with pytest.raises(ValueError, match="1..21"):
        cards.tarot_trump_id(22)


@pytest.mark.parametrize("text", ["", "1♥", "11♠", "Zx", "15h"])
def test_bad_cards_are_refused(text):
    with pytest.raises(ValueError):
        cards.parse_card(text)
