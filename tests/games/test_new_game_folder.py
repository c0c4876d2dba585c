"""Adding a game touches only its own folder.

A copy of ``games/_template`` is made in a temporary folder, outside the
package, and registered the way a third-party game is: the copy's own
``__init__.py`` calls ``register`` and a distribution's entry point in the
``freetrader.games`` group names it (its ``.dist-info`` is packaging metadata,
as ``pip install`` would write). Nothing else in Freetrader is edited. Then,
in fresh processes (so the sixth game never leaks into this test session),
the copy passes the conformance suite and the adapters, shows up in
``freetrader games``, plays bot-only games through ``simulate``, ``play`` and
``report`` with its own heuristic, renderer and components, and a bot table
created through the server's API plays to the end, with the game's browser
file and components served from its folder.

A second game is made from another copy by edits inside its own folder only
(High Card where others may challenge a stake: a reaction window, a new
action and state field), and both copies get golden playthroughs and then the
whole per-game suite: every test parametrised from the registry, run with
``-k`` on the two games (the browser runs included), after which no file of
the package or the tests may have changed.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

PACKAGE = "ft_plugin_high_card"
TEMPLATE = Path(importlib.import_module("freetrader.games._template").__file__ or "").parent


SECOND = "ft_plugin_challenge_card"

#: The second game: High Card where any other player may challenge a stake, once a game each (a reaction
#: window): the challenger and the staker each put one more chip into the pot. Made from the copy by editing
#: files inside its own folder only, as the issue's tester made a sixth game.
CHALLENGE_RULE = """

@dataclasses.dataclass(frozen=True, slots=True)
class Challenge(ReactionWindow["ChallengeCardState"]):
    \"\"\"After a stake, each other seat with a chip that has not challenged yet may challenge it, once a game.\"\"\"

    staker: int = -1

    def may_answer(self, s: S, seat: int) -> bool:
        return seat != self.staker and not s.challenged[seat] and s.chips[seat] >= 1

    def answers(self, s: S, seat: int) -> Sequence[Action]:
        return (A.CHALLENGE,)

    def decline(self, s: S) -> Action:
        return A.DECLINE

    def prompt(self, s: S) -> str:
        return f"seat {self.staker} staked: challenge it (one chip each into the pot), or decline"

    def answer(self, s: S, seat: int, action: Action) -> None:
        s.challenged[seat] = True
        s.chips[seat] -= 1
        s.pot += 1
        paid = s.chips[self.staker] >= 1
        if paid:
            s.chips[self.staker] -= 1
            s.pot += 1
        s._event(f"Seat {seat} challenges seat {self.staker}" + (", who adds a chip" if paid else ""))
