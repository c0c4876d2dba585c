"""Packaging: the extras match the jobs, every missing extra is named, ``python -m freetrader`` works.

The wheel itself is built, repaired to manylinux and installed into a fresh
environment by ``.ci/wheel-smoke`` (too slow for a unit test).
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from freetrader._extras import EXTRAS

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]
EXTRA_DEPS = PROJECT["optional-dependencies"]
GROUPS = PYPROJECT["dependency-groups"]


def _names(extra: str) -> set[str]:
    """The distributions an extra pulls in, its own extras followed."""
    out: set[str] = set()
    for req in EXTRA_DEPS[extra]:
        name = req.split(";")[0].split("[")[0].split(">")[0].split("<")[0].split("=")[0].strip().lower()
        if name == "freetrader":
            for sub in req[req.index("[") + 1:req.index("]")].split(","):
                out |= _names(sub.strip())
        else:
            out.add(name)
    return out


def test_each_job_has_its_extra_and_pulls_nothing_of_another_job() -> None:
    assert set(EXTRAS) <= set(EXTRA_DEPS)
    assert "ray" not in _names("analysis")  # a designer making a report does not install Ray
    assert {"matplotlib", "openskill"} <= _names("analysis")
    assert not any(n.startswith("psycopg") for n in _names("web"))  # a SQLite table needs no PostgreSQL driver
    assert {"fastapi", "uvicorn", "sqlalchemy", "alembic", "swagger-ui-bundle"} <= _names("web")
    assert "psycopg" in _names("postgres") and "fastapi" in _names("postgres")
    assert _names("ray") == {"ray"}
    everything = set().union(*(_names(e) for e in EXTRAS if e != "all"))
    assert _names("all") == everything


def test_the_published_extras_are_the_jobs_only_and_the_clone_has_its_groups() -> None:
    # what only a clone uses (tests, docs, release tools, the RL example) is a dependency group:
    # it is not in the metadata a user of the wheel reads
    assert set(EXTRA_DEPS) == set(EXTRAS) | {"all"}
    assert {"test", "docs", "release", "rl-examples"} <= set(GROUPS)
    assert "pytest-xdist" in {r.split(">")[0].split("=")[0] for r in GROUPS["test"]}
    dev = (ROOT / "dev").read_text()
    assert '".[all]" --group test --group docs --group release' in dev  # the suite tests every optional part


def test_the_version_is_the_package_metadatas() -> None:
    from importlib.metadata import version

    import freetrader

    assert freetrader.__version__ == version("freetrader") == PROJECT["version"]
    assert f"## {PROJECT['version']} - " in (ROOT / "CHANGELOG.md").read_text()  # each release has its entry


def test_the_license_file_is_the_mit_license_and_is_packaged() -> None:
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Freetrader contributors" in text
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    assert any(c.startswith("Programming Language :: Python :: 3.11") for c in PROJECT["classifiers"])


def test_python_dash_m_freetrader_is_the_command() -> None:
    out = subprocess.run([sys.executable, "-m", "freetrader", "--version"], capture_output=True, text=True,
                         timeout=300, check=True)
    assert out.stdout.startswith("freetrader ")


@pytest.mark.parametrize(("module", "blocked", "extra"), [
    ("freetrader.adapters.pettingzoo", "pettingzoo", "rl"),
    ("freetrader.adapters.gymnasium", "gymnasium", "rl"),
    ("freetrader.adapters.openspiel", "pyspiel", "openspiel"),
    ("freetrader.adapters._session", "numpy", "rl"),
])
def test_an_adapter_without_its_extra_says_which_extra_to_install(monkeypatch, module, blocked, extra) -> None:
    for name in [m for m in sys.modules if m == module or m.startswith(module + ".")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, blocked, None)  # import of it now fails
    with pytest.raises(ImportError, match=rf"needs the {extra} extra \({blocked} is missing\): "
                                          rf"pip install 'freetrader\[{extra}\]'"):
        importlib.import_module(module)


def test_ray_plots_and_ratings_without_their_extras_say_which_to_install(monkeypatch) -> None:
    from freetrader.sim.backends import ray_connect
    from freetrader.sim.report import _pyplot
    from freetrader.sim.runner import SimulationError
    from freetrader.sim.tournament import Ratings

    for blocked in ("ray", "matplotlib", "openskill", "openskill.models"):
        monkeypatch.setitem(sys.modules, blocked, None)
    with pytest.raises(SimulationError, match=r"pip install 'freetrader\[ray\]'"):
        ray_connect(None)
    with pytest.raises(SimulationError, match=r"pip install 'freetrader\[analysis\]'"):
        _pyplot()
    with pytest.raises(SimulationError, match=r"pip install 'freetrader\[analysis\]'"):
        Ratings(["random"])
