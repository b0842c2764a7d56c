"""Parameter profiles (``NAME@PROFILE``, agents/profiles/<game>.toml): reading, writing, and
every bad profile named with the valid choices."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import agents
from agents import profiles
from agents.base import EXPLORE, Exploring
from agents.paris_damis import GreedyParams
from agents.search import ISMCTSParams

pytestmark = pytest.mark.jitless


@pytest.fixture
def profile_dir(tmp_path, monkeypatch):
    """A directory of profile files of the test's own."""
    monkeypatch.setenv("TAPIS_VERT_PROFILES", str(tmp_path))
    (tmp_path / "paris-damis.toml").write_text(
        "# the file's preamble\n\n# made by hand\n[greedy.wild]\nmargin = 55\n"
        "value_per_point = 90\n\n[cautious.bad]\nbalance = 5000\n\n"
        "[aggressive.typo]\nmargn = 3\n\n[cautious.jumpy]\nexplore = 2\n\n"
        "[greedy.noisy]\nmargin = 55\nexplore = 0.25\n\n[random.busy]\nexplore = 0.5\n"
        "margin = 3\n")
    (tmp_path / "rikiki.toml").write_text("[counter.noisy]\nexplore = 0.2\n")
    (tmp_path / "betzanbloo.toml").write_text("[safe.high]\ncard = \"highest\"\n\n"
                                              "[greedy.elsewhere]\nmargin = 3\n")
    return tmp_path


def test_split_names_the_bot_and_its_profile():
    assert profiles.split("greedy@tuned") == ("greedy", "tuned")
    assert profiles.split("greedy") == ("greedy", None)


def test_a_profile_loads_with_its_values(profile_dir):
    bot = agents.load("greedy@wild", game="paris-damis")
    assert bot.params == GreedyParams(margin=55, value_per_point=90)
    assert agents.params_for("greedy@wild", "paris-damis") == bot.params
    assert agents.params_for("greedy", "paris-damis") is None
    # the bot's own game is found without naming it; options override the profile
    assert agents.load("greedy@wild", margin=7).params.margin == 7
    assert agents.load("safe@high", game="betzanbloo").params.card == "highest"


@pytest.mark.parametrize("name, words", [
    ("greedy@nope", ["unknown profile 'nope'", "greedy@wild"]),
    ("greedy@elsewhere", ["unknown profile 'elsewhere'", "for betzanbloo", "greedy@wild"]),
    ("cautious@bad", ["balance", "0..1000"]),
    ("aggressive@typo", ["margn", "valid keys"]),
    ("random@wild", ["unknown profile 'wild' of random", "random@busy"]),
    ("cautious@jumpy", ["explore", "from 0 to 1"]),
    ("random@busy", ["random takes no parameters", "explore only", "greedy"]),
    ("nobody@wild", ["unknown agent 'nobody'", "greedy"]),
    ("safe@high", ["unknown agent 'safe'", "greedy"]),
])
def test_a_bad_profile_names_the_valid_choices(profile_dir, name, words):
    with pytest.raises(ValueError) as error:
        agents.check(name, "paris-damis")
    message = str(error.value)
    assert "\n" not in message
    for word in words:
        assert word in message


def test_saving_replaces_its_table_and_keeps_the_others(profile_dir):
    path = profiles.save("paris-damis", "greedy", "tuned", {"margin": 12, "balance": 250},
                         comment="python -m sim.tune paris-damis --agent greedy")
    text = path.read_text()
    assert text.startswith("# the file's preamble")
    assert "# made by hand\n[greedy.wild]" in text
    assert "# python -m sim.tune paris-damis --agent greedy\n[greedy.tuned]\n" in text
    profiles.save("paris-damis", "greedy", "tuned", {"margin": 13}, comment="again")
    again = profiles.read("paris-damis")
    assert again["greedy"] == {"wild": {"margin": 55, "value_per_point": 90},
                               "noisy": {"margin": 55, "explore": 0.25},
                               "tuned": {"margin": 13}}
    assert path.read_text().count("[greedy.tuned]") == 1
    assert "# again\n[greedy.tuned]" in path.read_text()
    assert "python -m sim.tune" not in path.read_text()


def test_a_new_file_is_made_with_a_preamble(tmp_path):
    path = profiles.save("rikiki", "x", "y", {"flag": True, "rate": 0.5, "kind": 'say "hi"',
                                              "cards": (1, 2)}, directory=tmp_path)
    assert path == tmp_path / "rikiki.toml"
    assert profiles.read("rikiki", tmp_path) == {
        "x": {"y": {"flag": True, "rate": 0.5, "kind": 'say "hi"', "cards": [1, 2]}}}


def test_an_unreadable_profile_file_is_named(profile_dir):
    (profile_dir / "paris-damis.toml").write_text("[greedy.wild\n")
    with pytest.raises(ValueError, match="cannot read the profiles of paris-damis"):
        agents.check("greedy@wild", "paris-damis")


def shipped() -> list[tuple[str, str, str]]:
    """Every profile in agents/profiles/: (game, agent, profile)."""
    return [(path.stem, agent, profile)
            for path in sorted(profiles.PROFILE_DIR.glob("*.toml"))
            for agent, held in profiles.read(path.stem, profiles.PROFILE_DIR).items()
            for profile in held]