"""
#: file -> (text in the copy, its replacement): every edit of the second game, all inside its folder.
CHALLENGE_EDITS = {
    "rules.py": [
        ("                return  # the raise decides next; ``child_done`` moves on when it is settled\n"
         "        next_seat(s, self)",
         "                return  # the raise decides next; ``child_done`` moves on when it is settled\n"
         "            if Challenge.open(s, first=(self.seat + 1) % s.seats, staker=self.seat):\n"
         "                return  # the others may challenge; ``child_done`` moves on when they have\n"
         "        next_seat(s, self)"),
    ],
    "state.py": [("    pot: int\n", "    pot: int\n    challenged: PerSeat[list[bool]]  # has challenged a stake (once a game)\n")],
    "actions.py": [
        ("STAKE, FOLD, RAISE, CALL, DECLINE = Stake(), Fold(), Raise(), Call(), Decline()",
         "@dataclass(frozen=True, slots=True)\nclass Challenge(Action):\n    def __str__(self) -> str:\n"
         "        return \"challenge\"\n\n\n"
         "STAKE, FOLD, RAISE, CALL, DECLINE = Stake(), Fold(), Raise(), Call(), Decline()\nCHALLENGE = Challenge()"),
        ("(STAKE, FOLD, RAISE, CALL, DECLINE, *RAISES)", "(STAKE, FOLD, RAISE, CALL, DECLINE, CHALLENGE, *RAISES)"),
    ],
    "view.py": [('        "pot": s.pot,\n', '        "pot": s.pot,\n        "challenged": s.challenged[:],\n')],
    "rules.html": [("<section id=\"end\">", "<section id=\"challenge\"><h2>Challenges</h2>\n<p>After a stake, every "
                   "other player may challenge it, once a game each: the challenger and the staker each put one more "
                   "chip into the pot.</p></section>\n<section id=\"end\">")],
    # longest finished games measured with benchmarks/game_lengths.py on this game (2026-12-03)
    "__init__.py": [("longest_games=((2, 5), (3, 8), (4, 11)),", "longest_games=((2, 5), (3, 10), (4, 15)),")],
}


def _install(site: Path, package: str, name: str, edit: dict[str, list[tuple[str, str]]] | None = None,
             extra: str = "") -> None:
    """Copy the template to ``site/package`` as the game ``name``, registered by an entry point."""
    folder = site / package
    shutil.copytree(TEMPLATE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    init = folder / "__init__.py"
    text = init.read_text(encoding="utf-8")
    assert "GAME = _HighCard(SPEC, parse)" in text, "the template's last line changed; update this test"
    text = text.replace("from freetrader.core import Game, GameSpec, Option",
                        "from freetrader.core import Game, GameSpec, Option, register")
    init.write_text(text.replace("GAME = _HighCard(SPEC, parse)", "GAME = register(_HighCard(SPEC, parse))"),
                    encoding="utf-8")
    if name != "high-card":
        title = name.replace("-", " ").title()
        for path in folder.rglob("*"):
            if path.is_file():
                text = path.read_text(encoding="utf-8")
                for a, b in (("high-card", name), ("High Card", title), ("HighCard", title.replace(" ", ""))):
                    text = text.replace(a, b)
                path.write_text(text, encoding="utf-8")
    for file, changes in (edit or {}).items():
        path = folder / file
        text = path.read_text(encoding="utf-8")
        for a, b in changes:
            assert a in text, f"{file}: the template changed where this test edits it ({a[:60]!r})"
            text = text.replace(a, b, 1)
        path.write_text(text + (extra if file == "rules.py" else ""), encoding="utf-8")
    dist = package.replace("_", "-")
    info = site / f"{package}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[freetrader.games]\n{name} = {package}\n", encoding="utf-8")


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a process that has the copied game, and a second game made from it, as plugins."""
    site = tmp_path_factory.mktemp("plugin-site")
    _install(site, PACKAGE, "high-card")
    _install(site, SECOND, "challenge-card", CHALLENGE_EDITS, CHALLENGE_RULE)
    path = os.pathsep.join([str(site)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    return dict(os.environ, PYTHONPATH=path, PYTHONUNBUFFERED="1", COLUMNS="200")


def run(env: dict[str, str], *args: str, timeout: float = 240) -> str:
    proc = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{args} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


def cli(env: dict[str, str], *args: str) -> str:
    return run(env, "-c", "import sys; from freetrader.cli import main; sys.exit(main(sys.argv[1:]))", *args)


def test_the_copy_passes_the_conformance_suite_and_the_adapters(plugin: dict[str, str], tmp_path: Path) -> None:
    out = run(plugin, "-c", textwrap.dedent(f"""
        import importlib.util, json, pathlib
        import freetrader
        from freetrader.core.registry import game_package, load_part
        from freetrader.testing import check_game
        from freetrader.bots import make_bot

        g = freetrader.game("high-card")
        assert game_package(g) == "{PACKAGE}", game_package(g)
        check_game(g, seeds=range(3))
        parts = {{p: getattr(load_part(g, p), "__name__", None) for p in ("bot", "render", "analysis", "web")}}
        bot = type(make_bot("heuristic", g)).__module__
        adapters = []
        if importlib.util.find_spec("pettingzoo"):
            from pettingzoo.test import api_test
            from freetrader.adapters.pettingzoo import env
            api_test(env("high-card", seats=3), num_cycles=50)
            adapters.append("pettingzoo")
        if importlib.util.find_spec("gymnasium"):
            from gymnasium.utils.env_checker import check_env
            from freetrader.adapters.gymnasium import make_env
            e = make_env("high-card", ["heuristic"], seats=2)
            check_env(e, skip_render_check=True)
            obs, info = e.reset(seed=1)
            done = False
            while not done:
                mask = info["action_mask"]
                obs, reward, term, trunc, info = e.step(int(mask.nonzero()[0][0]))
                done = term or trunc
            adapters.append("gymnasium")
        if importlib.util.find_spec("pyspiel"):
            import pyspiel
            from freetrader.adapters import openspiel as fos
            pyspiel.random_sim_test(fos.load_game("high-card", players=2), num_sims=3, serialize=False, verbose=False)
            adapters.append("openspiel")
        from freetrader.testing.golden import check_playthrough, play, playthrough, stem
        check_game(freetrader.game("challenge-card"), seeds=range(3))
        for name in ("high-card", "challenge-card"):
            record = play(name, ["heuristic", "random", "heuristic"], 5)
            golden = pathlib.Path({str(tmp_path)!r}) / (stem(record) + ".txt")
            golden.write_text(playthrough(record), encoding="utf-8")
            check_playthrough(golden)
        print(json.dumps({{"games": freetrader.games(), "parts": parts, "bot": bot, "adapters": adapters,
                          "golden": golden.name}}))
    """))
    got = json.loads(out.strip().splitlines()[-1])
    assert "high-card" in got["games"] and len(got["games"]) >= 5
    assert got["parts"] == {p: f"{PACKAGE}.{p}" for p in ("bot", "render", "analysis", "web")}
    assert got["bot"] == f"{PACKAGE}.bot"
    assert got["adapters"], "no adapter is installed: the test extras install pettingzoo, gymnasium and open_spiel"
    assert got["golden"] == "challenge-card-3p-seed5.txt"  # golden playthroughs made and replayed, no list edited
    assert "challenge-card" in got["games"]


def test_the_cli_lists_simulates_plays_and_reports_it(plugin: dict[str, str], tmp_path: Path) -> None:
    assert "high-card" in cli(plugin, "games")
    results = tmp_path / "hc.jsonl"
    cli(plugin, "simulate", "high-card", "-n", "12", "--seats", "heuristic,random,heuristic", "--workers", "1",
        "--no-progress", "--out", str(results))
    lines = [json.loads(x) for x in results.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 12 and all(r["record"]["game"] == "high-card-v1" for r in lines)
    report = cli(plugin, "report", str(results), "--no-html", "--min-games", "1")
    # the copy's analysis.py named each seat's bet (no rows of chosen actions without it)
    assert "Chosen actions" in report and "played stake" in report
    shown = cli(plugin, "play", "high-card", "--seats", "heuristic,heuristic", "--seed", "3")
    assert "Pot " in shown and ("Winner" in shown or "Tie between" in shown)  # the copy's render.py drew the table


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=60) as r:
        body = r.read()
        return json.loads(body) if r.headers.get_content_type() == "application/json" else body.decode()


def test_a_bot_table_plays_it_to_the_end(plugin: dict[str, str], tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parents[1] / "web"))
    from liveserver import free_port

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "freetrader.server", "--port", str(port), "--db",
                             f"sqlite:///{tmp_path}/plugin.db", "--bot-delay", "0"],
                            env=plugin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        end = time.monotonic() + 300
        while True:
            try:
                games = _get(url + "/api/games")
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < end, "the server did not start"
                time.sleep(0.2)
        assert any(g["name"] == "high-card" and "heuristic" in g["bots"] for g in games)
        req = urllib.request.Request(url + "/api/tables", method="POST", headers={"content-type": "application/json"},
                                     data=json.dumps({"game": "high-card", "seats": ["heuristic", "random", "heuristic"],
                                                      "seed": 5}).encode())
        with urllib.request.urlopen(req, timeout=60) as r:
            tid = json.loads(r.read())["table"]["id"]
        end = time.monotonic() + 300
        while not (view := _get(f"{url}/api/tables/{tid}/view")["view"])["is_over"]:
            assert time.monotonic() < end, f"the bot table did not finish: {view}"
            time.sleep(0.2)
        bets = [a for a in _get(f"{url}/api/tables/{tid}/record")["actions"] if a in ("stake", "fold", "raise")]
        assert len(bets) == 3  # each seat bet once (a raise adds its amount and the calls)
        comps = _get(url + "/api/games/high-card/components")["components"]
        assert sorted(card["value"] for card in comps["cards"].values()) == [1, 2, 3, 4, 5, 6]
        assert comps["start_chips"] == 5 and "stake" in comps["drawing"]["lobby"]["options"]
        assert 'FT.register("high-card"' in _get(url + "/static/games/high-card.js")
    finally:
        proc.terminate()
        proc.wait(timeout=120)


