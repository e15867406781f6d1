"""The machine copies of the net's C kernels (ext/nn_kernels.h), the bfloat16 and the int8 weights.

Every copy this CPU runs (AVX-512, AVX2, baseline on x86-64) must give the same bits as the
baseline, so that a seeded search gives the same result on every machine; a net loaded with
bfloat16 weights must give the float net's results on the weights rounded to bfloat16, one with
int8 weights its specification (integer sums, exact on every copy).
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
from array import array

import numpy as np
import pytest

from splendor_ai import nn
from splendor_ai._core import nn as core_nn
from splendor_ai.games import load_game
from splendor_ai.nn import weights as W
from splendor_ai.search import Config, Limits, cores, search

from test_nn import numpy_forward, random_netfile

RUNNABLE = [name for name, ok in core_nn.kernels() if ok]


def _random_core_args(rng: np.random.Generator):
    """A net of random shape (widths on and off the 8- and 16-lane blocks) and its payload."""
    n_in = int(rng.integers(1, 400))
    hidden = [int(rng.integers(1, 300)) for _ in range(int(rng.integers(1, 5)))]
    max_players, policy_size = int(rng.integers(2, 9)), int(rng.integers(1, 300))
    total, prev = 0, n_in
    for h in hidden:
        total += prev * h + h
        prev = h
    total += prev * max_players + max_players + prev * policy_size + policy_size
    payload = array("f", (rng.standard_normal(total) * 0.3).astype(np.float32).tobytes())
    return n_in, hidden, max_players, policy_size, payload


def _features(rng: np.random.Generator, n_in: int, zeros: float) -> array:
    x = rng.standard_normal(n_in).astype(np.float32)
    x[rng.random(n_in) < zeros] = 0.0
    x[rng.random(n_in) < 0.02] = -0.0  # a negative zero is a zero input too
    return array("f", x.tobytes())


def _bits(values, logits) -> bytes:
    return np.asarray(values, dtype=np.float64).tobytes() + np.asarray(logits, dtype=np.float32).tobytes()


def test_the_baseline_kernel_always_runs_and_is_listed_last(monkeypatch):
    monkeypatch.delenv(core_nn.KERNEL_ENV, raising=False)
    names = [name for name, _ in core_nn.kernels()]
    assert names[-1] == "baseline" and "baseline" in RUNNABLE
    assert core_nn.default_kernel() == RUNNABLE[0]  # the widest this CPU runs
    assert set(names) <= {"avx512", "avxvnni", "avx2", "baseline"}


def _cpu_flags() -> set[str] | None:
    try:
        text = open("/proc/cpuinfo").read()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return None


def test_each_x86_kernel_runs_exactly_where_the_cpu_lists_its_instructions():
    """The kernels' own CPU checks (the AVX-VNNI one reads CPUID itself) against /proc/cpuinfo's flags."""
    flags = _cpu_flags()
    runs = dict(core_nn.kernels())
    if flags is None or "avx2" not in runs:
        pytest.skip("not an x86-64 Linux machine with the vector kernels")
    assert runs["avx2"] == ("avx2" in flags)
    assert runs["avxvnni"] == ("avx2" in flags and "avx_vnni" in flags)
    assert runs["avx512"] == all(f in flags for f in ("avx512f", "avx512vl", "avx512_vnni"))


@pytest.mark.parametrize("seed", range(6))
def test_every_kernel_gives_the_baseline_bits(seed):
    rng = np.random.default_rng(seed)
    n_in, hidden, max_players, policy_size, payload = _random_core_args(rng)
    cores_by_kernel = {k: core_nn.NetCore(n_in, hidden, max_players, policy_size, payload, kernel=k)
                       for k in RUNNABLE}
    for trial in range(8):
        x = _features(rng, n_in, zeros=(0.0, 0.5, 0.8, 0.97)[trial % 4])
        seats = int(rng.integers(1, max_players + 1))
        classes = sorted(set(rng.integers(0, policy_size, size=int(rng.integers(0, 40))).tolist()))
        want = _bits(*cores_by_kernel["baseline"].evaluate(x, seats, classes))
        for k, c in cores_by_kernel.items():
            assert c.kernel == k
            assert _bits(*c.evaluate(x, seats, classes)) == want, (k, trial)


@pytest.mark.parametrize("kernel", RUNNABLE)
@pytest.mark.parametrize("game", ["base", "duel"])
def test_each_kernel_equals_the_specification(game, kernel):
    netfile = random_netfile(game, hidden=(75, 33), seed=3)
    c = core_nn.NetCore(netfile.num_features, netfile.hidden, netfile.max_players, netfile.policy_size,
                        netfile.payload, kernel=kernel)
    core = cores.module(game)
    rng = random.Random(4)
    state = load_game(game, 2).new_initial_state(9)
    for _ in range(30):
        if state.is_terminal():
            break
        feats = state.features()
        classes = sorted({core.policy_index(a) for a in state.search_actions()})
        values, logits = c.evaluate(array("f", feats), 2, classes)
        want_v, want_p = numpy_forward(netfile, np.frombuffer(feats, dtype=np.float32), 2)
        assert np.allclose(values, want_v, atol=1e-5) and np.allclose(logits, want_p[classes], atol=1e-4)
        state.apply_action(rng.choice(state.search_actions()))


def test_the_environment_forces_a_kernel_and_a_seeded_search_does_not_change(monkeypatch):
    netfile = random_netfile("base", hidden=(40, 24), seed=6, scale=0.2)
    state = load_game("base", 2).new_initial_state(3)
    results = {}
    for k in RUNNABLE:
        monkeypatch.setenv(core_nn.KERNEL_ENV, k)
        assert core_nn.default_kernel() == k
        net = nn.load(netfile, "base")
        assert net.core.kernel == k
        r = search(state, Limits(iterations=800), Config(evaluator="net", net=net, seed=2))
        results[k] = [(s.action, s.visits, s.value, s.prior) for s in r.actions]
    assert all(v == results["baseline"] for v in results.values())


def test_a_bad_kernel_name_is_refused_naming_it(monkeypatch):
    args = _random_core_args(np.random.default_rng(1))
    with pytest.raises(ValueError, match="unknown kernel 'sse9'.*baseline"):
        core_nn.NetCore(*args, kernel="sse9")
    monkeypatch.setenv(core_nn.KERNEL_ENV, "fast")
    with pytest.raises(ValueError, match="SPLENDOR_AI_NN_KERNEL: unknown kernel 'fast'"):
        core_nn.NetCore(*args)
    unsupported = [name for name, ok in core_nn.kernels() if not ok]
    if unsupported:  # on a CPU without AVX-512 (say): a kernel it cannot run is refused, not crashed into
        with pytest.raises(ValueError, match="cannot run"):
            core_nn.NetCore(*args, kernel=unsupported[0])


# ---------------------------------------------------------------- bfloat16 weights (opt-in)
def _bf16_rounded(payload: array) -> array:
    """float32 values rounded to the nearest bfloat16 (ties to even), as float32."""
    u = np.frombuffer(payload.tobytes(), dtype=np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    return array("f", r.astype(np.uint32).tobytes())


def _trunk_only(netfile: W.NetFile, rounded: array) -> array:
    """The payload with the hidden layers' weight matrices (not biases, not heads) from `rounded`."""
    out, pos, prev = array("f", netfile.payload), 0, netfile.num_features
    for h in netfile.hidden:
        out[pos:pos + h * prev] = rounded[pos:pos + h * prev]
        pos += h * prev + h
        prev = h
    return out


