"""``python -m sim.report RUN_DIR [--out DIR]``: a run's report, in Markdown and HTML.

    python -m sim.report runs/paris-damis-20261129T120000Z
    python -m sim.report runs/paris-damis-20261129T120000Z --out reports/baseline

The report opens with the run's parameters and a plain-language summary of what is and is
not significant, then gives the tables (win shares, bet accuracy, game length) and the
figures the run's tables support.  :func:`write_comparison_report` does the same for runs
compared with a baseline (``sim.analysis.compare.compare``).  Each report folder holds
``report.md``, ``report.html`` (self-contained: figures embedded as PNG data, inline CSS, no
network resources) and the figures as PNG files; it is written to a temporary folder and
renamed, so a failed report leaves nothing behind.  See docs/reports.md.
"""

from __future__ import annotations

import argparse
import base64
import html
import os
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from sim import results, runlock, stats
from sim.analysis import Run, analyze, headline
from sim.analysis.balance import decisions_that_matter
from sim.analysis.compare import MIN_EFFECT
from sim.analysis.figures import Figure, forest, run_figures
from sim.batch.summary import strongest_bots
from sim.cli import Parser, UsageError, usage_error

ALPHA = 0.05
SIGNIFICANCE_NOTE = ("Significant means p < 0.05 (two-sided tests); numbers in brackets are "
                     "95% intervals.")


# --------------------------------------------------------------------------------------
# A report as a list of blocks, rendered to Markdown and to HTML
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Heading:
    """A section heading (level 1 is the report's title)."""

    text: str
    level: int = 2


@dataclass(frozen=True)
class Text:
    """A paragraph of plain text."""

    text: str


@dataclass(frozen=True)
class Bullets:
    """A bulleted list of plain-text sentences."""

    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    """A titled table whose cells are already text."""

    title: str
    frame: pd.DataFrame


Block = Heading | Text | Bullets | Table | Figure


def markdown_table(frame: pd.DataFrame) -> str:
    """A DataFrame of text as a Markdown (GitHub) table."""
    rows = [list(frame.columns), ["---"] * frame.shape[1], *frame.values.tolist()]
    return "\n".join("| " + " | ".join(map(str, row)) + " |" for row in rows)


def to_markdown(blocks: Sequence[Block]) -> str:
    """The report in Markdown; figures refer to their PNG files beside ``report.md``."""
    parts = []
    for block in blocks:
        match block:
            case Heading(text, level):
                parts.append(f"{'#' * level} {text}")
            case Text(text):
                parts.append(text)
            case Bullets(items):
                parts.append("\n".join(f"- {item}" for item in items))
            case Table(title, frame):
                parts.append(f"**{title}**\n\n{markdown_table(frame)}")
            case Figure(name, title, caption):
                parts.append(f"![{title}]({name}.png)\n\n*{caption}*")
    return "\n\n".join(parts) + "\n"


CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222;
       max-width: 56rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
