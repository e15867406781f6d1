"""Many records at once: ``splendor-ai analyze RECORDS... --out-dir DIR``.

Records (files, folders of ``*.json``, globs) are analysed in parallel, one game per task:
in local worker processes (``--workers N``, default the cores divided by ``--threads``), or on
a Ray cluster (``--ray ADDRESS``, ``auto`` or ``local``), one task per game with the search's
thread count as its CPU request. The driver reads every record and writes every report, so
the workers (a cluster's nodes included) need no shared file system.

Out: ``DIR/NAME.json`` per game (the report of ``analysis.analyze`` plus the record's name,
path and SHA-256), ``DIR/summary.csv`` (one row per game and seat). Resumable: a game whose
report is already in DIR, made from the same record content with the same options, is not
analysed again. A record that cannot be read or replayed is reported by name and skipped.
"""
from __future__ import annotations

import csv
import glob
import hashlib
import json
import os
import queue
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import progress
from ..games import SplendorError
from ..records import RecordError, check
from . import FORMAT, VERSION, AnalysisError, Options, analyze, chart

SUMMARY = "summary.csv"
COLUMNS = ["record", "path", "game", "players", "seat", "player", "result", "decisions", "forced", "accuracy",
           "mistakes", "blunders", "mean_drop", "agreed", "iterations"]
# Since report version 3 (estimate.py): the loss per decision and the estimated level, empty where
# a report has none (an older report, a game without a fit, a seat without a decision with a choice).
ESTIMATE_COLUMNS = ["loss_per_decision", "estimated_level", "estimated_level_low", "estimated_level_high",
                    "estimated_elo", "estimated_elo_low", "estimated_elo_high", "estimate_decisions",
                    "estimate_off_budget"]
COLUMNS += ESTIMATE_COLUMNS
GLOB_CHARS = set("*?[")


@dataclass
class Job:
    name: str  # the report's name: DIR/NAME.json
    path: str  # as given (or as found in a folder or by a glob)
    text: str  # the record file's content
    sha256: str
    decisions: int


@dataclass
class Outcome:
    analysed: list[str] = field(default_factory=list)
    resumed: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)  # (path, reason)
    decisions: int = 0
    elapsed: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failed


# ------------------------------------------------------------------------------ inputs
def expand(inputs: list[str], exclude: str | os.PathLike | None = None) -> tuple[list[str], list[tuple[str, str]]]:
    """The record files named by ``inputs`` (files, folders: their ``*.json``, globs), in
    order and without repeats; and the inputs that name nothing, with the reason."""
    found, bad, seen = [], [], set()
    skip = Path(exclude).resolve() if exclude else None
    for arg in inputs:
        p = Path(arg)
        if p.is_dir():
            paths = sorted(str(x) for x in p.glob("*.json") if x.is_file())
            if not paths:
                bad.append((arg, "a folder without *.json files"))
        elif p.exists() or not GLOB_CHARS & set(arg):
            paths = [arg]
        else:
            paths = sorted(x for x in glob.glob(arg, recursive=True) if os.path.isfile(x))
            if not paths:
                bad.append((arg, "no file matches"))
        for x in paths:
            real = Path(x).resolve()
            if real in seen or (skip is not None and skip in real.parents):
                continue
            seen.add(real)
            found.append(x)
    return found, bad


def names(paths: list[str]) -> dict[str, str]:
    """Path -> report name: the file's stem, or stem-HASH where two records share a stem."""
    stems: dict[str, int] = {}
    for p in paths:
        stems[Path(p).stem] = stems.get(Path(p).stem, 0) + 1
    out = {}
    for p in paths:
        stem = Path(p).stem
        out[p] = stem if stems[stem] == 1 else f"{stem}-{hashlib.sha1(str(Path(p).resolve()).encode()).hexdigest()[:8]}"
    return out