@pytest.mark.parametrize("kernel", RUNNABLE)
def test_bfloat16_weights_give_the_float_net_on_rounded_weights(kernel):
    netfile = random_netfile("base", hidden=(70, 40, 24), seed=8)
    args = (netfile.num_features, netfile.hidden, netfile.max_players, netfile.policy_size)
    half = core_nn.NetCore(*args, netfile.payload, kernel=kernel, precision="bfloat16")
    rounded = core_nn.NetCore(*args, _trunk_only(netfile, _bf16_rounded(netfile.payload)), kernel="baseline")
    full = core_nn.NetCore(*args, netfile.payload, kernel=kernel)
    assert half.precision == "bfloat16" and full.precision == "float32"
    rng = np.random.default_rng(9)
    for trial in range(10):
        x = _features(rng, netfile.num_features, zeros=0.75)
        classes = sorted(set(rng.integers(0, netfile.policy_size, size=20).tolist()))
        got = half.evaluate(x, 3, classes)
        assert _bits(*got) == _bits(*rounded.evaluate(x, 3, classes))
        want = full.evaluate(x, 3, classes)
        assert np.allclose(got[0], want[0], atol=0.02) and np.allclose(got[1], want[1], rtol=0.02, atol=0.2)
        assert _bits(*got) != _bits(*want)  # the rounding is real: these are other numbers


