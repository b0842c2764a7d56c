"""The rummy core's fast listings (melds by bit sets, lay-offs by card sets, a meld's cards
without a copy of the hand, the feasibility searches with their shortcuts) against plain,
obviously correct definitions of the rules, on generated hands and tables, for every wild
policy and meld variant of the three games."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import engines
from engines.core.cards import ACE
from engines.families.rummy import rules as rummy
from engines.families.rummy import turns as T

VARIANTS = [
    ("rami", {}),
    ("rami", {"max_jokers_per_meld": "2"}),
    ("rami", {"max_jokers_per_meld": "unlimited"}),
    ("petite-ecole", {}),
    ("petite-ecole", {"run_same_suit": False}),
    ("petite-ecole", {"wild_limit": "naturals_ge_wilds", "num_decks": 3}),
    ("petite-ecole", {"wild_limit": "max_one_wild"}),
    ("pinacle", {}),
]
PARAMS = [engines.load(slug, **params).encoded_params for slug, params in VARIANTS]
IDS = [f"{slug} {params}" for slug, params in VARIANTS]


def plain(f):
    """The Python function behind a compiled one."""
    return getattr(f, "py_func", f)


def deal_hand(pr, rng, size):
    """``size`` cards from the game's packs: two (three) decks, the jokers in rami."""
    decks = 3 if pr[rummy.P_WILD_POLICY] == rummy.TWOS and rng.random() < 0.3 else 2
    pack = [c for _ in range(decks) for c in range(rummy.JOKER)]
    if pr[rummy.P_WILD_POLICY] == rummy.JOKERS:
        pack += [rummy.JOKER] * 4
    hand = np.zeros(rummy.CARD_KINDS, dtype=np.int32)
    for card in rng.choice(len(pack), size=size, replace=False):
        hand[pack[card]] += 1
    return hand


def is_wild(pr, card):
    if pr[rummy.P_WILD_POLICY] == rummy.JOKERS:
        return card == rummy.JOKER
    return card < rummy.JOKER and card % 13 == 0