ROOT = Path(__file__).parents[2]
#: Every per-game test is parametrised from the registry, its id naming the game: ``-k high-card`` picks
#: the copy's cases from these folders (conformance, saved states, adapters, IS-MCTS, CLI, server, golden,
#: lobby words, web files and the browser runs).
SUITE = ("tests/adapters", "tests/bots", "tests/cli", "tests/core", "tests/golden", "tests/server", "tests/sim",
         "tests/test_conformance.py", "tests/testing", "tests/web")
#: Tests that check every registered game in one case (no id per game), run whole.
EVERY_GAME = (
    "tests/adapters/test_limits.py::test_every_game_and_seat_count_has_a_measured_bound",
    "tests/bots/test_evaluators.py::test_games_register_their_rollout_depth",
    "tests/cli/test_cli_sweep.py::test_parse_vary_knows_every_option_of_every_game",
    "tests/sim/test_endings.py::test_every_game_lists_its_ends_and_turn_positions_count_from_the_first_seat",
    "tests/web/test_game_files.py::test_every_game_draws_in_the_browser_from_its_own_folder",
)
#: Per-game tests a game made from the template does not pass yet, for a reason outside its folder (issue 33
#: item 8: each is a hard-coded size or a central folder, to be fixed in the test or layer named).
#: per-game tests not yet able to run on a new game, with the reason (none left: keep for the next one found)
NOT_YET: dict[str, str] = {}