def test_the_precision_comes_from_the_header_and_a_bad_one_is_refused():
    netfile = random_netfile("base", hidden=(16,), seed=2)
    args = (netfile.num_features, netfile.hidden, netfile.max_players, netfile.policy_size, netfile.payload)
    assert core_nn.NetCore(*args, {"info": {"precision": "bfloat16"}}).precision == "bfloat16"
    assert core_nn.NetCore(*args, {"info": {}}).precision == "float32"
    with pytest.raises(ValueError, match="precision must be one of float32, bfloat16, int8, got .int4."):
        core_nn.NetCore(*args, precision="int4")


@pytest.mark.parametrize("precision", ["bfloat16", "int8"])
def test_a_reduced_precision_copy_of_a_weights_file_loads_at_that_precision(tmp_path, precision):
    netfile = random_netfile("base", hidden=(32, 16), seed=4)
    path = tmp_path / "half.splnn"
    assert W.main(["precision", str(_saved(tmp_path, netfile)), str(path), precision]) == 0
    back = W.read(path)
    assert back.info["precision"] == precision and back.payload == netfile.payload
    assert nn.load(path, "base").core.precision == precision
    assert nn.load(W.with_precision(back, "float32"), "base").core.precision == "float32"
    assert "precision" not in W.with_precision(back, "float32").info