def wild_may_stand(pr, card, suit):
    """A wild stands for any card, or (pinacle's 2s) only for one of its own suit."""
    return pr[rummy.P_WILD_POLICY] != rummy.SUIT_TWOS or (0 <= suit < 4 and card // 13 == suit)


def wilds_ok(pr, wilds, length):
    naturals = length - wilds
    return wilds <= pr[rummy.P_MAX_WILDS] and naturals >= pr[rummy.P_MIN_NATURALS] \
        and not (pr[rummy.P_WILDS_LE_NATURALS] and wilds > naturals)


def reference_melds(pr, hand, max_length):
    """Every meld of ``hand`` in the core's order, from the rules' words: runs suit by suit
    (a mixed run: of any suits), first position then length, each place the natural card
    if the hand holds one, else a wild; groups rank by rank, the natural suits as a mask
    (free groups: a count of naturals), then the wilds."""
    codes = []
    mixed = pr[rummy.P_MIXED_RUNS] != 0
    wild_total = [sum(int(hand[c]) for c in range(rummy.CARD_KINDS)
                      if is_wild(pr, c) and wild_may_stand(pr, c, suit)) for suit in range(5)]
    group_wilds = sum(int(hand[c]) for c in range(rummy.CARD_KINDS)
                      if is_wild(pr, c) and wild_may_stand(pr, c, -1))

    def holds(suit, position):
        rank = ACE if position == 1 else position
        suits = range(4) if suit == rummy.ANY_SUIT else [suit]
        return any(hand[s * 13 + rank - 2] > 0 and not is_wild(pr, s * 13 + rank - 2)
                   for s in suits)

    for suit in ([rummy.ANY_SUIT] if mixed else range(4)):
        available = min(wild_total[4 if mixed else suit] if not mixed
                        else sum(int(hand[c]) for c in range(rummy.CARD_KINDS)
                                 if is_wild(pr, c)), pr[rummy.P_MAX_WILDS])
        if not any(holds(suit, p) for p in range(1, 15)) and pr[rummy.P_MIN_NATURALS] > 0:
            continue
        for low in range(pr[rummy.P_RUN_MIN], pr[rummy.P_RUN_MAX] - 1):
            for length in range(3, min(pr[rummy.P_RUN_MAX] - low + 1, max_length) + 1):
                positions = range(low, low + length)
                if low == 1 and low + length - 1 >= 14:
                    continue
                mask = sum(1 << i for i, p in enumerate(positions) if not holds(suit, p))
                wilds = bin(mask).count("1")
                if wilds <= available and wilds_ok(pr, wilds, length):
                    codes.append((suit, low, length, rummy.RUN | suit << 1 | low << 5
                                  | length << 9 | mask << 13))
    codes = [c for *_, c in sorted(codes, key=lambda t: t[:3])]
    if not pr[rummy.P_GROUPS]:
        return codes
    for rank in range(2, ACE + 1):
        cards = [s * 13 + rank - 2 for s in range(4)]
        if pr[rummy.P_FREE_GROUPS]:
            held = sum(int(hand[c]) for c in cards if not is_wild(pr, c))
            options = [(k, k) for k in range(1, held + 1)]
            room = 14
        else:
            held = sum(1 << s for s, c in enumerate(cards) if hand[c] > 0 and not is_wild(pr, c))
            options = [(m, bin(m).count("1")) for m in range(1, 16) if m & held == m]
            room = 4
        for low, naturals in options:
            for wilds in range(group_wilds + 1):
                length = naturals + wilds
                if 3 <= length <= min(max_length, room) and wilds_ok(pr, wilds, length):
                    codes.append(rummy.GROUP | (rank - 2) << 1 | low << 5 | length << 9)
    return codes


def random_table(pr, rng, count):
    """A table of ``count`` melds, each laid from a hand of its own and grown by a few
    lay-offs."""
    melds = np.zeros(T.MAX_MELDS * rummy.MELD_WIDTH, dtype=np.int32)
    places = np.empty(rummy.MAX_RUN, dtype=np.int32)
    k = 0
    while k < count:
        hand = deal_hand(pr, rng, 14)
        codes = np.empty(rummy.MAX_CANDIDATES, dtype=np.int64)
        n = rummy.enumerate_melds(pr, hand, 13, codes)
        if n == 0:
            continue
        code = codes[rng.integers(n)]
        rummy.meld_cards(pr, hand, code, places)
        rummy.put_meld(pr, melds, k, int(rng.integers(4)), code, places)
        for _ in range(int(rng.integers(3))):
            card, end = int(rng.integers(rummy.CARD_KINDS)), int(rng.integers(2))
            if rummy.layoff_fits(pr, melds, k, card, end):
                rummy.lay_off(pr, melds, k, card, end)
        k += 1
    return melds


def reference_layoffs(pr, melds, count, hand, only, owners):
    """Every (meld, card, end) the plain per-card test accepts, in that order."""
    fits = plain(rummy.layoff_fits)
    codes = []
    for k in range(count):
        if not (owners >> melds[k * rummy.MELD_WIDTH + rummy.M_OWNER]) & 1:
            continue
        for card in range(rummy.CARD_KINDS):
            if hand[card] == 0 or (only >= 0 and card != only) \
                    or (only == -2 and not is_wild(pr, card)):
                continue
            for end in range(2):
                if fits(pr, melds, k, card, end):
                    codes.append(T.LAYOFF_ACTION + (k * rummy.CARD_KINDS + card) * 2 + end)
    return codes


def reference_cards(pr, hand, code):
    """A meld's cards place by place: its naturals, and for each wild the lowest-id wild
    the hand still holds that may stand there (taken from a copy of the hand)."""
    left = hand.copy()
    kind, key, low, length, mask = (code & 1, (code >> 1) & 15, (code >> 5) & 15,
                                    (code >> 9) & 15, code >> 13)

    def wild(suit):
        for card in list(range(0, 52, 13)) + [rummy.JOKER]:
            if left[card] > 0 and is_wild(pr, card) and wild_may_stand(pr, card, suit):
                return card
        raise AssertionError("no wild left")

    cards = []
    if kind == rummy.RUN:
        for i in range(length):
            rank = ACE if low + i == 1 else low + i
            if (mask >> i) & 1:
                card = wild(-1 if key == rummy.ANY_SUIT else key)
            elif key == rummy.ANY_SUIT:
                card = min(s * 13 + rank - 2 for s in range(4)
                           if left[s * 13 + rank - 2] > 0 and not is_wild(pr, s * 13 + rank - 2))
            else:
                card = key * 13 + rank - 2
            cards.append(card)
            left[card] -= 1
        return cards
    for s in range(4):
        card = s * 13 + key
        if pr[rummy.P_FREE_GROUPS]:
            while len(cards) < low and left[card] > 0:
                cards.append(card)
                left[card] -= 1
        elif (low >> s) & 1:
            cards.append(card)
            left[card] -= 1
    while len(cards) < length:
        card = wild(-1)
        cards.append(card)
        left[card] -= 1
    return cards


@pytest.mark.parametrize("pr", PARAMS, ids=IDS)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 18))
def test_melds_and_their_cards_are_the_plain_ones(pr, seed, size):
    rng = np.random.default_rng(seed)
    hand = deal_hand(pr, rng, size)
    codes = np.empty(rummy.MAX_CANDIDATES, dtype=np.int64)
    for max_length in (size - 1, 3, 4):
        n = rummy.enumerate_melds(pr, hand, max_length, codes)
        assert codes[:n].tolist() == reference_melds(pr, hand, max_length)
    places = np.empty(rummy.MAX_RUN, dtype=np.int32)
    for code in codes[:rummy.enumerate_melds(pr, hand, size, codes)]:
        n = rummy.meld_cards(pr, hand, code, places)
        assert places[:n].tolist() == reference_cards(pr, hand, int(code))


