"""Build of the Cython cores in ext/.

Compiler directives are set once, here.  SPLENDOR_AI_DEBUG=1 in the environment at build
time turns bounds checking, wrap-around indexing and initialisation checks back on (and
drops -O3) for debugging the cores.
"""
import os

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

extensions = [
    Extension(
        f"splendor_ai._core.{name}",
        [f"ext/{name}.pyx"],
        include_dirs=["ext"],
        depends=["ext/nn_kernels.h", "ext/nn_kernel_body.h"],
        extra_compile_args=CFLAGS,
        extra_link_args=LDFLAGS,
    )
    for name in CORES
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives=DIRECTIVES,
        include_path=["ext"],
        # The generated .c goes to build/, never next to the sources.
        build_dir="build/cython",
    ),
)
