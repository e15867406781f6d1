"""Build of the Cython cores in ext/.

Compiler directives are set once, here.  SPLENDOR_AI_DEBUG=1 in the environment at build
time turns bounds checking, wrap-around indexing and initialisation checks back on (and
drops -O3) for debugging the cores.
"""
import hashlib
import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("SPLENDOR_AI_DEBUG", "") not in ("", "0")

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "nonecheck": False,
    "embedsignature": True,
}

# -ffp-contract=off: a multiply and an add stay two roundings, never one fused multiply-add,
# so the machine copies of the net's kernels (ext/nn_kernels.h: AVX-512 has FMA) all give the
# same bits and a seeded search the same result on every x86-64 CPU.
CFLAGS = (["-O0", "-g"] if DEBUG else ["-O3", "-g0"]) + ["-ffp-contract=off"]
# The wheel's cores carry no debug information or symbol table (7.3 MB with them, about 1.2 MB
# without); SPLENDOR_AI_DEBUG=1 keeps both.
LDFLAGS = [] if DEBUG else ["-s"]

# One extension module per .pyx in ext/, installed as splendor_ai._core.<name>.
CORES = ["base", "marvel", "duel", "nn", "search"]

# The five cores are translated and compiled side by side, one a core the machine has (a
# serial build took 73 s on 2 cores, CI builds twice): `build_ext -j N` on the command line
# still decides.
JOBS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)

BUILD_DIR = Path("build/cython")  # the generated .c goes to build/, never next to the sources
STAMP = BUILD_DIR / ".sources"


def _digest() -> str:
    """What the generated C depends on: every file of ext/, Cython's version, the directives and
    the flags. Cython compares timestamps, and an isolated build environment installs Cython (and
    its .pxd includes) afresh for every pip install, so it would regenerate and recompile all five
    cores each time an extra is added (`pip install '.[chart]'`): instead, while this digest is
    unchanged, the .c files of the last build are compiled (and build_ext skips the cores whose
    .so is newer than their .c)."""
    import Cython

    h = hashlib.sha256()
    for f in sorted(Path("ext").iterdir()):
        if f.is_file() and f.suffix in (".pyx", ".pxd", ".pxi", ".h"):
            h.update(f.name.encode() + b"\0" + f.read_bytes())
    h.update(f"{Cython.__version__} {sorted(DIRECTIVES.items())} {CFLAGS} {LDFLAGS}".encode())
    return h.hexdigest()


def _extension(name: str, source: str) -> Extension:
    return Extension(f"splendor_ai._core.{name}", [source], include_dirs=["ext"],
                     depends=["ext/nn_kernels.h", "ext/nn_kernel_body.h"],
                     extra_compile_args=CFLAGS, extra_link_args=LDFLAGS)


def _extensions() -> list:
    digest = _digest()
    generated = {name: BUILD_DIR / "ext" / f"{name}.c" for name in CORES}
    if STAMP.is_file() and STAMP.read_text() == digest and all(c.is_file() for c in generated.values()):
        return [_extension(name, str(c)) for name, c in generated.items()]
    out = cythonize([_extension(name, f"ext/{name}.pyx") for name in CORES], compiler_directives=DIRECTIVES,
                    include_path=["ext"], build_dir=str(BUILD_DIR), force=True, nthreads=min(JOBS, len(CORES)))
    STAMP.write_text(digest)
    return out


setup(ext_modules=_extensions(), options={"build_ext": {"parallel": min(JOBS, len(CORES))}})