def _tree() -> dict[str, int]:
    """Every file of the package and the tests, with its size: what a run could have touched."""
    return {str(p.relative_to(ROOT)): p.stat().st_size for top in ("src/freetrader", "tests")
            for p in (ROOT / top).rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def _pytest(env: dict[str, str], xml: Path, *args: str) -> tuple[int, int, int]:
    """Run pytest on ``args`` in a fresh process; (tests run, failed, skipped) from its JUnit report."""
    import xml.etree.ElementTree as ET

    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--junitxml", str(xml),
                           *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, f"the per-game suite failed on the copy:\n{proc.stdout[-6000:]}\n{proc.stderr[-2000:]}"
    suite = ET.parse(xml).getroot().find("testsuite")
    assert suite is not None
    return int(suite.get("tests", 0)), int(suite.get("failures", 0)) + int(suite.get("errors", 0)), int(suite.get("skipped", 0))


@pytest.mark.e2e
def test_the_whole_per_game_suite_runs_on_the_copy(plugin: dict[str, str], tmp_path: Path) -> None:
    env = dict(plugin, PYTHONDONTWRITEBYTECODE="1")
    before = _tree()
    deselect = [a for node in NOT_YET for a in ("--deselect", node)]
    ran, failed, skipped = _pytest(env, tmp_path / "per-game.xml", "-k", "high-card or challenge-card", *deselect, *SUITE)
    assert ran >= 100 and failed == 0 and ran - skipped >= 90, (ran, failed, skipped)  # 112 and 4 skipped on 2026-12-03
    ran, failed, skipped = _pytest(env, tmp_path / "every-game.xml", *EVERY_GAME)
    assert ran == len(EVERY_GAME) and failed == 0 and skipped == 0
    assert _tree() == before, "running the suite on the copy changed a file outside its folder"