@pytest.mark.parametrize("pr", PARAMS, ids=IDS)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 18),
       least_run=st.sampled_from([3, 4, 5, 7, rummy.NO_FIGURE]),
       least_group=st.sampled_from([3, 4, 5, rummy.NO_FIGURE]))
def test_the_figures_are_the_melds_of_their_kinds_and_lengths(pr, seed, size, least_run,
                                                               least_group):
    hand = deal_hand(pr, np.random.default_rng(seed), size)
    codes = np.empty(rummy.MAX_CANDIDATES, dtype=np.int64)
    n = rummy.enumerate_figures(pr, hand, rummy.held_cards(hand), size - 1, least_run,
                                least_group, codes)
    least = {rummy.RUN: least_run, rummy.GROUP: least_group}
    assert codes[:n].tolist() == [code for code in reference_melds(pr, hand, size - 1)
                                  if (code >> 9) & 15 >= least[code & 1]]


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(3, 15), card=st.integers(0, 51),
       jokers=st.sampled_from(["1", "2", "unlimited"]))
def test_a_meld_with_the_card_is_found_when_one_is_listed(seed, size, card, jokers):
    pr = engines.load("rami", max_jokers_per_meld=jokers).encoded_params
    hand = deal_hand(pr, np.random.default_rng(seed), size)
    hand[card] += 1
    listed = any(rummy.meld_holds(pr, hand, code, card)
                 for code in reference_melds(pr, hand, size))
    assert rummy.holds_meld_with(pr, hand, rummy.held_cards(hand), size, card) == listed


@pytest.mark.parametrize("pr", PARAMS, ids=IDS)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), melds=st.integers(0, 8), size=st.integers(1, 14),
       only=st.sampled_from([-1, -1, -2, 0]), owners=st.sampled_from([T.ALL_SEATS, 0b101]))
