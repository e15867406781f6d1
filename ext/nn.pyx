# The Python face of the C network (nn.pxd): a Net owns its weights in C memory and hands the
# search a capsule. The weights file is parsed and checked in splendor_ai/nn/weights.py;
# this module only lays the already-checked floats out for the C evaluation and picks the
# machine copy of the kernels it runs (ext/nn_kernels.h).
from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.stdint cimport uint32_t, int8_t
from cpython.pycapsule cimport PyCapsule_New
from array import array
import os

from nn cimport (Net, NN_MAX_LAYERS, nn_trunk, nn_value, nn_policy_logits, splnn_layer_fn,
                 splnn_layer16_fn, splnn_layer8_fn, splnn_logits_fn)

cdef extern from "nn_kernels.h":
    int SPLNN_N_KERNELS
    const char* splnn_kernel_name(int i) noexcept nogil
    int splnn_kernel_supported(int i) noexcept nogil
    int splnn_kernel(int i, splnn_layer_fn* layer, splnn_layer16_fn* layer16,
                     splnn_layer8_fn* layer8, splnn_logits_fn* logits) noexcept nogil
    int SPLNN_ROW16(int n_out) noexcept nogil
    void splnn_pack16(const float* w, int n_in, int n_out, uint32_t* out) noexcept nogil
    int SPLNN_Q8_STRIDE(int n_out) noexcept nogil
    int SPLNN_Q8_MAX
    int splnn_kernel_q8_float(int i) noexcept nogil
    void splnn_pack8(const float* w, int n_in, int n_out, int8_t* out, float* scale) noexcept nogil
    void splnn_pack8f(const float* w, int n_in, int n_out, float* out, float* scale) noexcept nogil

KERNEL_ENV = "SPLENDOR_AI_NN_KERNEL"
PRECISION_ENV = "SPLENDOR_AI_NN_PRECISION"
PRECISIONS = ("float32", "bfloat16", "int8")


def default_precision(header=None):
    """The precision a new NetCore holds its hidden layers' weights at: the one
    SPLENDOR_AI_NN_PRECISION names (float32, bfloat16, int8: an operator's choice for every net),
    else the header's info.precision, else float32."""
    name = os.environ.get(PRECISION_ENV, "").strip()
    if name:
        if name not in PRECISIONS:
            raise ValueError(f"{PRECISION_ENV}: unknown precision {name!r} (known: {', '.join(PRECISIONS)})")
        return name
    info = header.get("info") if isinstance(header, dict) else None
    return info.get("precision", "float32") if isinstance(info, dict) else "float32"


def kernels():
    """The machine copies of the kernels, widest first: [(name, whether this CPU runs it)].
    Every copy gives the same results; a net runs the first this CPU runs unless told."""
    return [(splnn_kernel_name(i).decode(), bool(splnn_kernel_supported(i))) for i in range(SPLNN_N_KERNELS)]


def default_kernel():
    """The kernel a new NetCore runs: the one SPLENDOR_AI_NN_KERNEL names (baseline, avx2,
    avxvnni, avx512), else the widest this CPU runs."""
    return _kernel_index(None)[1]


cdef tuple _kernel_index(name):
    cdef int i
    known = kernels()
    source = "kernel"
    if name is None:
        name = os.environ.get(KERNEL_ENV, "").strip() or None
        source = KERNEL_ENV
    if name is None:
        for i in range(len(known)):
            if known[i][1]:
                return i, known[i][0]
        raise RuntimeError("no kernel of the net runs on this CPU")  # the baseline always does
    for i in range(len(known)):
        if known[i][0] == name:
            if not known[i][1]:
                raise ValueError(f"{source}: this CPU cannot run the {name} kernel "
                                 f"(it runs {', '.join(n for n, ok in known if ok)})")
            return i, name
    raise ValueError(f"{source}: unknown kernel {name!r} (known: {', '.join(n for n, _ in known)})")


