# The Python face of the C network (nn.pxd): a Net owns its weights in C memory and hands the
# search a capsule. The weights file is parsed and checked in splendor_ai/nn/weights.py;
# this module only lays the already-checked floats out for the C evaluation.
from libc.stdlib cimport malloc, free
from libc.string cimport memset
from cpython.pycapsule cimport PyCapsule_New
from array import array

from nn cimport Net, NN_MAX_LAYERS, nn_trunk, nn_value, nn_policy_logits


cdef class NetCore:
    """The weights of one network, laid out for nn.pxd. Built by splendor_ai.nn.load."""

    cdef Net net
    cdef float* block
    cdef readonly object header

    def __cinit__(self, int n_in, hidden, int max_players, int policy_size, const float[::1] payload, header=None):
        """`payload`: the float32 values in the file's order (PyTorch layout, docs/learned.md)."""
        cdef int k, i, j, n_prev, n_out, total, pos = 0, off = 0
        cdef float* dst
        self.block = NULL
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