def test_layoffs_are_the_plain_ones(pr, seed, melds, size, only, owners):
    rng = np.random.default_rng(seed)
    s = np.zeros(T.MELDS + T.MAX_MELDS * rummy.MELD_WIDTH, dtype=np.int32)
    s[T.MELDS:] = random_table(pr, rng, melds)
    s[T.MELDS_LEN] = melds
    hand = deal_hand(pr, rng, size)
    if only == 0:
        only = int(rng.choice(np.flatnonzero(hand)))
    out = np.empty(T.MAX_LEGAL, dtype=np.int64)
    n = T.layoff_actions(s, pr, hand, only, owners, out, 0)
    assert out[:n].tolist() == reference_layoffs(pr, s[T.MELDS:], melds, hand, only, owners)


@pytest.mark.parametrize("pr", PARAMS, ids=IDS)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 18), length=st.integers(2, 8))
def test_a_figure_is_found_when_one_is_listed(pr, seed, size, length):
    hand = deal_hand(pr, np.random.default_rng(seed), size)
    for kind in (rummy.RUN, rummy.GROUP):
        listed = any(code & 1 == kind and (code >> 9) & 15 == length
                     for code in reference_melds(pr, hand, length))
        assert rummy.holds_figure(pr, hand, rummy.held_cards(hand), kind, length) == listed


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(3, 15), need=st.integers(-5, 80),
       clean=st.booleans(), with_card=st.booleans(), jokers=st.sampled_from(["1", "2"]))
def test_the_opening_shortcut_refuses_only_what_the_search_refuses(seed, size, need, clean,
                                                                    with_card, jokers):
    """``may_complete`` is a necessary condition: where it refuses, the opening search
    without it finds nothing either."""
    pr = engines.load("rami", max_jokers_per_meld=jokers).encoded_params
    rng = np.random.default_rng(seed)
    hand = deal_hand(pr, rng, size)
    card = int(rng.choice(np.flatnonzero(hand))) if with_card else -1
    if not rummy.may_complete(pr, hand, size, need, clean, card):
        assert not search_without_shortcut(pr, hand, size, need, clean, card)


def search_without_shortcut(pr, hand, size, need, clean, card):
    """:func:`can_complete`'s search, its quick refusal left out."""
    return rummy.completes(pr, hand, size, need, clean, card, 0, rummy.search_room())


def reference_completes(pr, hand, left, need, clean, card, exact, least, depth, deepest):
    """Whether melds laid one after the other in code order, each one of ``hand``'s (from
    ``least`` on), lay ``need`` more points, a clean run if ``clean``, the card ``card``
    if it is >= 0, and keep a card (exactly ``exact`` if it is > 0): the opening search's
    definition, with no bound."""
    if need <= 0 and not clean and card < 0 and (exact <= 0 or left == exact):
        return True
    if depth >= deepest:
        return False
    for code in reference_melds(pr, hand, left - 1):
        if code < least:
            continue
        cards = reference_cards(pr, hand, code)
        rest = hand.copy()
        for c in cards:
            rest[c] -= 1
        if reference_completes(pr, rest, left - len(cards), need - rummy.meld_points(code),
                               clean and not rummy.meld_is_clean(code),
                               -1 if card in cards else card, exact, code, depth + 1, deepest):
            return True
    return False


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(3, 10), need=st.integers(-5, 60),
       clean=st.booleans(), with_card=st.booleans(), jokers=st.integers(0, 2),
       exact=st.integers(0, 1), limit=st.sampled_from(["1", "2"]))
