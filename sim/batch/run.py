"""A run directory: created with its manifest, its missing chunks played, marked complete."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import time
from dataclasses import replace
from importlib import metadata
from pathlib import Path
from typing import Any

import agents
from agents.base import EXPLORE
from sim import results
from sim.batch.backends import execute, resolve_backend
from sim.batch.spec import RunSpec
from sim.batch.summary import ChunkFigures, figures_of, summarize
from sim.batch.tables import uses_kernel
from sim.cli import UsageError, mark_compiled


def prepare_run_dir(spec: RunSpec, out: str | None) -> Path:
    """Create the run directory (checking it is writable) and its manifest."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    run_dir = Path(out) if out else Path("runs") / f"{spec.game}-{stamp}"
    if run_dir.exists() and not run_dir.is_dir():
        raise UsageError(f"--out {run_dir} is a file, not a directory; choose a new directory")
    if run_dir.exists() and any(run_dir.iterdir()):
        raise UsageError(f"--out {run_dir} exists and is not empty; choose a new directory "
                         f"or continue it with --resume {run_dir}")
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        probe = run_dir / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as error:
        raise UsageError(f"cannot write to --out {run_dir}: {error.strerror}") from None
    results.write_manifest(run_dir, {
        "spec": spec.to_json(), "agent_params": profile_params(spec),
        "status": "running", "version": package_version(),
        "git_revision": git_revision(), "started": now(), "finished": None})
    return run_dir


def profile_params(spec: RunSpec) -> dict[str, dict[str, str]]:
    """The parameters of each profiled agent of the run (``NAME@PROFILE``, or a plain name
    playing its default profile: every parameter, as text, and its ``explore`` if it
    explores), for its manifest."""
    held = {}
    for name in dict.fromkeys(spec.agents):
        if agents.named_profile(name, spec.game)[1] is None:
            continue
        params = agents.params_for(name, spec.game)
        values = {} if params is None else dict(item.split("=", 1)
                                                for item in params.to_strings())
        explore = agents.exploration(name, spec.game)
        if explore:
            values[EXPLORE] = str(explore)
        if values:
            held[name] = values
    return held


def check_profiles(manifest: dict[str, Any], spec: RunSpec, run_dir: Path) -> None:
    """ValueError when a profile of the run now holds other parameters than those it was
    started with (its games would mix two parameter sets)."""
    try:
        now_held = profile_params(spec)
    except ValueError as error:
        raise ValueError(f"{run_dir}: {error}") from None
    changed = [a for a, held in manifest.get("agent_params", {}).items()
               if now_held.get(a) != held]
    if changed:
        raise ValueError(f"{run_dir}: the profile {', '.join(changed)} has changed since the "
                         f"run started (the manifest's agent_params); resuming with other "
                         f"parameters is refused")


def play_run(spec: RunSpec, run_dir: Path, jobs: int, backend: str = "auto",
             scheduler: str | None = None, progress: bool = False) -> dict[str, Any]:
    """Play the missing chunks of the prepared run in ``run_dir``, mark its manifest
    complete and return its summary (``progress``: a tqdm bar on stderr).  A failing chunk
    raises; the chunks already written are kept for ``--resume``."""
    manifest = results.read_manifest(run_dir)
    done = results.done_chunks(run_dir)
    todo = [(s, c) for s, c in spec.chunks() if s not in done]
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=spec.games, initial=spec.games - sum(c for _, c in todo),
                   unit="games", desc=spec.game, file=sys.stderr, smoothing=0.1)
    began = time.perf_counter()
    figures: list[ChunkFigures] = []
    try:
        for chunk in execute(spec, run_dir, todo, jobs, backend, scheduler):
            figures.append(chunk)
            if bar is not None:
                bar.update(chunk.count)
    finally:
        if bar is not None:
            bar.close()
    wall = time.perf_counter() - began
    played = sum(f.count for f in figures)
    if done:        # figures of chunks played before the resume
        figures += [figures_of(spec, s, c, results.read_chunk(run_dir, s))
                    for s, c in spec.chunks() if s in done]
    summary = summarize(spec, figures, wall, played)
    manifest |= {"status": "complete", "finished": now(), "wall_seconds": wall,
                 "games_played": played, "games_per_second": summary["games_per_second"],
                 "jobs": jobs, "backend": resolve_backend(spec, backend),
                 "kernel": uses_kernel(spec)}
    results.write_manifest(run_dir, manifest)
    mark_compiled(spec.game)
    return summary


def ensure_run(spec: RunSpec, run_dir: Path, jobs: int, progress: bool = False,
               backend: str = "auto", scheduler: str | None = None) -> Path:
    """The run of ``spec`` in ``run_dir``, complete: played (on ``backend``, see
    :func:`play_run`) when the directory is new or empty, resumed when it holds this run
    unfinished, reused when it holds it finished.  Raises ValueError when it holds another
    run."""
    if run_dir.is_dir() and any(run_dir.iterdir()):
        try:
            manifest = results.read_manifest(run_dir)
        except (OSError, ValueError):
            manifest = {}
        try:
            held = RunSpec.from_json(manifest["spec"])
        except (KeyError, TypeError, ValueError):
            held = None
        # the chunk size only splits the work: the run's own is kept
        if held is None or replace(held, chunk_size=spec.chunk_size) != spec:
            raise ValueError(f"{run_dir} holds another run (not {spec.game} with these "
                             f"parameters, agents, seed and games); remove it or choose "
                             f"another output directory")
        if manifest.get("status") == "complete":
            return run_dir
        check_profiles(manifest, held, run_dir)
        spec = held
    else:
        prepare_run_dir(spec, str(run_dir))
    play_run(spec, run_dir, jobs, backend, scheduler, progress)
    return run_dir


def now() -> str:
    """The current UTC time, to the second, in ISO 8601 (the manifest's timestamps)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def git_revision() -> str | None:
    """The commit of the running code, or None outside a git checkout."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).resolve().parent, timeout=5, check=False)
    except OSError:
        return None
    return out.stdout.strip() or None


def package_version() -> str:
    """The installed tapis-vert version, or ``unknown``."""
    try:
        return metadata.version("tapis-vert")
    except metadata.PackageNotFoundError:
        return "unknown"
