"""Build the Betzanbloo report, ``reports/betzanbloo/README.md`` and its figures, from the
meta-games among good players (``sim.metagame``, listed by ``--metagames``) and the contrast
experiments ``experiments/betzanbloo-*.toml`` (``runs/experiments/<name>/``); with
``--metagames`` alone, print instead the meta-games it reads, one ``OUT|ARGUMENTS|ANALYSIS``
line each (``make betzanbloo-report`` plays them).

    make betzanbloo-report JOBS=1               # plays what is missing, then builds
    python reports/betzanbloo/build.py          # builds from finished runs
    python reports/betzanbloo/build.py --metagames

Every number is read from a meta-game's ``metagame.json`` and lineup runs or from an
experiment's cells.csv; each section prints the command that reproduces it, and every
sentence that depends on a number (the summaries in English and French included) is derived
from it, so a rebuild never contradicts its tables.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pandas as pd

from sim.analysis import Run, questions
from sim.analysis.book import (
    Book,
    NotRun,
    interval,
    intervals,
    long_form,
    markdown,
    share_range,
    with_edge,
)
from sim.analysis.figures import grouped_intervals
from sim.analysis.metagame import (
    lineup_chances,
    population_chances,
    population_figure,
    population_figures,
)
from sim.metagame import LEAST_CHANCE
from sim.report import percent

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BOOK = Book(HERE, ROOT / "experiments")
PLAYERS, RESPONSE, RANDOM_VARIANTS = ("betzanbloo-players", "betzanbloo-best-response",
                                      "betzanbloo-variants")
CASES = {"all-same": "all in one camp (every card saved)",
         "lone": "one player alone (saves, captures)",
         "split": "split (every card lost)"}
# A difference of shares smaller than this (2 percentage points of turns or games, about a
# Cohen's h of 0.05) is called negligible, even when its interval leaves 0 out.
NEGLIGIBLE = 0.02
# Shared wins more frequent than this among good players call for a tiebreak.
TIES = 0.10
# A bot is part of a stable mix when it is played at least this often in it.
PRESENT = 0.01

# --------------------------------------------------------------------------------------
# Among good players: the meta-games (sim.metagame), played by make betzanbloo-report
# --------------------------------------------------------------------------------------
POOL = ("ismcts", "responder@tuned", "safe", "contrarian")
DESCRIBED = {
    "ismcts": "the search (imagines the unseen thresholds, plays many continuations before "
              "each card and aims at the best placing)",
    "responder@tuned": "the reader (plays the card worth most this turn against how each "
                       "other player has played so far; tuned by play)",
    "safe": "the follower (its lowest card in the camp the others are likely to choose)",
    "contrarian": "the loner (its highest card in the other camp, to be alone and capture)"}
ENGLISH = {"ismcts": "the search", "responder@tuned": "the reader", "safe": "the follower",
           "contrarian": "the loner"}
FRENCH = {"ismcts": "le chercheur", "responder@tuned": "le lecteur", "safe": "le suiveur",
          "contrarian": "le solitaire"}
FRENCH_DESCRIBED = {
    "ismcts": "le chercheur (un programme qui imagine l'ordre des seuils à venir et joue de "
              "nombreuses suites de partie avant chaque carte)",
    "responder@tuned": "le lecteur (joue la carte qui rapporte le plus ce tour-ci d'après "
                       "la façon dont chacun a joué jusque-là)",
    "safe": "le suiveur (sa plus petite carte du côté où les autres iront probablement)",
    "contrarian": "le solitaire (sa plus forte carte du côté opposé, pour être seul et "
                  "capturer)"}
# Games per table of the pool at each player count: the lineups grow from 20 at 3 players
# to 165 at 8, and an ismcts seat costs about 5 ms of one core a game at 5 players and 8 ms
# at 8 (with about 0.7 s a lineup to write and analyse its run), so the larger tables play
# fewer games: about 28 CPU minutes in all, variants included (8 of them at 8 players, most
# of that the analysis of 165 lineups).  7 players is left out to fit that budget (120
# lineups, about 5 CPU minutes more); 6 and 8 players frame it.
COUNTS = {3: 600, 4: 400, 5: 400, 6: 250, 8: 100}
USUAL = 5            # the engine's default table: the authors' variants are played there
VARIANT_GAMES = 200
# The authors' variants (docs/rules/betzanbloo.md): name, rule parameter, what it changes
# (in English and in French).
VARIANTS = {"diamonds": ("scoring=diamonds", "scoring by diamonds (1 and 10 worth one, 5 and "
                         "6 worth five) instead of the cards' values",
                         "le décompte en carreaux (1 et 10 valent un carreau, 5 et 6 cinq) au "
                         "lieu de la valeur des cartes"),
            "no-1-10": ("drop_extremes=true", "personal cards 1 and 10 removed (eight in "
                        "hand)", "les cartes 1 et 10 retirées (huit cartes en main)"),
            "12-cards": ("perso_max=12", "twelve personal cards, 1 to 12 (\"ses 12 cartes\")",
                         "douze cartes personnelles, de 1 à 12 (« ses 12 cartes »)")}
ANALYSIS = "--bootstrap 100"     # the analysis settings, given again to a resume


def metagame_folder(players: int, variant: str | None = None) -> str:
    return f"betzanbloo-metagame-{players}p" + (f"-{variant}" if variant else "")


def metagame_arguments(players: int, variant: str | None = None) -> str:
    """The ``sim.metagame`` arguments of one meta-game, without ``--out`` and the analysis
    settings."""
    games = VARIANT_GAMES if variant else COUNTS[players]
    rule = f" --variant {VARIANTS[variant][0]}" if variant else ""
    return (f"betzanbloo --players {players} --agents {','.join(POOL)} --games {games}"
            f"{rule}")


def metagame_command(players: int, variant: str | None = None) -> str:
    return (f"`python -m sim.metagame {metagame_arguments(players, variant)} {ANALYSIS} --out "
            f"runs/experiments/{metagame_folder(players, variant)}`")


def metagame_lines(runs: Path) -> list[str]:
    """``OUT|ARGUMENTS|ANALYSIS`` of every meta-game, for ``make betzanbloo-report``: the
    usual table and its variants first, then the other player counts."""
    plays = [(USUAL, None), *((USUAL, v) for v in VARIANTS),
             *((k, None) for k in COUNTS if k != USUAL)]
    return [f"{runs / metagame_folder(k, v)}|{metagame_arguments(k, v)}|{ANALYSIS}"
            for k, v in plays]


def metagame(runs: Path, players: int, variant: str | None, title: str,
             question: str) -> dict:
    """A finished meta-game's ``metagame.json`` (NotRun, saying what to run, otherwise)."""
    folder = metagame_folder(players, variant)
    path = runs / folder / "metagame.json"
    if not path.is_file():
        raise NotRun(folder, title, question, metagame_command(players, variant))
    return json.loads(path.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------------------
# Pure helpers: populations, pooled figures, differences
# --------------------------------------------------------------------------------------
def difference(variant: Mapping[str, float], base: Mapping[str, float], name: str,
               confidence: float = 0.95) -> dict[str, float]:
    """``name`` in ``variant`` minus in ``base`` (independent estimates with normal
    intervals), as ``diff``, ``diff_low`` and ``diff_high``."""
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    se = np.hypot((variant[f"{name}_high"] - variant[f"{name}_low"]) / (2 * z),
                  (base[f"{name}_high"] - base[f"{name}_low"]) / (2 * z))
    diff = variant[name] - base[name]
    return {"diff": diff, "diff_low": diff - z * se, "diff_high": diff + z * se}


def judged(diff: Mapping[str, float], negligible: float = NEGLIGIBLE) -> str:
    """'higher', 'lower', 'negligible' (significant but smaller than ``negligible``) or 'no
    different', from a difference and its interval."""
    if diff["diff_low"] <= 0 <= diff["diff_high"]:
        return "no different"
    if abs(diff["diff"]) < negligible:
        return "negligible"
    return "higher" if diff["diff"] > 0 else "lower"


def stable_mix(equilibrium: Mapping[str, float], present: float = PRESENT) -> list[str]:
    """The agents of an equilibrium mix played at least ``present`` of the time, most
    played first."""
    return sorted((a for a, w in equilibrium.items() if w >= present),
                  key=lambda a: -equilibrium[a])


def invaders(payoff: Sequence[Mapping], agents: Sequence[str], players: int) -> list[dict]:
    """For each pure population (every seat the same agent ``b``): the agent that wins most
    when it sits alone among ``players - 1`` copies of ``b``, its win share (``low``,
    ``high``) and its edge over the fair share 1/K."""
    rows = []
    for b in agents:
        best = None
        for row in payoff:
            seats = Counter(row["lineup"].split("+"))
            if row["agent"] != b and seats == Counter({row["agent"]: 1, b: players - 1}):
                if best is None or row["win_share"] > best["win_share"]:
                    best = row
        if best is not None:
            rows.append({"population": b, "invader": best["agent"],
                         "win_share": best["win_share"], "low": best["low"],
                         "high": best["high"], "edge": best["win_share"] - 1 / players})
    return rows


def uneven_seats(seats: Sequence[Mapping], negligible: float = NEGLIGIBLE) -> list[Mapping]:
    """The seats whose edge over the fair share (``edge`` with ``edge_low`` and
    ``edge_high``) is significant and not negligible."""
    return [e for e in seats if (e["edge_low"] > 0 or e["edge_high"] < 0)
            and abs(e["edge"]) >= negligible]


def french_percent(value: float) -> str:
    """A share as French writes it: 0.262 -> '26,2 %' (a non-breaking space before %)."""
    return f"{100 * value:.1f}".replace(".", ",") + "\u00a0%"


def french_interval(row: Mapping[str, float], name: str) -> str:
    """A share and its interval, the French way: '26,2 % [25,1 ; 27,3]'."""
    low, high = (f"{100 * row[f'{name}_{end}']:.1f}".replace(".", ",")
                 for end in ("low", "high"))
    return f"{french_percent(row[name])} [{low} ; {high}]"


def french_range(values: pd.Series) -> str:
    """The smallest and largest of some shares, the French way ('a à b', one when equal)."""
    low, high = french_percent(values.min()), french_percent(values.max())
    return low if low == high else f"{low} à {high}"


def listing(items: Sequence[object], french: bool = False) -> str:
    """Items as a sentence lists them: 'a', 'a and b', 'a, b and c' ('et' in French)."""
    words = [str(i) for i in items]
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + (" et " if french else " and ") + words[-1]


def pp_interval(row: Mapping[str, float], name: str) -> str:
    return (f"{100 * row[name]:+.1f} pp [{100 * row[name + '_low']:+.1f}, "
            f"{100 * row[name + '_high']:+.1f}]")


# --------------------------------------------------------------------------------------
# Each lineup's figures, pooled over a population
# --------------------------------------------------------------------------------------
SEARCHES = ("ismcts",)     # the pool's bots that draw on chance when they decide


def ties_apart(winners: Sequence[str]) -> bool:
    """Whether a game's winners (their agents) share the win other than as copies of one
    fixed bot, which play the same cards from the same hands and so tie by construction:
    two or more winners, of different agents or of a search."""
    return len(winners) > 1 and (len(set(winners)) > 1 or winners[0] in SEARCHES)


def lineup_figures(run: Run) -> dict[str, float]:
    """One lineup's turns (share of each resolution case), shared wins, what a lone turn
    is worth, and how often a seat of each agent ends a turn alone (``alone_<agent>``)."""
    rounds = run.rounds_table()
    turns = rounds.drop_duplicates(["game_id", "round"])
    out: dict[str, float] = {}
    for case in CASES:
        out |= questions.clustered_mean(f"case_{case}",
                                        (turns["case"].astype(str) == case).astype(float),
                                        turns["game_id"])
    out |= questions.clustered_mean("shared_win", run.games["shared_win"].astype(float),
                                    run.games["game_id"])
    winners = run.players[run.players["rank"] == 1]
    apart = winners.groupby("game_id")["agent"].agg(
        lambda agents: ties_apart([str(a) for a in agents]))
    out |= questions.clustered_mean(
        "shared_win_apart", apart.reindex(run.games["game_id"], fill_value=False).astype(float),
        run.games["game_id"])
    lone = questions.lone_player(run)
    out |= {k: v for k, v in lone.items() if k.startswith(("lone_win_share", "lone_turn"))}
    seats = run.players[["game_id", "seat", "agent"]]
    merged = rounds[["game_id", "seat", "lone"]].merge(seats, on=["game_id", "seat"])
    for agent, rows in merged.groupby(merged["agent"].astype(str)):
        out |= questions.clustered_mean(f"alone_{agent}", rows["lone"].astype(float),
                                        rows["game_id"])
    return out


FIGURES = ("case_all-same", "case_lone", "case_split", "shared_win", "shared_win_apart",
           "lone_win_share",
           "lone_turn_points")


def populations(runs: Path, players: int, variant: str | None, game: dict
                ) -> dict[str, dict[str, float]]:
    """The figures of :func:`lineup_figures` at tables drawn from the equilibrium mix and
    from a uniform mix of the pool (``alone_<agent>`` per seat of that agent)."""
    folder = runs / metagame_folder(players, variant)
    lineups = sorted({row["lineup"] for row in game["payoff_table"]})
    chances = population_chances(game["equilibrium"], lineups, LEAST_CHANCE)
    needed = set().union(*chances.values())
    per_lineup = {lineup: lineup_figures(Run.open(folder / lineup)) for lineup in needed}
    out = {}
    for name, chance in chances.items():
        figures = population_figures(per_lineup, chance, FIGURES)
        for agent in game["agents"]:
            figures |= population_figure(per_lineup, chance, f"alone_{agent}", agent)
        out[name] = figures
    return out


def good_games(runs: Path, title: str, question: str, variants: bool = False
               ) -> dict[tuple[int, str | None], tuple[dict, dict]]:
    """Every meta-game a section reads, by (players, variant): its json and its
    populations' figures (the authors' variants at the usual table with ``variants``, else
    every player count)."""
    keys = ([(USUAL, None), *((USUAL, v) for v in VARIANTS)] if variants
            else [(k, None) for k in COUNTS])
    games = {key: metagame(runs, *key, title, question) for key in keys}
    return {key: (g, populations(runs, *key, g)) for key, g in games.items()}


# The populations' figures are read by several sections: computed once per build.
_CACHE: dict[tuple[Path, bool], dict] = {}


def cached_games(runs: Path, title: str, question: str, variants: bool = False
                 ) -> dict[tuple[int, str | None], tuple[dict, dict]]:
    key = (runs.resolve(), variants)
    if key not in _CACHE:
        _CACHE[key] = good_games(runs, title, question, variants)
    return _CACHE[key]


def mix_words(equilibrium: Mapping[str, float], present: float = PRESENT,
              names: Mapping[str, str] | None = None, french: bool = False) -> str:
    """The stable mix in words, most played first: 'safe 31%, ismcts 28%' (each agent by
    its name in ``names`` when given; French: 'le suiveur 31 %')."""
    sign = "\u00a0%" if french else "%"
    return ", ".join(f"{(names or {}).get(a, a)} {100 * equilibrium[a]:.0f}{sign}"
                     for a in stable_mix(equilibrium, present))


def reproduce_all(keys: Sequence[tuple[int, str | None]]) -> str:
    return ("; ".join(metagame_command(*key) for key in keys)
            + " (docs/metagame.md; `make betzanbloo-report JOBS=1` plays them all). "
            + POOL_TEXT)


POOL_TEXT = ("The pool of good players: " + "; ".join(
    f"`{a}`, {DESCRIBED[a]}" for a in POOL) + ".")


# --------------------------------------------------------------------------------------
# 1. Double-guessing: is any way of playing stable?
# --------------------------------------------------------------------------------------
MIX_TITLE = "Double-guessing among good players: no way of playing is safe"
MIX_QUESTION = (
    "The authors call Betzanbloo a game of double-guessing. If it is, no single way of "
    "playing should be stable: whatever the others settle on, some other way should beat "
    "it, and good players must keep their choices mixed and guess each other's. Among four "
    "good players, which mix of them is stable (nobody gains by switching), does any fixed "
    "way of playing resist a lone deviator, and do the seats matter, at 3 to 8 players?")


def good_mix(runs: Path) -> str:
    games = cached_games(runs, MIX_TITLE, MIX_QUESTION)
    rows, lines, weights = [], [], []
    for (k, _), (g, _pops) in games.items():
        mix = {m["agent"]: m for m in g["mix"]}
        found = invaders(g["payoff_table"], g["agents"], k)
        beaten = [r for r in found if r["low"] > 1 / k]
        seats = [e for e in g["seat_effects"] if e["population"] == "equilibrium"]
        worst = max(seats, key=lambda e: abs(e["edge"]))
        unfair = uneven_seats(seats)
        small = [e for e in seats if (e["edge_low"] > 0 or e["edge_high"] < 0)
                 and e not in unfair]
        rows.append({
            "players": k, "stable mix": mix_words(g["equilibrium"]),
            "pure populations beaten by one deviator": f"{len(beaten)} of {len(found)}",
            "best deviator among each pure population (its win share)": "; ".join(
                f"among {r['population']}: {r['invader']} {percent(r['win_share'])}"
                for r in found),
            "largest seat edge in the stable mix": f"seat {worst['seat'] + 1}: "
                                                   f"{pp_interval(worst, 'edge')}"})
        for a in g["agents"]:
            weights.append({"players": k, "bot": a, "weight": mix[a]["weight"],
                            "weight_low": mix[a]["weight_low"],
                            "weight_high": mix[a]["weight_high"]})
        lines.append(
            f"At {k} players the stable mix is {mix_words(g['equilibrium'])} (weights "
            + ", ".join(f"{a} {interval(m, 'weight')}" for a, m in mix.items()
                        if g["equilibrium"][a] >= PRESENT)
            + f"); {len(beaten)} of the {len(found)} pure populations are beaten by a lone "
            f"deviator winning significantly more than the fair {percent(1 / k)}, and "
            + (f"{len(unfair)} of the {k} seats win more or less than the fair share by "
               f"{percent(NEGLIGIBLE)[:-3]} points or more in the stable mix" if unfair else
               f"{len(small)} of the {k} seats differ significantly but negligibly from the "
               "fair share in the stable mix" if small else
               "no seat differs significantly from the fair share in the stable mix")
            + f" (largest: seat {worst['seat'] + 1}, {pp_interval(worst, 'edge')}).")
    mixed = [k for (k, _), (g, _) in games.items() if len(stable_mix(g["equilibrium"])) > 1]
    head = (f"Double-guessing is real among good players at {listing(mixed)} "
            "players: there the stable mix holds several ways of playing, so a player who "
            "always plays one way is exploitable and must guess which the others chose. "
            if mixed else
            "At no player count is the stable mix more than one way of playing. ")
    fig = grouped_intervals(
        pd.DataFrame(weights), "players", "bot", "weight", name="q1-stable-mix",
        percent=True, title="How often each way of playing is chosen in the stable mix",
        caption="Weight of each bot in the meta-game's equilibrium (the mix no player gains "
                "by leaving), with 95% bootstrap intervals, by player count.",
        xlabel="players at the table (count)",
        ylabel="players choosing it in the stable mix (share)")
    fig.save(HERE)
    return BOOK.section(
        1, MIX_TITLE, metagame_folder(USUAL), head + " ".join(lines), pd.DataFrame(rows),
        f"![{fig.title}]({fig.name}.png)\n\n*{fig.caption}*", MIX_QUESTION,
        reproduce_all(list(games)))


# --------------------------------------------------------------------------------------
# 2. Betrayal: how turns resolve among good players
# --------------------------------------------------------------------------------------
TURNS_TITLE = "Betrayal and bluff among good players: how turns resolve"
TURNS_QUESTION = (
    "Betrayal in Betzanbloo is leaving the crowd at the last moment to be the lone player, "
    "who saves a card and captures one. Among good players, at tables drawn from the stable "
    "mix, how often does a turn end with every card in one camp, with one player alone, or "
    "split with every card lost; which way of playing ends alone; what is a lone turn "
    "worth; how often is a win shared? And bluff?")


def most_alone(equilibrium: Mapping[str, float], figures: Mapping[str, float]
               ) -> str | None:
    """The agent of the stable mix whose seats end a turn alone most often."""
    alone = {a: figures[f"alone_{a}"] for a in stable_mix(equilibrium)
             if np.isfinite(figures.get(f"alone_{a}", np.nan))}
    return max(alone, key=alone.__getitem__) if alone else None


LONER = "contrarian"      # the bot that tries to be alone


def surprise(games: Mapping[tuple[int, str | None], tuple[dict, dict]]) -> str:
    """Where the bot that tries to be alone is not the one most often alone, says so."""
    g, pops = games[(USUAL, None)]
    eq = pops["equilibrium"]
    most = most_alone(g["equilibrium"], eq)
    if most is None or most == LONER or not np.isfinite(eq.get(f"alone_{LONER}", np.nan)):
        return ""
    return (f" At {USUAL} players the player most often alone is not the one who tries to "
            f"be: {most} ({interval(eq, f'alone_{most}')} of its turns) rather than "
            f"{LONER} ({interval(eq, f'alone_{LONER}')}). When several players break away "
            f"together they split the turn and lose their cards, so breaking away pays only "
            f"when the others do not expect it: betrayal is itself a guess.")


def good_turns(runs: Path) -> str:
    games = cached_games(runs, TURNS_TITLE, TURNS_QUESTION)
    rows, cases, lines = [], [], []
    for (k, _), (g, pops) in games.items():
        eq = pops["equilibrium"]
        for population, label in (("equilibrium", "stable mix"), ("uniform", "uniform mix")):
            figures = pops[population]
            rows.append({
                "players": k, "population": label,
                **{f"turns: {CASES[c]}": interval(figures, f"case_{c}") for c in CASES},
                "shared wins": interval(figures, "shared_win"),
                "of which not between copies of one fixed bot":
                    interval(figures, "shared_win_apart"),
                "win share per lone turn": pp_interval(figures, "lone_win_share")
                if np.isfinite(figures["lone_win_share"]) else "-"})
        for c in CASES:
            cases.append({"players": k, "case": c, "value": eq[f"case_{c}"],
                          "value_low": eq[f"case_{c}_low"],
                          "value_high": eq[f"case_{c}_high"]})
        alone = [(a, eq[f"alone_{a}"]) for a in stable_mix(g["equilibrium"])
                 if np.isfinite(eq[f"alone_{a}"])]
        lines.append(
            f"At {k} players {percent(eq['case_lone'])} of turns leave one player alone, "
            f"{percent(eq['case_split'])} are split and {percent(eq['case_all-same'])} "
            f"keep every card; a win is shared in {percent(eq['shared_win'])} of games "
            f"({percent(eq['shared_win_apart'])} not between copies of one fixed bot)"
            + ("; a seat ends a turn alone " + ", ".join(
                f"{percent(v)} of the time when it plays {a}" for a, v in alone)
               if alone else "") + ".")
    usual = games[(USUAL, None)][1]["equilibrium"]
    worth = (f" At {USUAL} players each lone turn adds "
             f"{pp_interval(usual, 'lone_win_share')} to the lone player's chance of "
             f"winning the game (it keeps {usual['lone_turn_points']:.1f} points that turn)."
             if np.isfinite(usual["lone_win_share"]) else "")
    g5 = games[(USUAL, None)][0]
    mirrors = lineup_chances(g5["equilibrium"], ["+".join([a] * USUAL) for a in POOL
                                                 if a != "ismcts"])
    copies = (f" A table of {USUAL} copies of one fixed bot, which plays the same game over "
              f"and over, is drawn from the stable mix at most {percent(max(mirrors.values()))}"
              f" of the time at {USUAL} players, so such tables weigh little here.")
    head = ("Among good players the lone player (the betrayal the authors describe) is "
            "common and decisive. " + " ".join(lines) + worth + surprise(games) + copies
            + " Bluff cannot be measured here: it lives in the talk phase, which the "
            "engine does not play (the text offers the game without it as a variant); "
            "what the numbers show is the silent part, guessing and breaking away.")
    fig = grouped_intervals(
        pd.DataFrame(cases), "players", "case", "value", name="q2-turns-good-players",
        percent=True, title="How turns resolve among good players",
        caption="Share of turns ending with every card in one camp (all-same), one player "
                "alone (lone) or at least two players in each camp (split), at tables drawn "
                "from the stable mix, with 95% intervals.",
        xlabel="players at the table (count)", ylabel="turns (share)")
    fig.save(HERE)
    return BOOK.section(
        2, TURNS_TITLE, metagame_folder(USUAL), head, pd.DataFrame(rows),
        f"![{fig.title}]({fig.name}.png)\n\n*{fig.caption}*", TURNS_QUESTION,
        reproduce_all(list(games)))


# --------------------------------------------------------------------------------------
# 3. The authors' variants among good players
# --------------------------------------------------------------------------------------
VARIANTS_TITLE = "The authors' variants among good players"
VARIANTS_QUESTION = (
    f"The text offers three variants: scoring by diamonds, personal cards 1 and 10 removed, "
    f"and twelve personal cards (its set-up says \"ses 12 cartes\"). At {USUAL} players, "
    f"among the same four good players: what stable mix does each variant have, and how "
    f"does it change how turns resolve and how often a win is shared?")
COMPARED = ("case_lone", "case_split", "case_all-same", "shared_win_apart")
COMPARED_NAMES = {"case_lone": "turns with one player alone", "case_split": "split turns",
                  "case_all-same": "turns with every card in one camp",
                  "shared_win_apart": "shared wins (not between copies of one fixed bot)"}


def variant_changes(eq: Mapping[str, float], base: Mapping[str, float]
                    ) -> list[tuple[str, dict[str, float], str]]:
    """Each compared figure's difference from the defaults and its verdict."""
    out = []
    for name in COMPARED:
        diff = difference(eq, base, name)
        out.append((name, diff, judged(diff)))
    return out


def good_variants(runs: Path) -> str:
    games = cached_games(runs, VARIANTS_TITLE, VARIANTS_QUESTION, variants=True)
    base = games[(USUAL, None)][1]["equilibrium"]
    rows, lines, shares = [], [], []
    for (_, variant), (g, pops) in games.items():
        eq = pops["equilibrium"]
        label = variant or "defaults"
        rows.append({"rules": label, "stable mix": mix_words(g["equilibrium"]),
                     **{COMPARED_NAMES[n]: interval(eq, n) for n in COMPARED}})
        for n in ("case_lone", "case_split", "shared_win_apart"):
            shares.append({"rules": label, "figure": COMPARED_NAMES[n], "value": eq[n],
                           "value_low": eq[f"{n}_low"], "value_high": eq[f"{n}_high"]})
        if variant:
            said = []
            for name, diff, verdict in variant_changes(eq, base):
                if verdict in ("higher", "lower"):
                    said.append(f"{COMPARED_NAMES[name]} {verdict} "
                                f"({pp_interval(diff, 'diff')})")
                elif verdict == "negligible":
                    said.append(f"{COMPARED_NAMES[name]} a negligible "
                                f"{pp_interval(diff, 'diff')}")
            lines.append(f"With {VARIANTS[variant][1]} the stable mix is "
                         f"{mix_words(g['equilibrium'])}; against the defaults "
                         + ("; ".join(said) if said else "nothing measured differs "
                            "significantly") + ".")
    head = (f"At {USUAL} players the defaults' stable mix is "
            f"{mix_words(games[(USUAL, None)][0]['equilibrium'])}. " + " ".join(lines)
            + f" Differences are the variant minus the defaults, in percentage points, "
            f"with 95% intervals (independent meta-games); under "
            f"{percent(NEGLIGIBLE)[:-3]} points they are called negligible.")
    fig = grouped_intervals(
        pd.DataFrame(shares), "figure", "rules", "value", name="q3-variants-good-players",
        percent=True, title=f"The authors' variants among good players ({USUAL} players)",
        caption=f"Share of turns with one player alone, of split turns and of games with a "
                f"shared win (not counting ties between copies of one fixed bot), at "
                f"{USUAL}-player tables drawn from each rule set's stable "
                f"mix, with 95% intervals.",
        xlabel="figure", ylabel="share of turns or of games")
    fig.save(HERE)
    return BOOK.section(
        3, VARIANTS_TITLE, metagame_folder(USUAL), head, pd.DataFrame(rows),
        f"![{fig.title}]({fig.name}.png)\n\n*{fig.caption}*", VARIANTS_QUESTION,
        reproduce_all(list(games)))


# --------------------------------------------------------------------------------------
# 4 to 7. Contrast: random players and tables of copies (experiments/betzanbloo-*.toml)
# --------------------------------------------------------------------------------------
def plain(value: float) -> str:
    return f"{value:.1f}"


def scores(runs: Path) -> str:
    cells = BOOK.load(runs, PLAYERS)["cells"]
    table = pd.DataFrame({
        "players": cells["players"], "bots": cells["lineup"],
        "mean score": intervals(cells, "mean_score", "plain"),
        "winner's score": intervals(cells, "winning_score", "plain"),
        "spread: sd (5th-95th pct)": [f"{r['score_sd']:.1f} ({r['score_p5']:.0f}-"
                                      f"{r['score_p95']:.0f})" for _, r in cells.iterrows()],
        "shared wins": intervals(cells, "shared_win"),
        "first seat's edge over 1/K": intervals(cells, "first_player_edge", "pp"),
        "seats equal (chi-square p)": cells["seat_equality_p"].map(lambda p: f"{p:.3f}")})
    rand = cells[cells["lineup"] == "random"].set_index("players")
    resp = cells[cells["lineup"] == "responder"].set_index("players")
    low, high = rand.index.min(), rand.index.max()
    unfair = cells[(cells["first_player_edge_low"] > 0) | (cells["first_player_edge_high"] < 0)]
    answer = CONTRAST + (
        f"With random players a player ends with {plain(rand.loc[low, 'mean_score'])} points "
        f"on average at {low} players and {plain(rand.loc[high, 'mean_score'])} at {high} "
        f"players, and the winner with {plain(rand.loc[low, 'winning_score'])} and "
        f"{plain(rand.loc[high, 'winning_score'])}: the more players, the more turns end "
        f"split with every card lost (section 5), so scores fall and their spread narrows "
        f"(standard deviation {plain(rand.loc[low, 'score_sd'])} to "
        f"{plain(rand.loc[high, 'score_sd'])}). Wins are shared in "
        f"{percent(rand.loc[low, 'shared_win'])} of games at {low} players and "
        f"{percent(rand.loc[high, 'shared_win'])} at {high}. The first seat's win rate differs "
        f"significantly from its fair share 1/K in {len(unfair)} of {len(cells)} tables "
        f"(seats choose at the same time, so the order should not matter). Tables of "
        f"responder bots score {plain(resp['mean_score'].min())} to "
        f"{plain(resp['mean_score'].max())} and share the win in "
        f"{share_range(resp['shared_win'])} of games: with the same cards and the same "
        f"reasoning they play alike, and their turns end with every card in one camp in "
        f"{share_range(resp['case_all-same'])} of turns.")
    figures = [grouped_intervals(
        cells, "players", "lineup", "mean_score", name="q4-mean-score",
        title="Contrast: mean final score, random players and reader copies",
        caption="Mean final score of a player (card values saved and captured), with 95% "
                "intervals, for tables of random and of responder bots.",
        xlabel="players at the table (count)", ylabel="final score (points)"),
        grouped_intervals(
        cells, "players", "lineup", "shared_win", name="q4-shared-wins", percent=True,
        title="Contrast: games with a shared win, random players and reader copies",
        caption="Share of games in which several players tie for the highest score, with 95% "
                "intervals.", xlabel="players at the table (count)",
        ylabel="games with a shared win (share)")]
    extra = "\n\n".join(BOOK.figure(f, PLAYERS) for f in figures)
    return BOOK.section(4, "Contrast: scores and wins in tables of copies", PLAYERS, answer,
                        table, extra,
                        CONTRAST_QUESTIONS[1])


def case_frame(cells: pd.DataFrame, by: str) -> pd.DataFrame:
    """The share of turns of each case by ``by`` (threshold or round), one row per (cell,
    case, value), for the random tables."""
    parts = [long_form(cells, f"case_{case}_{by}", by, ["players", "lineup"]).assign(case=case)
             for case in CASES]
    return pd.concat(parts, ignore_index=True)


def case_table(frame: pd.DataFrame, by: str, label: str) -> pd.DataFrame:
    wide = frame.pivot(index=by, columns="case", values=["value", "value_low", "value_high"])
    rows = {label: wide.index}
    for case in CASES:
        rows[case] = [interval(pd.Series({"v": wide.loc[i, ("value", case)],
                                          "v_low": wide.loc[i, ("value_low", case)],
                                          "v_high": wide.loc[i, ("value_high", case)]}), "v")
                      for i in wide.index]
    return pd.DataFrame(rows)


def cases(runs: Path) -> str:
    cells = BOOK.load(runs, PLAYERS)["cells"]
    rand = cells[cells["lineup"] == "random"]
    usual = rand[rand["players"] == USUAL]
    by_threshold = case_frame(usual, "threshold")
    by_turn = case_frame(usual, "round")
    overall = pd.DataFrame({"players": rand["players"], **{
        case: intervals(rand, f"case_{case}") for case in CASES}})
    row = usual.iloc[0]
    lone = by_threshold[by_threshold["case"] == "lone"].set_index("threshold")
    same = by_threshold[by_threshold["case"] == "all-same"].set_index("threshold")
    turn_lone = by_turn[by_turn["case"] == "lone"]
    turn_effect = ("all six intervals overlap, so the turn makes no detectable difference"
                   if turn_lone["value_low"].max() <= turn_lone["value_high"].min() else
                   "some intervals do not overlap, so the turn matters")
    split = rand.set_index("players")["case_split"]
    trend = "grows with every extra player" if split.is_monotonic_increasing else \
        "does not grow steadily with the table"
    answer = CONTRAST + (
        f"With {USUAL} random players, {percent(row['case_all-same'])} of turns end with every "
        f"card in one camp, {percent(row['case_lone'])} with one player alone and "
        f"{percent(row['case_split'])} split. By threshold card, all cards fall in one camp "
        f"most often at {same['value'].idxmax()} ({percent(same['value'].max())} of turns) "
        f"and least often at {same['value'].idxmin()} ({percent(same['value'].min())}); a "
        f"lone player is most frequent at {lone['value'].idxmax()} "
        f"({percent(lone['value'].max())}) and least at {lone['value'].idxmin()} "
        f"({percent(lone['value'].min())}). By turn, the lone case ranges from "
        f"{percent(turn_lone['value'].min())} to {percent(turn_lone['value'].max())}: "
        f"{turn_effect}. The split case (every card lost) {trend}: "
        f"{percent(split.iloc[0])} at {split.index[0]} players, {percent(split.iloc[-1])} at "
        f"{split.index[-1]}.")
    figures = [grouped_intervals(
        by_threshold, "threshold", "case", "value", name="q5-cases-by-threshold",
        percent=True, title=f"Contrast: turns by threshold ({USUAL} random players)",
        caption=f"Share of turns ending in each case by threshold card, {USUAL} random "
                "players, with 95% intervals.", xlabel="threshold card",
        ylabel="turns (share)"),
        grouped_intervals(
        by_turn, "round", "case", "value", name="q5-cases-by-turn", percent=True,
        title=f"Contrast: turns by turn number ({USUAL} random players)",
        caption=f"Share of turns ending in each case by turn number, {USUAL} random players, "
                "with 95% intervals.", xlabel="turn", ylabel="turns (share)")]
    extra = (f"By threshold card ({USUAL} random players):\n\n"
             f"{markdown(case_table(by_threshold, 'threshold', 'threshold'))}\n\n"
             f"By turn ({USUAL} random players):\n\n"
             f"{markdown(case_table(by_turn, 'round', 'turn'))}\n\n"
             + "\n\n".join(BOOK.figure(f, PLAYERS) for f in figures))
    return BOOK.section(5, "Contrast: the three resolution cases at random play", PLAYERS,
                        answer, overall, extra,
                        CONTRAST_QUESTIONS[2])


def lone(runs: Path) -> str:
    cells = BOOK.load(runs, PLAYERS)["cells"]
    table = pd.DataFrame({
        "players": cells["players"], "bots": cells["lineup"],
        "turns with a capture": intervals(cells, "case_lone"),
        "games with a capture": intervals(cells, "games_with_capture"),
        "points kept by the lone player": intervals(cells, "lone_turn_points", "plain"),
        "points kept by any player": intervals(cells, "turn_points", "plain"),
        "win share per lone turn": intervals(cells, "lone_win_share", "pp")})
    rand = cells[cells["lineup"] == "random"].set_index("players")
    resp = cells[cells["lineup"] == "responder"]
    usual = rand.loc[USUAL]
    pays = ("Being alone pays" if usual["lone_turn_points_low"] > usual["turn_points_high"]
            else "Being alone pays no more than an average turn")
    answer = CONTRAST + (
        f"{pays}. With {USUAL} random players the lone player keeps "
        f"{plain(usual['lone_turn_points'])} points in that turn (its own card plus the "
        f"captured one) against {plain(usual['turn_points'])} for an average player-turn, and "
        f"each lone turn adds {100 * usual['lone_win_share']:.1f} percentage points to the "
        f"chance of winning the game. Captures happen in "
        f"{percent(rand['case_lone'].min())} to {percent(rand['case_lone'].max())} of turns "
        f"with random players (most at {rand['case_lone'].idxmax()} players, fewest at "
        f"{rand['case_lone'].idxmin()}), and in "
        f"{percent(rand['games_with_capture'].min())} or more of games. Responder tables "
        + ("never capture."
           if resp["case_lone"].max() == 0 else
           f"capture in at most {percent(resp['case_lone'].max())} of turns."))
    fig = grouped_intervals(
        cells, "players", "lineup", "lone_win_share", name="q6-lone-value", percent=True,
        title="Contrast: what one lone turn is worth",
        caption="Increase in a player's win share for each turn it was the lone player "
                "(least squares, game-clustered 95% intervals).",
        xlabel="players at the table (count)", ylabel="win share per lone turn")
    return BOOK.section(6, "Contrast: the lone player and captures at random play", PLAYERS,
                        answer, table,
                        BOOK.figure(fig, PLAYERS), CONTRAST_QUESTIONS[3])


def response_cells(runs: Path) -> pd.DataFrame:
    """The best-response cells with the lead bot's edge over 1/K, the lead ``bot`` and the
    population it plays ``against``."""
    cells = with_edge(BOOK.load(runs, RESPONSE)["cells"], "lead_win_share")
    split = cells["lineup"].str.split("+")
    return cells.assign(bot=split.str[0], against=split.str[1])


def best_response(runs: Path) -> str:
    cells = response_cells(runs)
    table = pd.DataFrame({
        "players": cells["players"], "one bot": cells["bot"], "the others": cells["against"],
        "its edge over 1/K": intervals(cells, "lead_win_share_edge", "pp"),
        "its score minus the others'": intervals(cells, "lead_score_diff", "plain")})
    lines = "; ".join(best_responses(cells))
    duel = cells[(cells["bot"] == "contrarian") & (cells["against"] == "safe")]
    answer = CONTRAST + (
        "A contrarian among safe bots: " + "; ".join(
            f"{r['players']} players, win share {interval(r, 'lead_win_share')} against a "
            f"fair {percent(1 / r['players'])}" for _, r in duel.iterrows())
        + ". Best responses to each population (the bot with the highest win share when "
          "seated alone among it, and any other whose interval reaches it): "
          f"{lines}. {exploitable(cells)} {stability(cells)}")
    usual = cells[cells["players"] == USUAL]
    fig = grouped_intervals(
        usual, "against", "bot", "lead_win_share_edge", name="q7-best-response",
        reference=0.0, percent=True,
        title=f"Contrast: one bot among copies of another ({USUAL} players)",
        caption=f"Win share of one bot seated with {USUAL - 1} copies of another, minus the "
                "fair share 1/K, with 95% intervals.",
        xlabel="the other players' bot", ylabel="edge over 1/K (share of games)")
    return BOOK.section(7, "Contrast: one bot against copies of another", RESPONSE, answer,
                        table, BOOK.figure(fig, RESPONSE), CONTRAST_QUESTIONS[4])


def best_responses(cells: pd.DataFrame) -> list[str]:
    """Per (players, population), the bots whose win share is not significantly below the
    best's, with their edge over 1/K."""
    out = []
    for (players, against), rows in cells.groupby(["players", "against"], sort=False):
        top = rows["lead_win_share"].max()
        best = rows[rows["lead_win_share_high"] >= rows.loc[
            rows["lead_win_share"] == top, "lead_win_share_low"].min()]
        out.append(f"{players} players against {against}: " + ", ".join(
            f"{r['bot']} ({interval(r, 'lead_win_share_edge', 'pp')})"
            for _, r in best.sort_values("lead_win_share", ascending=False).iterrows()))
    return out


def exploitable(cells: pd.DataFrame) -> str:
    """The populations in which some single deviator wins at least 95% of games."""
    top = cells.groupby(["players", "against"])["lead_win_share"].max()
    swept = sorted({against for (_, against), share in top.items() if share >= 0.95})
    if not swept:
        return ""
    return (f"Tables of {', '.join(swept)} bots are swept: one player doing something else "
            "wins 95% or more of games at some player count. Identical copies of a "
            "deterministic bot play identical cards, so they share one camp every turn and "
            "leave the deviator alone to save and capture.")


def stability(cells: pd.DataFrame) -> str:
    """Which populations no other bot beats significantly (candidates for an equilibrium
    among these bots) and which invite a deviation."""
    invaded = cells[cells["lead_win_share_edge_low"] > 0].groupby(
        ["players", "against"]).size()
    groups = cells.groupby(["players", "against"]).size().index
    stable = [f"{y} at {k} players" for k, y in groups if (k, y) not in invaded.index]
    if not stable:
        return ("Every population is beaten by some other bot, so none of these fixed ways "
                "of playing is an equilibrium: a table that settles on one invites another.")
    return ("No other bot beats these populations significantly, so they are the candidates "
            f"for an equilibrium among these bots: {', '.join(stable)}; every other "
            "population invites a deviation.")


# --------------------------------------------------------------------------------------
# 8. Contrast: the authors' variants at random play
# --------------------------------------------------------------------------------------
def random_variants(runs: Path) -> str:
    cells = BOOK.load(runs, RANDOM_VARIANTS)["cells"]
    table = pd.DataFrame({
        "rules": cells["variant"], "players": cells["players"],
        **{f"turns: {CASES[c]}": intervals(cells, f"case_{c}") for c in CASES},
        "shared wins": intervals(cells, "shared_win")})
    usual = cells[cells["players"] == USUAL].set_index("variant")
    base = usual.loc["base"]
    lines = []
    for variant in VARIANTS:
        row = usual.loc[variant]
        lines.append(
            f"with {VARIANTS[variant][1]}, split turns {percent(row['case_split'])} "
            f"(defaults {percent(base['case_split'])}) and shared wins "
            f"{percent(row['shared_win'])} (defaults {percent(base['shared_win'])})")
    answer = CONTRAST + (
        f"When every player picks a legal card at random, at {USUAL} players: "
        + "; ".join(lines) + ". Random players choose without looking at the scoring, so "
        "under diamonds they play exactly the turns of the defaults: only the scores, and so "
        "the ties, change. These are the rules' luck; section 3 asks the same of good "
        "players, who adapt their play to the variant.")
    long = cells.melt(id_vars=["variant", "players"], value_vars=["case_split"])
    long = long.assign(value_low=cells["case_split_low"].to_numpy(),
                       value_high=cells["case_split_high"].to_numpy())
    fig = grouped_intervals(
        long.rename(columns={"variant": "rules"}), "players", "rules", "value",
        name="q8-variants-random", percent=True,
        title="Contrast: split turns under the variants (random players)",
        caption="Share of turns in which every card played is lost (at least two players "
                "in each camp), when every player picks a legal card at random, with 95% "
                "intervals.", xlabel="players at the table (count)",
        ylabel="split turns (share of turns)")
    return BOOK.section(8, "Contrast: the authors' variants at random play", RANDOM_VARIANTS,
                        answer, table, BOOK.figure(fig, RANDOM_VARIANTS))


CONTRAST = ("*Contrast, not an answer among good players: random players or tables of "
            "copies of one fixed bot, whose results describe that way of playing as much as "
            "the rules.* ")
CONTRAST_QUESTIONS = {
    1: "How are final scores spread, how often is a win shared, and is every seat's win rate "
       "fair, at 3 to 8 players, among random players and among copies of the reader bot "
       "at its default parameter (`responder`)?",
    2: "How often does a turn end with every card in one camp, with one player alone, or "
       "split, by threshold card and by turn, among random players?",
    3: "What is being the lone player worth, and how often do captures happen, among random "
       "players and copies of the reader bot at its default parameter (`responder`)?",
    4: "How does one bot fare seated alone among copies of another (the loner among "
       "followers, and every other pair)?"}

SECTIONS: list[Callable[[Path], str]] = [good_mix, good_turns, good_variants, scores, cases,
                                         lone, best_response, random_variants]

INTRO = """# Betzanbloo: report on good players

For the authors of Betzanbloo (PGC), who describe it as a short game of double-guessing,
bluff and betrayal. Their question: do double-guessing, betrayal and bluff really happen
when people play well? Every number below comes from simulated games (tapis-vert;
`make betzanbloo-report JOBS=1` regenerates all of it) under the rules of
[docs/rules/betzanbloo.md](../../docs/rules/betzanbloo.md): cards 1 to 10, points scoring,
no talk phase, unless a variant is named.

**The players.** Four good players: the *search* (`ismcts`: imagines the thresholds still
to come and plays many continuations of the game before each card, aiming at the best
placing), the *reader* (`responder@tuned`: plays the card worth most this turn given how
each other player has played so far, its one parameter tuned by play), the *follower*
(`safe`: its lowest card in the camp the others are likely to choose) and the *loner*
(`contrarian`: its highest card in the other camp, hoping to be alone and capture); see
[docs/agents.md](../../docs/agents.md). Each of the fixed bots always plays the same card in
the same position, so a table of copies of one of them plays one game over and over: that
is why every answer here is asked of **mixed populations**. The *meta-game* seats every
combination of the four bots, and finds the **stable mix**: how often each way of playing
should be chosen so that no player gains by switching to another (a symmetric equilibrium,
[docs/metagame.md](../../docs/metagame.md)): as if each player drew its way of playing at
random, with those chances, before the game. A table "drawn from the stable mix" fills each
seat at random with those weights; the *uniform mix* fills each seat with any of the four
alike.

**Which players an answer holds for.** Sections 1 to 3 are asked of good players, at tables
drawn from the stable mix (and from the uniform mix, as a check), at {counts} players and, for
the authors' variants, at {usual} (the engine's default table); 7 players is left out to keep
the simulations to about half an hour of one processor (6 and 8 players frame it).
Sections 4 to 8 are the earlier answers, among random players and tables of copies of one
bot, kept as a labelled contrast.
Brackets are 95% intervals; "pp" are percentage points. A difference smaller than 2 points
is called negligible even when it is significant.
"""


# --------------------------------------------------------------------------------------
# Summaries, in English and in French
# --------------------------------------------------------------------------------------
ADVICE = {
    ("shared_win_apart", "higher"): ("makes shared wins more frequent (give it a tiebreak if you "
                               "keep it)", "rend les victoires partagées plus fréquentes "
                               "(prévoyez un départage si vous la gardez)"),
    ("shared_win_apart", "lower"): ("makes shared wins rarer", "rend les victoires partagées plus "
                              "rares"),
    ("case_split", "lower"): ("loses every card in fewer turns (a gentler game, most useful "
                              "at large tables)", "fait perdre toutes les cartes moins souvent "
                              "(un jeu plus clément, surtout utile à beaucoup de joueurs)"),
    ("case_split", "higher"): ("loses every card in more turns", "fait perdre toutes les "
                               "cartes plus souvent"),
    ("case_lone", "higher"): ("gives more turns to a lone player (more betrayals)",
                              "donne plus de tours à un joueur seul (plus de trahisons)"),
    ("case_lone", "lower"): ("gives fewer turns to a lone player (fewer betrayals)",
                             "donne moins de tours à un joueur seul (moins de trahisons)"),
    ("case_all-same", "higher"): ("saves every card in more turns (more agreement)",
                                  "fait sauver toutes les cartes plus souvent (plus "
                                  "d'entente)"),
    ("case_all-same", "lower"): ("saves every card in fewer turns", "fait sauver toutes les "
                                 "cartes moins souvent")}


def advice(changes: Sequence[tuple[str, Mapping[str, float], str]], french: bool = False
           ) -> str:
    """What a variant's significant, non-negligible changes mean for the authors, in one
    clause (English, or French with ``french``); empty when nothing changes."""
    said = [ADVICE[(name, verdict)][int(french)] for name, _, verdict in changes
            if (name, verdict) in ADVICE]
    return listing(said, french)


def summary_points(runs: Path) -> tuple[list[str], list[str], list[str], list[str]]:
    """The summary's bullets and the recommendations, in English and in French, from the
    same numbers as the sections."""
    counts = cached_games(runs, MIX_TITLE, MIX_QUESTION)
    variants = cached_games(runs, VARIANTS_TITLE, VARIANTS_QUESTION, variants=True)
    first, last = min(COUNTS), max(COUNTS)
    mixed = [k for (k, _), (g, _) in counts.items() if len(stable_mix(g["equilibrium"])) > 1]
    beaten = {k: sum(r["low"] > 1 / k for r in invaders(g["payoff_table"], g["agents"], k))
              for (k, _), (g, _) in counts.items()}
    eq = {k: pops["equilibrium"] for (k, _), (_, pops) in counts.items()}
    usual = eq[USUAL]
    unfair = sum(bool(uneven_seats([e for e in g["seat_effects"]
                                    if e["population"] == "equilibrium"]))
                 for (_, _), (g, _) in counts.items())
    many = [k for k in COUNTS if eq[k]["case_split"] > 0.5]
    mix5 = counts[(USUAL, None)][0]["equilibrium"]
    loners = {a: usual[f"alone_{a}"] for a in stable_mix(mix5)
              if np.isfinite(usual[f"alone_{a}"])}
    loner = max(loners, key=loners.get) if loners else None
    cells = BOOK.load(runs, PLAYERS)["cells"]
    mirror = cells[cells["lineup"] == "responder"]
    response = response_cells(runs)
    pair = response[(response["bot"] == "contrarian") & (response["against"] == "safe")
                    & (response["players"] == USUAL)]
    base_v = variants[(USUAL, None)][1]["equilibrium"]
    var_en, var_fr = [], []
    for variant in VARIANTS:
        changes = variant_changes(variants[(USUAL, variant)][1]["equilibrium"], base_v)
        en, fr = advice(changes), advice(changes, french=True)
        var_en.append(f"{VARIANTS[variant][1]}: " + (f"it {en}" if en else
                                                     "nothing measured changes"))
        var_fr.append(f"{VARIANTS[variant][2]} : " + (f"la variante {fr}" if fr else
                                                      "rien de mesuré ne change"))
    ends = pd.Series([eq[first]["shared_win_apart"], eq[last]["shared_win_apart"]])
    all_beaten = all(n == len(POOL) for n in beaten.values())
    fair_en = ("the seats are fair" if not unfair else "the seats are nearly fair")
    counts_en, counts_fr = listing(mixed), listing(mixed, french=True)

    lone_at = list(dict.fromkeys([first, USUAL, last]))
    english = [
        (f"**Double-guessing is real.** Among the four good players the stable mix holds "
         f"several ways of playing at {counts_en} players" if mixed else
         "**No double-guessing in the stable mix.** At every player count one way of "
         "playing is stable on its own")
        + f" (at {USUAL}: {mix_words(mix5, names=ENGLISH)}), and a fixed way of playing, "
        f"adopted by every other player, "
        f"is beaten by a lone deviator in "
        + ", ".join(f"{beaten[k]} of 4 cases at {k} players" for k in COUNTS)
        + (". No habit is safe" if all_beaten else ". Most habits can be exploited")
        + ": a good player must guess what the others will do (sections 1 and 2).",
        ("**Betrayal is frequent and pays.**" if usual["lone_win_share_low"] > 0 else
         "**Betrayal is frequent.**") + " At tables drawn from the stable mix a turn "
        "leaves one player alone in "
        + listing([f"{percent(eq[k]['case_lone'])} of turns at {k} players" for k in lone_at])
        + (f"; the player who most often ends alone is {ENGLISH[loner]} "
           f"({percent(loners[loner])} of its turns at {USUAL} players)" if loner else "")
        + (f"; each lone turn adds {pp_interval(usual, 'lone_win_share')} to its chance of "
           f"winning" if np.isfinite(usual["lone_win_share"]) else "") + " (section 2).",
        f"**Big tables lose most cards.** Even among good players, split turns (every card "
        f"lost) go from {percent(eq[first]['case_split'])} of turns at {first} players to "
        f"{percent(eq[last]['case_split'])} at {last}"
        + (f"; they are the majority from {min(many)} players" if many else "")
        + f". Wins are shared in {share_range(ends)} of games at {first} and {last} players, "
          f"not counting ties between copies of one fixed bot, which play the same cards "
          f"(section 2).",
        f"**{fair_en.capitalize()}.** Players choose at the same time; in the stable mix "
        f"a seat wins more or less than its fair share by 2 points or more at {unfair} of "
        f"{len(COUNTS)} player counts (smaller significant edges are negligible; section 1).",
        "**Bluff is not measured**: it lives in the talk phase, which the simulation does not "
        "play.",
        f"**The authors' variants, among good players at {USUAL} players:** "
        + "; ".join(var_en) + " (section 3).",
        f"**What the earlier report measured was the bots.** Tables of copies of the reader "
        f"(at its default parameter) shared the win in {share_range(mirror['shared_win'])} "
        f"of games, and the loner "
        f"among four followers wins "
        + (f"{interval(pair.iloc[0], 'lead_win_share')}" if len(pair) else "most games")
        + " of its games: a fixed habit exploited, not a property of the rules (sections 4 "
          "to 8, contrast)."]
    french = [
        (f"**Le double jeu existe bel et bien.** Entre les quatre bons joueurs, le mélange "
         f"stable combine plusieurs façons de jouer à {counts_fr} joueurs" if mixed else
         "**Pas de double jeu dans le mélange stable.** À chaque nombre de joueurs, une "
         "seule façon de jouer est stable")
        + f" (à {USUAL} : {mix_words(mix5, names=FRENCH, french=True)}), et une façon de "
        f"jouer fixe, adoptée par tous les autres, est "
        f"battue par un joueur qui s'en écarte seul dans "
        + ", ".join(f"{beaten[k]} cas sur 4 à {k} joueurs" for k in COUNTS)
        + (". Aucune habitude n'est sûre" if all_beaten else
           ". La plupart des habitudes peuvent être exploitées")
        + " : un bon joueur doit deviner ce que vont faire les autres (sections 1 et 2).",
        ("**La trahison est fréquente et elle paie.**" if usual["lone_win_share_low"] > 0
         else "**La trahison est fréquente.**") + " Aux tables tirées du mélange stable, "
        "un joueur se retrouve seul dans "
        + listing([f"{french_percent(eq[k]['case_lone'])} des tours à {k} joueurs"
                   for k in lone_at], french=True)
        + (f" ; celui qui se retrouve le plus souvent seul est {FRENCH[loner]} "
           f"({french_percent(loners[loner])} de ses tours à {USUAL} joueurs)"
           if loner else "")
        + (f" ; chaque tour passé seul ajoute {100 * usual['lone_win_share']:.0f} points de "
           f"pourcentage à ses chances de gagner" if np.isfinite(usual["lone_win_share"])
           else "") + " (section 2).",
        f"**À beaucoup de joueurs, on perd la plupart des cartes.** Même entre bons "
        f"joueurs, les tours partagés (au moins deux joueurs de chaque côté : toutes les "
        f"cartes jouées sont perdues) passent de {french_percent(eq[first]['case_split'])} "
        f"à {first} joueurs à {french_percent(eq[last]['case_split'])} à {last}"
        + (f" ; ils sont majoritaires dès {min(many)} joueurs" if many else "")
        + f". La victoire est partagée dans {french_range(ends)} des parties à {first} et à "
          f"{last} joueurs, sans compter les égalités entre copies d'un même programme fixe, "
          f"qui jouent les mêmes cartes (section 2).",
        ("**Les places à table sont équitables.**" if not unfair else
         "**Les places à table sont presque équitables.**")
        + f" Tout le monde joue en même temps ; dans le mélange stable, une place gagne "
          f"au moins 2 points de plus ou de moins que sa juste part pour {unfair} des "
          f"{len(COUNTS)} nombres de joueurs étudiés (les écarts plus petits sont "
          f"négligeables ; section 1).",
        "**Le bluff n'est pas mesuré** : il se joue pendant la discussion, que la simulation "
        "ne joue pas.",
        f"**Vos variantes, entre bons joueurs à {USUAL} joueurs :** " + " ; ".join(var_fr)
        + " (section 3).",
        f"**L'ancien rapport mesurait surtout les programmes.** Des tables de copies du "
        f"lecteur (réglé par défaut) partageaient la victoire dans "
        f"{french_range(mirror['shared_win'])} des "
        f"parties, et le solitaire seul parmi quatre suiveurs gagne "
        + (f"{french_interval(pair.iloc[0], 'lead_win_share')}" if len(pair)
           else "presque toujours")
        + " de ses parties : une habitude fixe exploitée, pas une propriété des règles "
          "(sections 4 à 8, pour comparaison)."]
    few = [k for k in COUNTS if k not in many]
    recommend_en = [
        ("**Keep the silent game's core as it is**: with no talk at all, good players "
         "already have to guess each other and break away; the numbers give no reason to "
         "change the turn's three outcomes." if mixed else
         "**Look again at the turn's outcomes**: among good players one way of playing is "
         "stable on its own, so the silent game asks for little guessing."),
        (f"**Say on the box that the game is best at {listing(few)} players.** From "
         f"{min(many)} players most turns lose every card even among good players, and wins "
         f"are shared more often." if many and few else
         f"**At every player count studied ({listing(list(COUNTS))}) most turns lose every "
         f"card**, even among good players: say so on the box."
         if many else
         f"**Every player count studied ({listing(list(COUNTS))}) works** among good "
         f"players: split turns stay a minority."),
        *([f"**Add a tiebreak.** Among good players {interval(usual, 'shared_win_apart')} of "
           f"games "
           f"at {USUAL} players end in a shared win ({share_range(ends)} at {first} and "
           f"{last} players), not counting ties between copies of one fixed bot, which "
           f"play the same cards."] if usual["shared_win_apart"] > TIES else []),
        "**Variants:** " + "; ".join(var_en) + ".",
        "**Test the talk phase with people.** Bluff and promises live there; a simulation "
        "cannot tell whether they add to the game."]
    recommend_fr = [
        ("**Gardez le cœur du jeu tel qu'il est** : même sans discussion, les bons joueurs "
         "doivent déjà se deviner et trahir ; rien dans les chiffres ne pousse à changer les "
         "trois issues d'un tour." if mixed else
         "**Revoyez les issues d'un tour** : entre bons joueurs, une seule façon de jouer "
         "est stable, le jeu silencieux demande donc peu de devinette."),
        (f"**Indiquez que le jeu est meilleur à {listing(few, french=True)} joueurs.** Dès "
         f"{min(many)} joueurs, la plupart des tours font perdre toutes les cartes, même "
         f"entre bons joueurs, et la victoire est plus souvent partagée." if many and few else
         f"**À tous les nombres de joueurs étudiés ({listing(list(COUNTS), french=True)}), "
         f"la plupart des tours font perdre toutes les cartes**, même entre bons joueurs : "
         f"dites-le sur la boîte." if many else
         f"**Tous les nombres de joueurs étudiés ({listing(list(COUNTS), french=True)}) "
         f"fonctionnent** entre bons joueurs : les tours où tout est perdu restent "
         f"minoritaires."),
        *([f"**Ajoutez un départage.** Entre bons joueurs, "
           f"{french_interval(usual, 'shared_win_apart')} des parties à {USUAL} joueurs se "
           f"terminent sur une victoire partagée ({french_range(ends)} à {first} et à {last} "
           f"joueurs), sans compter les égalités entre copies d'un même programme fixe, qui "
           f"jouent les mêmes cartes."] if usual["shared_win_apart"] > TIES else []),
        "**Variantes :** " + " ; ".join(var_fr) + ".",
        "**Testez la discussion avec de vrais joueurs.** Le bluff et les promesses s'y "
        "jouent ; une simulation ne peut pas dire s'ils enrichissent le jeu."]
    return english, french, recommend_en, recommend_fr


def summaries(runs: Path) -> str:
    """The report's summary in English and in French (terms explained, bots described), or
    what to run while a run it reads is missing."""
    try:
        english, french, recommend_en, recommend_fr = summary_points(runs)
    except NotRun:
        return "## Summary\n\nThe summary appears once every meta-game and experiment has run.\n"
    return ("## Summary (English)\n\nEvery figure here reappears below with its interval and "
            "the command that reproduces it.\n\n" + "\n".join(f"- {b}" for b in english)
            + "\n\n### Recommendations\n\n" + "\n".join(f"- {b}" for b in recommend_en)
            + "\n\n## Résumé (français)\n\nPour les auteurs. Les joueurs simulés : "
            + "; ".join(FRENCH_DESCRIBED[a] for a in POOL)
            + ". Le *mélange stable* est la proportion de chaque façon de jouer telle "
              "qu'aucun joueur ne gagne à changer seul de façon de jouer. Les crochets "
              "donnent un intervalle de confiance à 95 %. Chaque chiffre est repris plus "
              "bas, avec la commande qui le reproduit.\n\n"
            + "\n".join(f"- {b}" for b in french)
            + "\n\n### Recommandations\n\n" + "\n".join(f"- {b}" for b in recommend_fr)
            + "\n")


def build(runs: Path) -> Path:
    """Write README.md (the summaries, then every question) and its figures."""
    intro = INTRO.format(counts=listing(list(COUNTS)), usual=USUAL)
    return BOOK.build(runs, SECTIONS, "betzanbloo-report", intro + "\n" + summaries(runs))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--metagames"]:
        print("\n".join(metagame_lines(Path("runs/experiments"))))
        return 0
    return BOOK.main(argv, __doc__.split("\n\n")[0], build)


if __name__ == "__main__":
    sys.exit(main())