def test_the_opening_search_answers_as_the_plain_one(seed, size, need, clean, with_card,
                                                      jokers, exact, limit):
    """The search with its refusals (the quick one at each level, the bound of the melds
    listed) answers as the same search with none, on hands given jokers so that some open."""
    pr = engines.load("rami", max_jokers_per_meld=limit).encoded_params
    rng = np.random.default_rng(seed)
    hand = deal_hand(pr, rng, size)
    hand[rummy.JOKER] += jokers
    size += jokers
    card = int(rng.choice(np.flatnonzero(hand))) if with_card else -1
    assert rummy.can_complete(pr, hand, size, need, clean, card, exact) == reference_completes(
        pr, hand, size, need, clean, card, exact, -1, 0, size // 3 + 1)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), need=st.integers(-5, 60), clean=st.booleans(),
       exact=st.integers(0, 1))
def test_one_search_room_serves_many_hands_and_leaves_them_whole(seed, need, clean, exact):
    """The opening search run on hands in turn with one work room answers as with a fresh
    room each time, and gives every hand back as it was."""
    pr = PARAMS[0]
    rng = np.random.default_rng(seed)
    room = rummy.search_room()
    for size in rng.integers(3, 16, size=6):
        hand = deal_hand(pr, rng, int(size))
        card = int(rng.choice(np.flatnonzero(hand))) if rng.random() < 0.5 else -1
        before = hand.copy()
        shared = rummy.completes(pr, hand, size, need, clean, card, exact, room)
        assert hand.tolist() == before.tolist()
        assert shared == rummy.completes(pr, hand, size, need, clean, card, exact,
                                         rummy.search_room())


def reference_fill(pr, hand, size, figures, keep):
    """Whether ``hand`` lays the ``figures`` ((kind, minimum length) pairs) one after the
    other, keeping ``keep`` cards: some meld of the first figure, then the rest from what
    it leaves."""
    if not figures:
        return size >= keep
    (kind, least), rest = figures[0], figures[1:]
    for code in reference_melds(pr, hand, size - keep):
        if code & 1 == kind and (code >> 9) & 15 >= least:
            left = hand.copy()
            for card in reference_cards(pr, hand, code):
                left[card] -= 1
            if reference_fill(pr, left, size - ((code >> 9) & 15), rest, keep):
                return True
    return False


PETITE_ECOLE = [i for i, (slug, _) in enumerate(VARIANTS) if slug == "petite-ecole"]


@pytest.mark.parametrize("pr", [PARAMS[i] for i in PETITE_ECOLE],
                         ids=[IDS[i] for i in PETITE_ECOLE])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(6, 12), twos=st.integers(0, 3),
       stage=st.integers(0, 9))
# hands that lay a run only one card longer than the stage asks, its wilds matching its
# naturals (naturals_ge_wilds, three decks)
@example(seed=129453, size=12, twos=3, stage=6)
@example(seed=2149475889, size=12, twos=3, stage=6)
@example(seed=3448246293, size=10, twos=3, stage=7)
def test_stage_melds_are_the_plain_ones(pr, seed, size, twos, stage):
    """Before his stage is laid, the melds a player may lay are the figures of it that
    leave the rest of the stage layable (on hands given extra 2s, so that some can)."""
    from engines.games.petite_ecole import rules as pe

    rng = np.random.default_rng(seed)
    hand = deal_hand(pr, rng, size)
    for suit in rng.choice(4, size=twos):
        hand[suit * 13] += 1
    size += twos
    s = np.zeros(pe.STATE_SIZE, dtype=np.int32)
    s[pe.STAGE] = stage
    runs, run_length, groups, group_length = (int(x) for x in pe.stage_figures(pr, stage))
    figures = [(rummy.RUN, run_length)] * runs + [(rummy.GROUP, group_length)] * groups
    keep = int(pr[pe.P_KEEP])
    codes = np.empty(T.MAX_LEGAL, dtype=np.int64)
    n = pe.stage_melds(s, pr, 0, hand, size, codes)
    expected = []
    for code in reference_melds(pr, hand, size - keep):
        kind, length = code & 1, (code >> 9) & 15
        for i, (want, least) in enumerate(figures):
            if want == kind and length >= least:
                left = hand.copy()
                for card in reference_cards(pr, hand, code):
                    left[card] -= 1
                if reference_fill(pr, left, size - length, figures[:i] + figures[i + 1:], keep):
                    expected.append(code)
                break
    assert codes[:n].tolist() == expected