cdef class NetCore:
    """The weights of one network, laid out for nn.pxd. Built by splendor_ai.nn.load."""

    cdef Net net
    cdef float* block
    cdef uint32_t* block16
    cdef int8_t* block8
    cdef float* scales8
    cdef readonly object header
    cdef readonly str kernel
    cdef readonly str precision

    def __cinit__(self, int n_in, hidden, int max_players, int policy_size, const float[::1] payload, header=None,
                  kernel=None, precision=None):
        """`payload`: the float32 values in the file's order (PyTorch layout, docs/learned.md).
        `kernel`: the machine copy to run (kernels(); default: default_kernel()). `precision`:
        of the hidden layers' weights, "float32", "bfloat16" or "int8" (default:
        default_precision(header); docs/learned.md)."""
        cdef int k, i, j, n_prev, n_out, total, pos = 0, off = 0, off16 = 0, off8 = 0, offs = 0, kidx
        cdef size_t bytes8
        cdef int q8f = 0
        cdef float* dst
        self.block = NULL
        self.block16 = NULL
        self.block8 = NULL
        self.scales8 = NULL
        kidx, self.kernel = _kernel_index(kernel)
        if precision is None:
            precision = default_precision(header)
        if precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
        self.precision = precision
        hidden = [int(h) for h in hidden]
        if not 1 <= len(hidden) <= NN_MAX_LAYERS:
            raise ValueError(f"a net has 1..{NN_MAX_LAYERS} hidden layers, got {len(hidden)}")
        if n_in < 1 or policy_size < 1 or not 2 <= max_players <= 8 or min(hidden) < 1:
            raise ValueError("net sizes must be positive (max_players 2..8)")
        n_prev = n_in
        total = 0
        for h in hidden:
            total += n_prev * h + h
            n_prev = h
        total += n_prev * max_players + max_players + n_prev * policy_size + policy_size
        if payload.shape[0] != total:
            raise ValueError(f"payload has {payload.shape[0]} floats, the shape needs {total}")
        self.block = <float*>malloc(total * sizeof(float))
        if self.block == NULL:
            raise MemoryError()
        memset(&self.net, 0, sizeof(Net))
        if precision == "int8" and max([n_in] + hidden) > SPLNN_Q8_MAX:
            raise ValueError(f"an int8 net has at most {SPLNN_Q8_MAX} inputs and units a layer, "
                             f"got {max([n_in] + hidden)}")
        splnn_kernel(kidx, &self.net.layer, &self.net.layer16, &self.net.layer8, &self.net.logits)
        if precision == "bfloat16":
            n_prev, j = n_in, 0
            for h in hidden:
                j += (n_prev + 1) * SPLNN_ROW16(h)
                n_prev = h
            self.block16 = <uint32_t*>malloc(j * sizeof(uint32_t))
            if self.block16 == NULL:
                raise MemoryError()
        elif precision == "int8":
            # The vector kernels read bytes (splnn_pack8), the baseline the same integers as floats.
            q8f = splnn_kernel_q8_float(kidx)
            n_prev, bytes8 = n_in, 0
            for h in hidden:
                bytes8 += (<size_t>n_prev * h * sizeof(float)) if q8f else (<size_t>((n_prev + 3) // 4) * SPLNN_Q8_STRIDE(h))
                n_prev = h
            self.block8 = <int8_t*>malloc(bytes8)
            self.scales8 = <float*>malloc(sum(hidden) * sizeof(float))
            if self.block8 == NULL or self.scales8 == NULL:
                raise MemoryError()
        self.header = header
        self.net.n_in = n_in
        self.net.n_layers = len(hidden)
        self.net.max_players = max_players
        self.net.policy_size = policy_size
        self.net.max_hidden = max(hidden)
        # Hidden layers and the value head: PyTorch [out][in] -> [in][out].
        n_prev = n_in
        for k in range(len(hidden) + 1):
            n_out = hidden[k] if k < len(hidden) else max_players
            dst = self.block + off
            for j in range(n_out):
                for i in range(n_prev):
                    dst[i * n_out + j] = payload[pos]
                    pos += 1
            off += n_prev * n_out
            for j in range(n_out):
                self.block[off + j] = payload[pos]
                pos += 1
            if k < len(hidden):
                self.net.hidden[k] = n_out
                self.net.w[k] = dst
                self.net.b[k] = self.block + off
                if self.block16 != NULL:
                    self.net.w16[k] = self.block16 + off16
                    self.net.w[k] = NULL
                    splnn_pack16(dst, n_prev, n_out, self.block16 + off16)
                    off16 += (n_prev + 1) * SPLNN_ROW16(n_out)
                elif self.block8 != NULL:
                    self.net.w8[k] = self.block8 + off8
                    self.net.s8[k] = self.scales8 + offs
                    self.net.w[k] = NULL
                    if q8f:
                        splnn_pack8f(dst, n_prev, n_out, <float*>(self.block8 + off8), self.scales8 + offs)
                        off8 += n_prev * n_out * sizeof(float)
                    else:
                        splnn_pack8(dst, n_prev, n_out, self.block8 + off8, self.scales8 + offs)
                        off8 += ((n_prev + 3) // 4) * SPLNN_Q8_STRIDE(n_out)
                    offs += n_out
            else:
                self.net.wv = dst
                self.net.bv = self.block + off
            off += n_out
            if k < len(hidden):
                n_prev = n_out
        # Policy head: kept [class][in].
        self.net.wp = self.block + off
        for i in range(policy_size * n_prev):
            self.block[off] = payload[pos]
            off += 1
            pos += 1
        self.net.bp = self.block + off
        for i in range(policy_size):
            self.block[off] = payload[pos]
            off += 1
            pos += 1

    def __dealloc__(self):
        free(self.block)
        free(self.block16)
        free(self.block8)
        free(self.scales8)

    @property
    def n_in(self):
        return self.net.n_in

    @property
    def policy_size(self):
        return self.net.policy_size

    @property
    def max_players(self):
        return self.net.max_players

    def capsule(self):
        """The Net for the search (valid while this object lives: keep a reference)."""
        return PyCapsule_New(&self.net, b"splendor_ai.Net", NULL)

    def evaluate(self, const float[::1] features, int n_seats, classes=()):
        """(values relative to the mover, policy logits of `classes`): the C evaluation, for
        tests and tools (the search calls the same functions without the GIL)."""
        cdef float* a
        cdef float* b
        cdef const float* h
        cdef double values[8]
        cdef int[::1] cls
        cdef float[::1] out
        if features.shape[0] != self.net.n_in:
            raise ValueError(f"features: {features.shape[0]} values, the net reads {self.net.n_in}")
        if not 1 <= n_seats <= self.net.max_players:
            raise ValueError(f"n_seats must be 1..{self.net.max_players}")
        for c in classes:
            if not 0 <= c < self.net.policy_size:
                raise ValueError(f"policy class {c} out of range")
        a = <float*>malloc(2 * self.net.max_hidden * sizeof(float))
        if a == NULL:
            raise MemoryError()
        b = a + self.net.max_hidden
        try:
            h = nn_trunk(&self.net, &features[0], a, b)
            nn_value(&self.net, h, n_seats, values)
            cls = array("i", list(classes) or [0])
            out = array("f", [0.0]) * cls.shape[0]
            nn_policy_logits(&self.net, h, &cls[0], len(classes), &out[0])
            return [values[k] for k in range(n_seats)], [out[k] for k in range(len(classes))]
        finally:
            free(a)

    def time_evaluations(self, const float[::1] features, int n_seats, classes, int repeat):
        """Runs `repeat` full evaluations (trunk, value, the classes' logits) in C without the
        GIL; returns the seconds taken (the benchmark of one evaluation's cost)."""
        import time
        cdef int r, k, n = len(classes)
        cdef int cls[512]
        cdef float logits[512]
        cdef double values[8]
        cdef float* a
        cdef float* b
        cdef const float* h
        if features.shape[0] != self.net.n_in or n > 512:
            raise ValueError("bad features or too many classes")
        for k in range(n):
            cls[k] = classes[k]
        a = <float*>malloc(2 * self.net.max_hidden * sizeof(float))
        if a == NULL:
            raise MemoryError()
        b = a + self.net.max_hidden
        t0 = time.perf_counter()
        with nogil:
            for r in range(repeat):
                h = nn_trunk(&self.net, &features[0], a, b)
                nn_value(&self.net, h, n_seats, values)
                nn_policy_logits(&self.net, h, cls, n, logits)
        elapsed = time.perf_counter() - t0
        free(a)
        return elapsed