def read_job(path: str, name: str) -> Job:
    """The job of one record file; RecordError when it is not a readable record."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(f"{exc.strerror or exc}") from None
    try:
        record = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"not JSON: {exc}") from None
    check(record)
    return Job(name, path, raw.decode(), hashlib.sha256(raw).hexdigest(), len(record["actions"]))


# ------------------------------------------------------------------------------ one game
def analyze_job(name: str, path: str, text: str, sha256: str, options: dict, progress=None) -> tuple:
    """("ok", name, report) or ("error", name, reason): never raises for a bad record.

    ``progress`` (a queue) receives (name, decisions done) after each decision."""
    try:
        record = json.loads(text)
        notify = (lambda done, total: progress.put((name, done))) if progress is not None else None
        report = analyze(record, Options(**options), notify)
    except SplendorError as exc:
        return "error", name, str(exc)
    except Exception as exc:  # a bug must not stop a season's run: reported like a bad record
        return "error", name, f"{type(exc).__name__}: {exc}"
    return "ok", name, {"record": name, "path": path, "record_sha256": sha256, **report}


_progress_queue = None


def _init_worker(q) -> None:
    global _progress_queue
    _progress_queue = q


def _local_task(args: tuple[str, str, str, str, dict]) -> tuple:
    return analyze_job(*args, progress=_progress_queue)


# ------------------------------------------------------------------------------ output
def report_path(out_dir, name: str) -> Path:
    return Path(out_dir) / f"{name}.json"


def load_done(out_dir, job: Job, options: Options) -> dict | None:
    """The report of ``job`` already in ``out_dir`` (same record content, same options), or None."""
    try:
        report = json.loads(report_path(out_dir, job.name).read_text())
    except (OSError, ValueError):
        return None
    if (isinstance(report, dict) and report.get("format") == FORMAT and report.get("version") == VERSION
            and report.get("record_sha256") == job.sha256 and report.get("options") == options.to_dict()):
        return report
    return None


def write_report(out_dir, report: dict) -> None:
    path = report_path(out_dir, report["record"])
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(report, indent=1) + "\n")
    os.replace(tmp, path)  # a run stopped half-way leaves no half-written report


def summary_rows(report: dict) -> list[dict]:
    rows = []
    seats = report.get("seats") or [""] * report["players"]
    for s in report["summary"]:
        rows.append({
            "record": report["record"], "path": report["path"], "game": report["game"], "players": report["players"],
            "seat": s["seat"], "player": seats[s["seat"]] or "",
            "result": "" if report["returns"] is None else report["returns"][s["seat"]],
            "decisions": s["decisions"], "forced": s["forced"],
            "accuracy": "" if s["accuracy"] is None else s["accuracy"], "mistakes": s["mistakes"],
            "blunders": s["blunders"], "mean_drop": "" if s["mean_drop"] is None else s["mean_drop"],
            "agreed": s["agreed"], "iterations": report["options"]["iterations"],
            **estimate_cells(s),
        })
    return rows


def estimate_cells(s: dict) -> dict:
    est = s.get("estimate") or {}
    loss = s.get("loss_per_decision")
    cells = {"loss_per_decision": "" if loss is None else loss}
    for key in ("level", "level_low", "level_high", "elo", "elo_low", "elo_high"):
        cells[f"estimated_{key}"] = est.get(key, "")
    cells["estimate_decisions"] = est.get("decisions", "")
    cells["estimate_off_budget"] = int(est["off_budget"]) if est else ""
    return cells


def write_summary(out_dir, reports: list[dict]) -> Path:
    path = Path(out_dir) / SUMMARY
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        for report in sorted(reports, key=lambda r: r["record"]):
            w.writerows(summary_rows(report))
    return path


class BatchProgress:
    """``analyzing:  34%|###4      | 412/1200 [01:20<02:05, 5.15decision/s, 3/10 games]`` on a
    terminal; nothing at all when ``stream`` is not one (splendor_ai.progress)."""

    def __init__(self, games: int, decisions: int, stream=None):
        self.games = games
        self.bar = progress.bar(decisions, "analyzing", "decision", stream=stream)

    def __call__(self, games_done: int, decisions_done: int) -> None:
        self.bar.set_postfix_str(f"{games_done}/{self.games} games", refresh=False)
        if decisions_done != self.bar.n:
            self.bar.update(decisions_done - self.bar.n)
        else:
            self.bar.refresh()

    def clear(self) -> None:
        """Takes the bar off its line, so that a message can be written there."""
        self.bar.clear()

    def close(self) -> None:
        self.bar.close()


# ------------------------------------------------------------------------------ runners
def _run_local(jobs: list[Job], options: Options, workers: int, on_result, on_progress) -> None:
    args = [(j.name, j.path, j.text, j.sha256, options.to_dict()) for j in jobs]
    if workers == 1:
        for j, a in zip(jobs, args):
            on_result(analyze_job(*a, progress=_Direct(on_progress)))
        return
    import multiprocessing

    q = multiprocessing.get_context().Queue()
    with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=(q,)) as pool:
        pending = {pool.submit(_local_task, a) for a in args}
        while pending:
            done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            _drain(q, on_progress)
            for fut in done:
                on_result(fut.result())
        _drain(q, on_progress)


class _Direct:
    """A queue stand-in that hands progress straight to the callback (one worker, no pool)."""

    def __init__(self, callback):
        self.callback = callback

    def put(self, item) -> None:
        self.callback(*item)


def _drain(q, on_progress) -> None:
    while True:
        try:
            on_progress(*q.get_nowait())
        except queue.Empty:
            return


def import_ray():
    """The ray module, or None when it is not installed (a bare ``ray`` folder, such as Ray's
    own /tmp/ray on the import path, is not ray)."""
    try:
        import ray
    except ImportError:
        return None
    return ray if hasattr(ray, "remote") else None


def _ray_task(name: str, path: str, text: str, sha256: str, options: dict) -> tuple:
    return analyze_job(name, path, text, sha256, options)


def _run_ray(jobs: list[Job], options: Options, address: str, on_result) -> None:
    ray = import_ray()
    if ray is None:
        raise AnalysisError("--ray needs ray: pip install '.[ray]' in the splendor-ai source tree")
    started = not ray.is_initialized()
    if started:
        # The package's own folder travels with the job unless the cluster has it installed.
        package_root = str(Path(__file__).resolve().parents[2])
        env = {"env_vars": {"PYTHONPATH": os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))}}
        kwargs = dict(runtime_env=env, log_to_driver=False)
        try:
            if address == "local":
                # a local instance stays on loopback
                ray.init(include_dashboard=False, _node_ip_address="127.0.0.1", **kwargs)
            else:
                ray.init(address=address, **kwargs)
        except Exception as exc:  # ConnectionError, ValueError: no cluster at that address
            raise AnalysisError(f"--ray {address}: {exc}") from None
    try:
        task = ray.remote(num_cpus=options.threads)(_ray_task)
        pending = {task.remote(j.name, j.path, j.text, j.sha256, options.to_dict()): j for j in jobs}
        refs = list(pending)
        while refs:
            done, refs = ray.wait(refs, num_returns=1)  # the first to finish, then any others ready
            more, refs = ray.wait(refs, num_returns=len(refs), timeout=0) if refs else ([], [])
            for ref in done + more:
                job = pending.pop(ref)
                try:
                    on_result(ray.get(ref))
                except ray.exceptions.RayError as exc:  # the worker died: that game fails, the run goes on
                    on_result(("error", job.name, f"Ray task failed: {exc}"))
    finally:
        if started:
            ray.shutdown()


def run(inputs: list[str], out_dir, options: Options = Options(), workers: int | None = None,
        ray_address: str | None = None, charts: bool = False, progress: bool = False, stream=None) -> Outcome:
    """Analyse every record named by ``inputs`` into ``out_dir``; see the module's docstring.
    Problems with single records are reported on ``stream`` (default stderr) and skipped."""
    options.check()
    if workers is not None and workers < 1:
        raise AnalysisError(f"--workers must be at least 1, got {workers}")
    if workers is not None and ray_address:
        raise AnalysisError("--workers and --ray exclude each other (Ray places the tasks itself)")
    if charts:
        from . import need_matplotlib

        need_matplotlib("--charts")
    err = stream if stream is not None else sys.stderr
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise AnalysisError(f"--out-dir {out_dir}: {exc.strerror or exc}") from None
    t0 = time.perf_counter()
    outcome = Outcome()
    paths, bad = expand(inputs, exclude=out_dir)
    for arg, reason in bad:
        _skip(outcome, err, arg, reason)
    jobs, reports = [], []
    by_name = names(paths)
    for path in paths:
        try:
            job = read_job(path, by_name[path])
        except RecordError as exc:
            _skip(outcome, err, path, str(exc))
            continue
        done = load_done(out_dir, job, options)
        if done is not None:
            outcome.resumed.append(job.name)
            reports.append(done)
        else:
            jobs.append(job)
    if not paths and not bad:
        raise AnalysisError("no records given")
    total = sum(j.decisions for j in jobs)
    bar = BatchProgress(len(jobs), total, err) if progress and jobs else None
    state: dict[str, Any] = {"games": 0, "per_game": {}}
    by_job = {j.name: j for j in jobs}

    def on_progress(name: str, done: int) -> None:
        state["per_game"][name] = done
        if bar:
            bar(state["games"], sum(state["per_game"].values()))

    def on_result(result: tuple) -> None:
        kind, name, payload = result
        state["games"] += 1
        job_decisions = by_job[name].decisions
        if kind == "ok":
            write_report(out_dir, payload)
            if charts:
                chart(payload, out_dir / f"{name}.png")
            reports.append(payload)
            outcome.analysed.append(name)
            outcome.decisions += job_decisions
            state["per_game"][name] = job_decisions
        else:
            state["per_game"][name] = job_decisions  # counted as done: the bar still reaches the end
            if bar:
                bar.clear()
            _skip(outcome, err, by_job[name].path, payload)
        if bar:
            bar(state["games"], sum(state["per_game"].values()))

    if jobs:
        if ray_address:
            _run_ray(jobs, options, ray_address, on_result)
        else:
            n = workers or max(1, (os.cpu_count() or 1) // options.threads)
            _run_local(jobs, options, min(n, len(jobs)), on_result, on_progress)
    if bar:
        bar.close()
    write_summary(out_dir, reports)
    outcome.elapsed = time.perf_counter() - t0
    return outcome


def _skip(outcome: Outcome, err, path: str, reason: str) -> None:
    outcome.failed.append((path, reason))
    err.write(f"skipped {path}: {reason}\n")
    err.flush()