@pytest.mark.parametrize("pr", [PARAMS[i] for i in PETITE_ECOLE],
                         ids=[IDS[i] for i in PETITE_ECOLE])
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(6, 14), twos=st.integers(0, 4),
       runs=st.integers(0, 2), run_length=st.integers(3, 5), groups=st.integers(0, 3),
       group_length=st.integers(3, 4))
def test_the_fewest_wilds_never_refuse_a_contract_the_hand_lays(
        pr, seed, size, twos, runs, run_length, groups, group_length):
    """The quick refusal of a contract (more wilds needed than held) is a lower bound:
    a hand that lays the figures one after the other never needs more wilds than it
    holds by that count."""
    rng = np.random.default_rng(seed)
    hand = deal_hand(pr, rng, size)
    for suit in rng.choice(4, size=twos):
        hand[suit * 13] += 1
    size += twos
    cards = rummy.held_cards(hand)
    needed = 0
    if runs:
        needed += rummy.fewest_wilds(pr, hand, cards, rummy.RUN, run_length, runs)
    if groups:
        needed += rummy.fewest_wilds(pr, hand, cards, rummy.GROUP, group_length, groups)
    figures = [(rummy.RUN, run_length)] * runs + [(rummy.GROUP, group_length)] * groups
    if reference_fill(pr, hand, size, figures, 0):
        assert needed <= rummy.wild_count(pr, hand)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(6, 15), jokers=st.integers(0, 3),
       owed=st.booleans(), points=st.integers(0, 40))
def test_the_opening_melds_are_those_each_searched_on_its_own(seed, size, jokers, owed, points):
    """The melds offered to a player laying his first lay-down, some kept off the
    completion the first search found, are those whose rest a search of its own
    completes."""
    from engines.games.rami import rules as rami

    pr = engines.load("rami", max_jokers_per_meld="2").encoded_params
    rng = np.random.default_rng(seed)
    hand = deal_hand(pr, rng, size)
    hand[rummy.JOKER] += jokers
    size += jokers
    s = np.zeros(rami.STATE_SIZE, dtype=np.int32)
    s[T.HAND:T.HAND + rummy.CARD_KINDS] = hand
    s[T.HAND_SIZE_AT] = size
    s[T.PHASE] = T.PLAY
    s[rami.PROV_POINTS] = points
    must = int(rng.choice(np.flatnonzero(hand[:rummy.JOKER]))) if owed and hand[:52].any() else -1
    s[rami.MUST_CARD] = must
    out = np.empty(T.MAX_LEGAL, dtype=np.int64)
    n = rami.play_actions(s, pr, 0, out)
    listed = [int(c) - T.LAY_ACTION for c in out[:n] if c >= T.LAY_ACTION]
    need = int(pr[rami.P_OPENING_MIN]) - points
    expected = []
    if rummy.can_complete(pr, hand, size, need, True, must, 0):
        codes = np.empty(rummy.MAX_CANDIDATES, dtype=np.int64)
        for code in codes[:rummy.enumerate_melds(pr, hand, size - 1, codes)].tolist():
            left = hand.copy()
            laid = rummy.remove_meld(pr, left, code, np.empty(rummy.MAX_RUN, dtype=np.int32))
            card = -1 if must >= 0 and rummy.meld_holds(pr, hand, code, must) else must
            if rummy.can_complete(pr, left, size - laid, need - rummy.meld_points(code),
                                  not rummy.meld_is_clean(code), card, 0):
                expected.append(code)
    assert listed == expected
    assert s[T.HAND:T.HAND + rummy.CARD_KINDS].tolist() == hand.tolist()