h1 { font-size: 1.7rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.4rem 0 1.2rem; font-size: 0.95rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.6rem; text-align: left; }
th { background: #f2f4f6; }
.table-title { font-weight: 600; margin-bottom: 0; }
figure { margin: 1.2rem 0; } figure img { max-width: 100%; height: auto; }
figcaption { font-style: italic; color: #444; }
"""


def to_html(title: str, blocks: Sequence[Block], pngs: Mapping[str, bytes]) -> str:
    """The report as one self-contained HTML page; ``pngs`` holds each figure's PNG by name
    (embedded as data URIs)."""
    parts = []
    for block in blocks:
        match block:
            case Heading(text, level):
                parts.append(f"<h{level}>{html.escape(text)}</h{level}>")
            case Text(text):
                parts.append(f"<p>{html.escape(text)}</p>")
            case Bullets(items):
                parts.append("<ul>" + "".join(f"<li>{html.escape(i)}</li>" for i in items)
                             + "</ul>")
            case Table(table_title, frame):
                parts.append(f'<p class="table-title">{html.escape(table_title)}</p>'
                             + frame.to_html(index=False, border=0))
            case Figure(name, figure_title, caption):
                data = base64.b64encode(pngs[name]).decode("ascii")
                parts.append(f'<figure><img src="data:image/png;base64,{data}" '
                             f'alt="{html.escape(figure_title)}"><figcaption>'
                             f"{html.escape(caption)}</figcaption></figure>")
    body = "\n".join(parts)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
            f"{body}\n</body>\n</html>\n")


def publish(blocks: Sequence[Block], out: str | os.PathLike) -> Path:
    """Write ``report.md``, ``report.html`` and the figures' PNG files to the folder ``out``
    and return it.  Everything is written to a temporary folder beside ``out``, then renamed
    into place (replacing an earlier report there), so a failure leaves nothing behind.

    Raises ValueError when ``out`` holds something other than a report, OSError when it
    cannot be written."""
    out = Path(out)
    if out.exists() and not (out / "report.md").is_file() \
            and (not out.is_dir() or any(out.iterdir())):
        raise ValueError(f"{out} exists and is not a report folder; choose another --out")
    title = next(b.text for b in blocks if isinstance(b, Heading))
    pngs = {b.name: b.png() for b in blocks if isinstance(b, Figure)}
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        for name, png in pngs.items():
            (staging / f"{name}.png").write_bytes(png)
        (staging / "report.md").write_text(to_markdown(blocks), encoding="utf-8")
        (staging / "report.html").write_text(to_html(title, blocks, pngs), encoding="utf-8")
        staging.chmod(0o755)
        if out.exists():
            retired = staging.with_name(staging.name + "-old")
            out.rename(retired)
            staging.rename(out)
            shutil.rmtree(retired)
        else:
            staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out


# --------------------------------------------------------------------------------------
# Numbers as text
# --------------------------------------------------------------------------------------
def percent(value: float) -> str:
    """A proportion as a percentage with one decimal: 0.2613 -> '26.1%'."""
    return f"{100 * value:.1f}%"


def estimate(value: float, low: float, high: float) -> str:
    """A proportion with its interval, in percent: '26.1% [25.5, 26.7]'."""
    return f"{percent(value)} [{100 * low:.1f}, {100 * high:.1f}]"


def p_text(p: float) -> str:
    """A p-value for a sentence: 'p = 0.012', 'p < 0.001'."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def number(value: float) -> str:
    """A count or statistic with thousands separators: no decimals for a whole number,
    one otherwise (shared wins, means)."""
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


# --------------------------------------------------------------------------------------
# A run's report
# --------------------------------------------------------------------------------------
def share_sentence(subject: str, row: Mapping[str, Any], fair: float) -> str:
    """Whether ``subject`` (a ``win_share`` row) wins significantly more or less than the
    fair share, by the score test that matches the row's Wilson interval."""
    p = stats.proportion_test(row["wins"], row["n"], fair)
    verdict = (f"significantly {'more' if row['share'] > fair else 'less'} than"
               if p < ALPHA else "not significantly different from")
    return (f"{subject} wins {estimate(row['share'], row['low'], row['high'])} of its "
            f"games, {verdict} the fair {percent(fair)} ({p_text(p)}).")


def seat_sentences(run: Run, analysis: Mapping[str, Any]) -> list[str]:
    """Sentences on the seats' and agents' win shares."""
    fair = 1 / run.n_players
    seats = analysis["win_share_by_seat"]
    first = seats[seats["seat"] == run.first_seat].iloc[0]
    test = analysis["seat_equality"]
    verdict = "differ significantly" if test["p_value"] < ALPHA else "do not differ significantly"
    sentences = [share_sentence(f"Seat {run.first_seat}, the first to play,", first, fair),
                 f"Win shares by seat {verdict} from equal shares (chi-square test, "
                 f"{test['dof']} degrees of freedom, {p_text(test['p_value'])})."]
    agents = analysis["win_share_by_agent"]
    if len(agents) > 1:
        sentences += [share_sentence(f"Agent {row['agent']}", row, fair)
                      for _, row in agents.iterrows()]
    return sentences


def group_sentence(table: pd.DataFrame, column: str, noun: str) -> str:
    """Whether bet accuracy differs between the groups of ``column`` (chi-square test of
    homogeneity), with the least and most accurate groups."""
    test = stats.homogeneity_test(table["correct"], table["n"])
    low, high = table["accuracy"].idxmin(), table["accuracy"].idxmax()
    verdict = "differs significantly" if test["p_value"] < ALPHA \
        else "does not differ significantly"
    return (f"Bet accuracy {verdict} by {noun} ({p_text(test['p_value'])}): from "
            f"{percent(table.at[low, 'accuracy'])} ({noun} {table.at[low, column]}) to "
            f"{percent(table.at[high, 'accuracy'])} ({noun} {table.at[high, column]}).")


BET_GROUPS = (("bet_accuracy_by_value", "bet", "bet value"),
              ("bet_accuracy_by_position", "bet_position", "betting position"),
              ("bet_accuracy_by_agent", "agent", "agent"))


def bet_sentences(analysis: Mapping[str, Any]) -> list[str]:
    """Sentences on bet accuracy, overall and by value, position and agent."""
    if "bet_accuracy" not in analysis:
        return []
    overall = analysis["bet_accuracy"].iloc[0]
    sentences = [f"Bets are correct "
                 f"{estimate(overall['accuracy'], overall['low'], overall['high'])} of the "
                 f"time ({number(overall['n'])} bets)."]
    sentences += [group_sentence(analysis[key], column, noun)
                  for key, column, noun in BET_GROUPS
                  if key in analysis and len(analysis[key]) > 1]
    return sentences


# Below this many percentage points a snowball is called negligible, significant or not.
NEGLIGIBLE_PP = 1.0


def balance_sentences(analysis: Mapping[str, Any]) -> list[str]:
    """Sentences on the snowball of a correct bet and on how often a lead holds (luck is in
    the verdict, :func:`verdict_sentences`)."""
    sentences = []
    ball = analysis.get("snowball")
    if ball:
        size = 100 * ball["snowball"]
        verdict = "negligible" if abs(size) < NEGLIGIBLE_PP else \
            ("a snowball" if ball["snowball_low"] > 0 else
             "an anti-snowball" if ball["snowball_high"] < 0 else "not significant")
        sentence = (f"After a correct bet the same agent bets correctly in the next round "
                    f"{size:+.1f} pp [{100 * ball['snowball_low']:+.1f}, "
                    f"{100 * ball['snowball_high']:+.1f}] more often ({verdict}; "
                    f"{percent(ball['after_win'])} after a correct bet, "
                    f"{percent(ball['after_loss'])} after a wrong one, before accounting "
                    f"for the agent)")
        cards = analysis.get("snowball_cards")
        if cards:
            sentence += (f", and wins {cards['snowball']:+.2f} "
                         f"[{cards['snowball_low']:+.2f}, {cards['snowball_high']:+.2f}] "
                         f"more points cards in it")
        sentences.append(sentence + ".")
    leads = analysis.get("leader_wins")
    if leads is not None and len(leads) > 1:
        middle = leads.iloc[len(leads) // 2 - 1]
        late = leads.iloc[-2]
        sentences.append(
            f"Decisive lead: the sole leader after round {int(middle['round'])} of "
            f"{int(leads['round'].max())} goes on to win "
            f"{estimate(middle['holds'], middle['low'], middle['high'])} of its games "
            f"(comebacks in the rest), after round {int(late['round'])} "
            f"{estimate(late['holds'], late['low'], late['high'])}.")
    changes = analysis.get("lead_changes")
    if changes:
        sentences.append(
            f"Drama: the sole leader changes {changes['lead_changes']:.2f} "
            f"[{changes['lead_changes_low']:.2f}, {changes['lead_changes_high']:.2f}] times "
            f"per game on average, at least once in {percent(changes['games_with_change'])} "
            f"of games.")
    return sentences


def judge_text(settings: Mapping[str, Any]) -> str:
    """The judge of ``sim.decisions``, from its settings."""
    depth = f", {settings['horizon']} rounds deep" if settings.get("horizon") else ""
    return f"flatmc with {settings['tries']} simulations per legal action{depth}"


def decision_sentences(figures: Mapping[str, Any], settings: Mapping[str, Any]) -> list[str]:
    """What the judged decisions say (:func:`sim.analysis.balance.decisions_that_matter`):
    how many matter, in which phases, and how often each agent takes the judge's best."""
    lines = [f"Decisions that matter: "
             f"{estimate(figures['matters'], figures['matters_low'], figures['matters_high'])} "
             f"of the {figures['decisions']:,} decisions with a choice in {figures['games']} "
             f"games: there the judge ({judge_text(settings)}) finds one action ahead of "
             f"the next by at least {100 * figures['margin']:g} pp of win share, beyond its "
             f"noise; elsewhere any reasonable move does about as well."]
    phases = figures["by_phase"].sort_values("matters", ascending=False)
    if len(phases) > 1:
        lines.append("By phase: " + ", ".join(
            f"{row.phase} {estimate(row.matters, row.low, row.high)} of {row.decisions:,}"
            for row in phases.itertuples()) + ".")
    chosen = [f"{row.agent} {estimate(row.best_chosen, row.low, row.high)} (giving up "
              f"{row.regret:.3f} of win share on average)"
              for row in figures["by_agent"].itertuples() if row.regret == row.regret]
    if chosen:
        lines.append("Where a decision matters, the judge's best action is taken by "
                     + ", ".join(chosen) + ".")
    return lines


def players_phrase(run: Run) -> str:
    """Who played, as the population a figure holds for."""
    agents = sorted(set(run.agents))
    if len(agents) == 1:
        return f"tables of {run.n_players} copies of {agents[0]}"
    seating = run.manifest["spec"].get("seating", "rotate")
    return f"mixed tables of {', '.join(agents)} (seating: {seating})"


def verdict_sentences(run: Run, analysis: Mapping[str, Any]) -> list[str]:
    """What a designer reads first: players, seats, skill, luck and length, one line each,
    with its number, its interval and the players it holds for."""
    fair = 1 / run.n_players
    lines = [f"Players: {players_phrase(run)}."]
    if set(run.agents) == {"random"}:
        lines.append("Random play only: these figures say how the rules play at random (the "
                     "luck of the rules), not whether they are fair or reward skill among good "
                     "players; ask that of this game's strongest bots ("
                     f"{', '.join(strongest_bots(run.game))}) with sim.metagame.")
    seats = analysis["win_share_by_seat"]
    first = seats[seats["seat"] == run.first_seat].iloc[0]
    p = stats.proportion_test(first["wins"], first["n"], fair)
    unfair = analysis["seat_equality"]["p_value"] < ALPHA
    lines.append(f"Seats: {'unequal' if unfair else 'no significant difference'}; the first "
                 f"seat wins {estimate(first['share'], first['low'], first['high'])} against "
                 f"the fair {percent(fair)} ({p_text(p)}).")
    agents = analysis["win_share_by_agent"]
    if len(agents) > 1:
        best = agents.loc[agents["share"].idxmax()]
        others = ", ".join(a for a in agents["agent"].astype(str) if a != best["agent"])
        lines.append(f"Skill: {best['agent']} wins "
                     f"{estimate(best['share'], best['low'], best['high'])} of its games "
                     f"against {others} (fair {percent(fair)}).")
    else:
        lines.append("Skill: one agent only, so not measured here (sim.tournament, "
                     "sim.metagame).")
    luck = analysis.get("luck")
    if luck:
        lines.append(f"Luck: {estimate(luck['luck'], luck['luck_low'], luck['luck_high'])} "
                     f"of the variance of a seat's win share is not explained by which agent "
                     f"sits there (among the agents of this run: against weak agents it says "
                     f"little about luck among good players).")
    lines.append(f"Length: {length_text(analysis)}.")
    return lines


def length_text(analysis: Mapping[str, Any]) -> str:
    """A game's length: median decisions, the middle 90% of games and the mean rounds."""
    decisions = analysis["decisions"]
    text = (f"{decisions['median']:,.0f} decisions on median (90% of games between "
            f"{decisions['p5']:,.0f} and {decisions['p95']:,.0f})")
    if "rounds" in analysis:
        text += f" over {analysis['rounds']['mean']:.1f} rounds on average"
    return text


OUTCOMES = {"shared_win": "end in a shared win", "tiebreak": "are decided by the bet tiebreak"}


def game_sentences(analysis: Mapping[str, Any]) -> list[str]:
    """Sentences on game length and on how games are decided."""
    sentences = [f"A game takes {length_text(analysis)}."]
    sentences += [f"{estimate(share['p'], share['low'], share['high'])} of games "
                  f"{OUTCOMES[key]}." for key, share in analysis["decisive"].items()]
    return sentences


def settings(run: Run) -> dict[str, str]:
    """The run's settings besides its rule parameters, as text."""
    spec = run.manifest["spec"]
    return {"agents": ",".join(run.agents), "seating": spec["seating"], "seed": str(run.seed),
            "games": str(spec["games"])}


def parameter_tables(run: Run) -> list[Table]:
    """The run's settings and its rule parameters as tables."""
    rows = {"game": run.game, "players": run.n_players, **settings(run),
            "run directory": run.path, "finished": run.manifest.get("finished"),
            "version": run.manifest.get("version"),
            "git revision": run.manifest.get("git_revision")}
    return [Table("Run", pd.DataFrame({"setting": list(rows),
                                       "value": [str(v) for v in rows.values()]})),
            Table("Rule parameters", pd.DataFrame({"parameter": list(run.params),
                                                   "value": list(run.params.values())}))]


def proportion_table(title: str, table: pd.DataFrame, headers: Sequence[str]) -> Table:
    """A ``win_share`` or ``bet_accuracy`` table as text.  Its columns are the keys, then
    trials, successes, the proportion and its interval; ``headers`` names the keys, trials,
    successes and the proportion."""
    *keys, trials, successes, value, low, high = table.columns
    cells = [table[key].astype(str) for key in keys] + [
        table[trials].map(number), table[successes].map(number),
        [estimate(*row) for row in zip(table[value], table[low], table[high], strict=True)]]
    return Table(title, pd.DataFrame(dict(zip(headers, cells, strict=True))))


LENGTHS = (("decisions", "decisions per game"), ("rounds", "rounds per game"),
           ("decisions_per_player", "decisions per player"))
PERCENTILES = ("mean", "min", "p5", "p25", "median", "p75", "p95", "max")


def length_table(analysis: Mapping[str, Any]) -> Table:
    """Mean and percentiles of game length (decisions, rounds, decisions per player)."""
    rows = [[label] + [number(analysis[key][stat]) for stat in PERCENTILES]
            for key, label in LENGTHS if key in analysis]
    return Table("Game length: mean and percentiles",
                 pd.DataFrame(rows, columns=["measure", *PERCENTILES]))


def decision_blocks(figures: Mapping[str, Any], settings: Mapping[str, Any]) -> list[Block]:
    """The section on the decisions ``sim.decisions`` judged: sentences, then the share that
    matter by phase and each agent's choices where they matter."""
    phases = figures["by_phase"]
    by_agent = figures["by_agent"]
    return [Heading("Decisions that matter"),
            Bullets(tuple(decision_sentences(figures, settings))),
            Table("Decisions that matter, by phase", pd.DataFrame({
                "phase": phases["phase"], "decisions": phases["decisions"].map(number),
                "matter [95% interval]": [estimate(*row) for row in zip(
                    phases["matters"], phases["low"], phases["high"], strict=True)],
                "mean lead of the best": phases["margin"].map(lambda v: f"{v:.3f}")})),
            Table("Each agent where a decision matters", pd.DataFrame({
                "agent": by_agent["agent"], "decisions": by_agent["decisions"].map(number),
                "matter": by_agent["matters"].map(percent),
                "takes the judge's best [95% interval]": [estimate(*row) for row in zip(
                    by_agent["best_chosen"], by_agent["low"], by_agent["high"],
                    strict=True)],
                "win share given up": by_agent["regret"].map(lambda v: f"{v:.3f}")}))]


def run_blocks(run: Run) -> list[Block]:
    """The whole report of one run, as blocks."""
    analysis = analyze(run)
    figures = {f.name: f for f in run_figures(analysis, run.n_players)}
    win_tables = [proportion_table("Win share by seat", analysis["win_share_by_seat"],
                                   ["seat", "games", "wins", "win share [95% interval]"]),
                  proportion_table("Win share by agent", analysis["win_share_by_agent"],
                                   ["agent", "games", "wins", "win share [95% interval]"])]
    judged = results.read_decisions(run.path)
    decisions = None if judged is None else decisions_that_matter(judged[0])
    verdict = verdict_sentences(run, analysis)
    if decisions is not None:
        share = estimate(decisions["matters"], decisions["matters_low"],
                         decisions["matters_high"])
        verdict.append(f"Decisions: {share} of the decisions with a choice matter (the "
                       f"judge's best action leads the next by at least "
                       f"{100 * decisions['margin']:g} pp of win share; "
                       f"{decisions['games']} games of this run, sim.decisions).")
    blocks: list[Block] = [
        Heading(f"{run.game}: report on run {run.label}", 1),
        Heading("Verdict"), Bullets(tuple(verdict)),
        Heading("Summary"), Text(SIGNIFICANCE_NOTE),
        Bullets(tuple(seat_sentences(run, analysis) + bet_sentences(analysis)
                      + balance_sentences(analysis) + game_sentences(analysis))),
        Heading("Win shares"), *win_tables]
    blocks += [figures[n] for n in ("win_share_by_seat", "win_share_by_agent") if n in figures]
    if "bet_accuracy" in analysis:
        blocks += [Heading("Bets"),
                   proportion_table("Bet accuracy by bet value",
                                    analysis["bet_accuracy_by_value"],
                                    ["bet", "bets", "correct", "accuracy [95% interval]"]),
                   proportion_table("Bet accuracy by betting position (0 = first to bet)",
                                    analysis["bet_accuracy_by_position"],
                                    ["position", "bets", "correct",
                                     "accuracy [95% interval]"])]
        blocks += [figures[n] for n in ("bet_accuracy_by_value_position", "k_distribution")
                   if n in figures]
    blocks += [Heading("Game length"), length_table(analysis)]
    blocks += [figures[n] for n in ("game_length", "hand_size_by_round") if n in figures]
    if judged is not None and decisions is not None:
        blocks += decision_blocks(decisions, judged[1])
    blocks += [Heading("Parameters"), *parameter_tables(run)]
    return blocks


def write_report(run_dir: str | os.PathLike, out: str | os.PathLike | None = None) -> Path:
    """Write the report of the run in ``run_dir`` to the folder ``out`` (default
    ``run_dir/report``) and return that folder.

    Raises ValueError for a missing, incomplete or damaged run or an ``out`` that is not a
    report folder, :class:`~sim.runlock.RunInUse` when ``out`` is in the run and another
    process writes the run, OSError when ``out`` cannot be written."""
    folder = default_folder(run_dir) if out is None else Path(out)
    results.read_manifest(run_dir)              # a run directory, or one line saying why
    inside = folder.resolve().is_relative_to(Path(run_dir).resolve())
    with runlock.writing(run_dir) if inside else nullcontext():
        return publish(run_blocks(Run.open(run_dir)), folder)


def default_folder(run_dir: str | os.PathLike) -> Path:
    """Where a run's report goes by default: ``run_dir/report``."""
    return Path(run_dir) / "report"


# --------------------------------------------------------------------------------------
# A comparison's report
# --------------------------------------------------------------------------------------
def changes(run: Run, baseline: Run) -> str:
    """What sets ``run`` apart from ``baseline``: rule parameters, then other settings."""
    mine, theirs = settings(run), settings(baseline)
    diffs = [f"{k}={v}" for k, v in run.params.items() if baseline.params.get(k) != v]
    diffs += [f"{k} {v}" for k, v in mine.items() if theirs[k] != v]
    return ", ".join(diffs) or "none"


def runs_table(runs: Sequence[Run], baseline: Run) -> Table:
    """The compared runs: label, role, size, seed and their changes from the baseline."""
    frame = pd.DataFrame({
        "run": [r.label for r in runs],
        "role": ["baseline" if r is baseline else "variant" for r in runs],
        "games": [number(len(r.games)) for r in runs],
        "seed": [str(r.seed) for r in runs],
        "changes from the baseline": [changes(r, baseline) for r in runs],
        "run directory": [str(r.path) for r in runs]})
    return Table("Runs", frame)


def value_text(value: float, kind: str) -> str:
    """A compared value: a percentage for a proportion, two decimals for a mean."""
    return percent(value) if kind == "proportion" else f"{value:,.2f}"


def diff_text(row: Mapping[str, Any]) -> str:
    """A difference with its Holm-adjusted interval (``low_adj``, ``high_adj``; ``low``,
    ``high`` in a table saved before they existed): '+1.2 pp [+0.3, +2.1]' for a proportion,
    '-81.37 [-82.01, -80.73]' for a mean."""
    low, high = (row[f"{end}_adj"] if f"{end}_adj" in row else row[end]
                 for end in ("low", "high"))
    if row["kind"] == "proportion":
        return f"{100 * row['diff']:+.1f} pp [{100 * low:+.1f}, {100 * high:+.1f}]"
    return f"{row['diff']:+,.2f} [{low:+,.2f}, {high:+,.2f}]"


def effect_text(row: Mapping[str, Any], short: bool = False) -> str:
    """An effect size with its name: "Cohen's h +0.07", or "h +0.07" when ``short`` ("-"
    when undefined)."""
    size = row["effect_size"]
    name = row["effect"].split()[-1] if short else row["effect"]
    return f"{name} {'-' if pd.isna(size) else f'{size:+.2f}'}"


def p_value_text(p: float) -> str:
    """A p-value for a table cell: '0.012', '< 0.001'."""
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def verdict(row: Mapping[str, Any]) -> str:
    """A compared row in a word: 'significant', 'negligible' (significant, but an effect
    size below the threshold) or 'no'."""
    if not row["significant"]:
        return "no"
    return "negligible" if row["negligible"] else "significant"


def intervals_note(table: pd.DataFrame, min_effect: float) -> str:
    """What a comparison's intervals and verdicts mean, with the range of levels used."""
    low, high = (f"{100 * level:.2f}".rstrip("0").rstrip(".") + "%"
                 for level in (table["confidence_adj"].min(), table["confidence_adj"].max()))
    span = low if low == high else f"{low} to {high}"
    return (f"Significant means p < {ALPHA} after Holm's correction over all {len(table)} "
            f"comparisons. Each interval is at the confidence level of its row's Holm "
            f"adjustment ({span} here, between 95% and Bonferroni's), so it leaves 0 out "
            f"exactly when the row is significant. Negligible: significant, but the effect "
            f"size (Cohen's h for shares, d for means) is below {min_effect:g} in absolute "
            f"value. pp: percentage points.")


def comparison_sentences(table: pd.DataFrame, names: Mapping[str, str]) -> list[str]:
    """Per variant (named by ``names``, label -> description): each significant difference
    in a sentence, then the measures that do not differ significantly."""
    sentences = []
    for variant, rows in headline(table).groupby("variant", sort=False):
        name = names[variant]
        for _, row in rows[rows["significant"] & ~rows["negligible"]].iterrows():
            sentences.append(
                f"{name}: {row['figure']} changes significantly from "
                f"{value_text(row['baseline_value'], row['kind'])} to "
                f"{value_text(row['value'], row['kind'])} ({diff_text(row)}, Holm-adjusted "
                f"{p_text(row['p_holm'])}, {effect_text(row)}).")
        tiny = rows.loc[rows["significant"] & rows["negligible"], "figure"]
        if len(tiny):
            sentences.append(f"{name}: significant but negligible differences (effect size "
                             f"below the threshold) in {', '.join(tiny)}.")
        same = rows.loc[~rows["significant"], "figure"]
        if len(same):
            sentences.append(f"{name}: no significant difference in {', '.join(same)}.")
    return sentences


def differences_table(table: pd.DataFrame) -> Table:
    """Every compared measure, significant ones first, as text."""
    rows = headline(table)
    frame = pd.DataFrame({
        "measure": rows["figure"], "variant": rows["variant"],
        "baseline": [value_text(v, k) for v, k in zip(rows["baseline_value"], rows["kind"],
                                                       strict=True)],
        "variant value": [value_text(v, k) for v, k in zip(rows["value"], rows["kind"],
                                                            strict=True)],
        "difference [adjusted interval]": [diff_text(row) for _, row in rows.iterrows()],
        "Holm-adjusted p": rows["p_holm"].map(p_value_text),
        "significant": [verdict(row) for _, row in rows.iterrows()],
        "effect size": [effect_text(row) for _, row in rows.iterrows()],
        "method": rows["method"]})
    return Table("Differences from the baseline", frame)


def comparison_blocks(runs: Sequence[Run], table: pd.DataFrame,
                      min_effect: float = MIN_EFFECT) -> list[Block]:
    """The whole report of a comparison (``min_effect``: the threshold ``table`` was made
    with), as blocks."""
    baseline = next((r for r in runs if r.label == table["baseline"].iloc[0]), None)
    if baseline is None:
        raise ValueError(f"the table's baseline {table['baseline'].iloc[0]!r} is not one of "
                         "the runs")
    names = {r.label: f"{r.label} ({changes(r, baseline)})" for r in runs}
    variants = ", ".join(names[r.label] for r in runs if r is not baseline)
    return [
        Heading(f"{baseline.game}: {variants} compared with {baseline.label}", 1),
        Heading("Runs"), runs_table(runs, baseline),
        Text("Runs with the same game, seed, player count and games are compared game by "
             "game (paired), which removes the luck of the deal from the difference; the "
             "method column says which test each row used."),
        Heading("Summary"),
        Text(intervals_note(table, min_effect)),
        Bullets(tuple(comparison_sentences(table, names))),
        Heading("Differences"), differences_table(table), forest(table)]


def write_comparison_report(runs: Sequence[Run], table: pd.DataFrame,
                            out: str | os.PathLike, min_effect: float = MIN_EFFECT) -> Path:
    """Write the report of ``runs`` compared by ``table`` (``sim.analysis.compare.compare``
    of those runs, with ``min_effect``) to the folder ``out`` and return that folder.

    Raises ValueError when the table's baseline is not among ``runs`` or ``out`` is not a
    report folder, OSError when ``out`` cannot be written."""
    return publish(comparison_blocks(runs, table, min_effect), out)


# --------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    """The ``python -m sim.report`` argument parser (errors raise UsageError)."""
    p = Parser(prog="python -m sim.report",
               description="Write a run's report: its parameters, a plain-language summary "
                           "of what is and is not significant, tables and figures, as "
                           "report.md and a self-contained report.html (plus the figures "
                           "as PNG files).",
               epilog="Example:\n  python -m sim.report runs/paris-damis-20261129T120000Z "
                      "--out reports/baseline",
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run_dir", metavar="RUN_DIR", help="a complete run directory "
                                                      "(from python -m sim.batch)")
    p.add_argument("--out", metavar="DIR",
                   help="report folder (default RUN_DIR/report; an earlier report there is "
                        "replaced)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input)."""
    try:
        args = build_parser().parse_args(argv)
        out = Path(args.out) if args.out else default_folder(args.run_dir)
        write_report(args.run_dir, out)
    except (UsageError, ValueError) as error:
        return usage_error("sim.report", error)
    except OSError as error:
        print(f"sim.report: error: cannot write the report to {out}: {error.strerror} "
              f"({error.filename})", file=sys.stderr)
        return 2
    print(out / "report.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())