def test_the_tuned_profiles_are_shipped():
    assert [item for item in shipped() if item[2] == "tuned"] == [
        ("ascenseur-atouts", "estimator", "tuned"), ("betzanbloo", "responder", "tuned"),
        ("paris-damis", "greedy", "tuned")]


@pytest.mark.parametrize("game, agent, profile", shipped())
def test_the_shipped_profiles_load(monkeypatch, game, agent, profile):
    """Each shipped profile loads for its game with its file's values, every parameter within
    its Params range, and differs from what the plain name plays there (a ``default``
    profile: from the class defaults)."""
    monkeypatch.delenv("TAPIS_VERT_PROFILES", raising=False)
    name = f"{agent}@{profile}"
    assert agent in agents.available(game)
    bot = agents.load(name, game=game)
    cls = agents.params_class(agent)
    assert type(bot.params) is cls
    assert agents.params_for(name, game) == bot.params
    values = dict(profiles.read(game)[agent][profile])
    explore = values.pop(EXPLORE, 0.0)
    assert getattr(bot, EXPLORE, 0.0) == explore
    assert values == {key: getattr(bot.params, key) for key in values}
    for field in dataclasses.fields(cls):
        value, meta = getattr(bot.params, field.name), field.metadata
        if meta.get("choices") is not None:
            assert value in meta["choices"], field.name
        if meta.get("min") is not None:
            assert value >= meta["min"], field.name
        if meta.get("max") is not None:
            assert value <= meta["max"], field.name
    plain = None if profile == profiles.DEFAULT else agents.params_for(agent, game)
    assert bot.params != (plain or cls()) or explore != agents.exploration(agent, game)


def test_a_profile_may_make_any_bot_explore(profile_dir):
    noisy = agents.load("greedy@noisy", game="paris-damis")
    assert isinstance(noisy, Exploring) and noisy.explore == 0.25
    assert noisy.params == GreedyParams(margin=55)
    assert agents.params_for("greedy@noisy", "paris-damis") == GreedyParams(margin=55)
    assert agents.exploration("greedy@noisy", "paris-damis") == 0.25
    assert agents.exploration("greedy", "paris-damis") == 0.0
    counter = agents.load("counter@noisy", game="rikiki")       # a bot without Params
    assert isinstance(counter, Exploring) and counter.name == "counter"
    assert agents.params_for("counter@noisy", "rikiki") is None
    assert agents.exploration("counter@noisy", "rikiki") == 0.2


@pytest.mark.parametrize("value", [-0.1, 1.5, "often", True, float("nan")])
def test_explore_out_of_range_is_refused(value):
    with pytest.raises(ValueError, match="bad value for explore: .*valid values: a number "
                                         "from 0 to 1"):
        agents.load("greedy", explore=value)


def test_an_exploring_bot_plays_at_random_as_often_as_asked():
    class Stub:
        name = "stub"
        calls = 0

        def act(self, observation, legal_actions, rng):
            self.calls += 1
            return legal_actions[0]
    stub = Stub()
    bot = Exploring(stub, 0.4)
    rng = np.random.default_rng(0)
    chosen = [bot.act(None, ["a", "b", "c"], rng) for _ in range(3000)]
    assert 0.37 < 1 - stub.calls / 3000 < 0.43
    assert {c for c in chosen} == {"a", "b", "c"}
    before = rng.bit_generator.state
    assert bot.act(None, ["only"], rng) == "only" and stub.calls > 0
    assert rng.bit_generator.state == before          # one legal action: nothing drawn


def test_a_plain_name_plays_its_default_profile(profile_dir):
    """A bot's ``default`` profile for a game is what its plain name plays there, in every
    game that has one, and its class defaults elsewhere; ``NAME@PROFILE`` still names
    another."""
    (profile_dir / "rikiki.toml").write_text("[ismcts.default]\niterations = 64\n"
                                             "horizon = 1\nexplore = 0.1\n")
    assert agents.named_profile("ismcts", "rikiki") == ("ismcts", "default")
    assert agents.named_profile("ismcts", "betzanbloo") == ("ismcts", None)
    assert agents.params_for("ismcts", "rikiki") == ISMCTSParams(iterations=64, horizon=1)
    assert agents.exploration("ismcts", "rikiki") == 0.1
    assert agents.params_for("ismcts", "betzanbloo") is None
    bot = agents.load("ismcts", game="rikiki", iterations=8)
    assert bot.explore == 0.1 and bot.params == ISMCTSParams(iterations=8, horizon=1)
    assert agents.load("ismcts").params == ISMCTSParams()          # no game: the class's
    assert agents.params_for("ismcts@default", "rikiki") == ISMCTSParams(iterations=64,
                                                                       horizon=1)
    (profile_dir / "rikiki.toml").write_text("[ismcts.default]\niterations = 0\n")
    with pytest.raises(ValueError, match="profile ismcts@default for rikiki .*bad value for "
                                         "iterations: 0"):
        agents.check("ismcts", "rikiki")