def test_the_precision_command_runs_as_a_module_without_warnings(tmp_path):
    """``python -m splendor_ai.nn precision`` as the docs give it: a copy, and a clean stderr."""
    source = _saved(tmp_path, random_netfile("duel", hidden=(16, 8), seed=5))
    out = tmp_path / "q.splnn"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-m", "splendor_ai.nn", "precision", str(source), str(out), "int8"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0 and done.stderr == "" and f"wrote {out} (int8)" in done.stdout
    assert W.read(out).info["precision"] == "int8"
    bad = subprocess.run([sys.executable, "-m", "splendor_ai.nn", "precision", str(tmp_path / "none.splnn"),
                          str(out), "int8"], capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 2 and "none.splnn: cannot read" in bad.stderr


def test_a_bad_precision_in_a_header_is_refused_naming_the_field(tmp_path):
    netfile = random_netfile("base", hidden=(8,), seed=4)
    netfile.info = {"precision": "int4"}
    with pytest.raises(W.WeightsError,
                       match=r"header.info.precision must be one of float32, bfloat16, int8, got 'int4'"):
        W.read(_saved(tmp_path, netfile))
    with pytest.raises(W.WeightsError, match="precision must be one of"):
        W.with_precision(netfile, "fp8")


def _saved(tmp_path, netfile):
    path = tmp_path / "net.splnn"
    W.save(path, netfile)
    return path


# ---------------------------------------------------------------- int8 weights (opt-in)
def _int8_spec(netfile: W.NetFile, x: np.ndarray, n_seats: int):
    """The int8 evaluation from the file's PyTorch layout with NumPy, its trunk to the bit (the
    specification: docs/learned.md, "int8 weights"); the heads as numpy_forward's."""
    f32 = np.float32
    p = np.asarray(netfile.payload, dtype=f32)
    pos, h, prev = 0, x.astype(f32), netfile.num_features
    for size in netfile.hidden:
        w = p[pos:pos + size * prev].reshape(size, prev).T  # [in][out]
        b = p[pos + size * prev:pos + size * prev + size]
        pos += size * prev + size
        a = f32(max(f32(0), h.max()))
        if not a > 0:
            h = np.maximum(b, f32(0))
        else:
            t = h * (f32(127) / a) + f32(0.5)
            q = np.trunc(np.where(t > 0, np.minimum(t, f32(127)), f32(0))).astype(np.int64)
            s = np.where(np.abs(w).max(0) > 0, np.abs(w).max(0) / f32(127), f32(1)).astype(f32)
            wq = np.rint(np.clip(w / s, f32(-127), f32(127))).astype(np.int64)
            acc = (q @ wq).astype(f32)
            h = np.maximum((acc * s) * (a / f32(127)) + b, f32(0))
        prev = size
    head = W.NetFile(netfile.game, netfile.players, netfile.feature_version, prev, netfile.policy_size,
                     netfile.max_players, [], array("f", p[pos:].tobytes()))
    return numpy_forward(head, h, n_seats)


def _features_nonneg(rng, n_in, zeros):
    x = np.abs(rng.standard_normal(n_in)).astype(np.float32) * float(rng.choice([0.05, 1.0, 30.0]))
    x[rng.random(n_in) < zeros] = 0.0
    return array("f", x.tobytes())


@pytest.mark.parametrize("seed", range(6))
def test_int8_every_kernel_gives_the_baseline_bits(seed):
    """The sums are integers, exact in any order: the vector copies (bytes, VNNI or a pair of
    multiply-adds) and the baseline (the same integers as floats) agree to the bit."""
    rng = np.random.default_rng(100 + seed)
    n_in, hidden, max_players, policy_size, payload = _random_core_args(rng)
    cores_by_kernel = {k: core_nn.NetCore(n_in, hidden, max_players, policy_size, payload, kernel=k,
                                          precision="int8") for k in RUNNABLE}
    for trial in range(8):
        x = _features_nonneg(rng, n_in, zeros=(0.0, 0.5, 0.8, 1.0)[trial % 4])
        seats = int(rng.integers(1, max_players + 1))
        classes = sorted(set(rng.integers(0, policy_size, size=int(rng.integers(0, 40))).tolist()))
        want = _bits(*cores_by_kernel["baseline"].evaluate(x, seats, classes))
        for k, c in cores_by_kernel.items():
            assert c.precision == "int8"
            assert _bits(*c.evaluate(x, seats, classes)) == want, (k, trial)


@pytest.mark.parametrize("kernel", RUNNABLE)
@pytest.mark.parametrize("game", ["base", "duel", "marvel"])
def test_int8_evaluation_equals_its_specification_and_stays_near_the_float_net(game, kernel):
    netfile = random_netfile(game, hidden=(75, 33), seed=13)
    args = (netfile.num_features, netfile.hidden, netfile.max_players, netfile.policy_size, netfile.payload)
    q8 = core_nn.NetCore(*args, kernel=kernel, precision="int8")
    full = core_nn.NetCore(*args, kernel=kernel)
    core = cores.module(game)
    rng = random.Random(5)
    state = load_game(game, 2).new_initial_state(11)
    for _ in range(25):
        if state.is_terminal():
            break
        feats = state.features()
        classes = sorted({core.policy_index(a) for a in state.search_actions()})
        values, logits = q8.evaluate(array("f", feats), 2, classes)
        want_v, want_p = _int8_spec(netfile, np.frombuffer(feats, dtype=np.float32), 2)
        assert np.allclose(values, want_v, atol=1e-6) and np.allclose(logits, want_p[classes], atol=1e-5)
        fv, fp = full.evaluate(array("f", feats), 2, classes)
        assert np.allclose(values, fv, atol=0.05) and np.allclose(logits, fp, atol=0.5)
        state.apply_action(rng.choice(state.search_actions()))


def test_an_int8_layer_of_zero_inputs_is_its_bias():
    netfile = random_netfile("base", hidden=(20, 9), seed=3)
    args = (netfile.num_features, netfile.hidden, netfile.max_players, netfile.policy_size, netfile.payload)
    x = np.zeros(netfile.num_features, dtype=np.float32)
    for k in RUNNABLE:
        got = core_nn.NetCore(*args, kernel=k, precision="int8").evaluate(array("f", x.tobytes()), 2, [0, 5])
        want = _int8_spec(netfile, x, 2)
        assert np.allclose(got[0], want[0], atol=1e-6) and np.allclose(got[1], want[1][[0, 5]], atol=1e-5)


@pytest.mark.parametrize("game,players", [("base", 2), ("base", 4), ("duel", 2), ("marvel", 3)])
def test_every_feature_is_at_least_zero_as_the_int8_layer_reads_them(game, players):
    """The int8 layer quantizes its inputs to 0..127 (a negative one would read as 0): every
    game's features must be >= 0, as a ReLU's outputs are."""
    rng = random.Random(players)
    for seed in range(3):
        state = load_game(game, players).new_initial_state(seed)
        while not state.is_terminal():
            assert np.frombuffer(state.features(), dtype=np.float32).min() >= 0.0
            state.apply_action(rng.choice(state.legal_actions()))


def test_a_seeded_int8_search_does_not_change_with_the_kernel(monkeypatch):
    netfile = W.with_precision(random_netfile("duel", hidden=(40, 24), seed=6, scale=0.2), "int8")
    state = load_game("duel", 2).new_initial_state(3)
    results = {}
    for k in RUNNABLE:
        monkeypatch.setenv(core_nn.KERNEL_ENV, k)
        net = nn.load(netfile, "duel")
        assert net.core.precision == "int8"
        r = search(state, Limits(iterations=600), Config(evaluator="net", net=net, seed=2))
        results[k] = [(s.action, s.visits, s.value, s.prior) for s in r.actions]
    assert all(v == results["baseline"] for v in results.values())


def test_an_int8_net_too_wide_is_refused():
    rng = np.random.default_rng(1)
    payload = array("f", (rng.standard_normal(1100 * 8 + 8 + 8 * 2 + 2 + 8 * 3 + 3) * 0.1).astype(np.float32).tobytes())
    with pytest.raises(ValueError, match="at most 1024 inputs and units a layer, got 1100"):
        core_nn.NetCore(1100, [8], 2, 3, payload, precision="int8")
    core_nn.NetCore(1100, [8], 2, 3, payload, precision="float32")  # float has no such bound


def test_the_environment_sets_every_nets_precision_and_a_bad_one_is_refused(monkeypatch):
    netfile = random_netfile("base", hidden=(16,), seed=2)
    args = (netfile.num_features, netfile.hidden, netfile.max_players, netfile.policy_size, netfile.payload)
    monkeypatch.setenv(core_nn.PRECISION_ENV, "int8")
    assert core_nn.NetCore(*args, {"info": {"precision": "bfloat16"}}).precision == "int8"  # the operator's choice
    assert core_nn.NetCore(*args, precision="float32").precision == "float32"  # an explicit one still wins
    assert nn.load(netfile, "base").core.precision == "int8"
    monkeypatch.setenv(core_nn.PRECISION_ENV, "int4")
    with pytest.raises(ValueError, match="SPLENDOR_AI_NN_PRECISION: unknown precision 'int4'"):
        core_nn.NetCore(*args)


def test_the_servers_net_line_names_the_kernel_and_the_precision(monkeypatch):
    from splendor_ai.service.nets import Nets

    monkeypatch.setenv(core_nn.PRECISION_ENV, "int8")
    net = nn.load(random_netfile("duel", hidden=(8,), seed=1, players=[2]), "duel")
    line = Nets({"duel": net}).describe()
    assert f"kernel {core_nn.default_kernel()}" in line and "int8" in line and "duel=" in line
