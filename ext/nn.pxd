# The learned evaluation's network in plain C (docs/learned.md): an MLP whose weights are
# owned by a splendor_ai._core.nn.Net object and reached by the search through a PyCapsule
# named "splendor_ai.Net". Header-only (inline, noexcept nogil): read-only weights, the
# caller brings the scratch buffers, so any number of threads may evaluate one net at once.
#
# Every matrix is stored [in][out] (transposed from PyTorch's [out][in] at load time), so a
# layer is a sum of weight rows scaled by the non-zero inputs: sparse inputs and ReLU zeros
# cost nothing, and the inner loop (no reduction) vectorises without -ffast-math. The policy
# head is stored [class][in]: only the legal actions' rows are read, four at a time, each a
# dot product of eight partial sums in a fixed order. Both run in C kernels
# (ext/nn_kernels.h), compiled for AVX-512, AVX2 and the baseline on x86-64; the Net holds
# the pointers of the copy it runs, and every copy gives the same bits. A net loaded with
# bfloat16 weights (docs/learned.md) keeps its hidden layers' weights in w16 instead of w, one
# with int8 weights in w8 and s8.
from libc.math cimport exp
from libc.stdint cimport uint32_t, int8_t


cdef extern from "nn_kernels.h":
    ctypedef void (*splnn_layer_fn)(const float* x, int n_in, const float* w, const float* bias,
                                    int n_out, float* out, int relu) noexcept nogil
    ctypedef void (*splnn_layer16_fn)(const float* x, int n_in, const uint32_t* w, const float* bias,
                                      int n_out, float* out, int relu) noexcept nogil
    ctypedef void (*splnn_layer8_fn)(const float* x, int n_in, const void* w, const float* scale,
                                     const float* bias, int n_out, float* out, int relu) noexcept nogil
    ctypedef void (*splnn_logits_fn)(const float* h, int n, const float* wp, const float* bias,
                                     const int* cls, int n_cls, float* out) noexcept nogil

cdef enum:
    NN_MAX_LAYERS = 4

ctypedef struct Net:
    int n_in
    int n_layers                 # hidden layers
    int hidden[NN_MAX_LAYERS]
    int max_hidden
    int max_players              # value head width
    int policy_size
    float* w[NN_MAX_LAYERS]      # layer k: [in][out] (NULL where w16 holds it)
    uint32_t* w16[NN_MAX_LAYERS] # layer k in bfloat16, two a word (splnn_pack16), or NULL
    void* w8[NN_MAX_LAYERS]      # layer k in int8 (splnn_pack8, or splnn_pack8f's floats), or NULL
    float* s8[NN_MAX_LAYERS]     # and its outputs' scales
    float* b[NN_MAX_LAYERS]
    float* wv                    # value head: [h_last][max_players]
    float* bv
    float* wp                    # policy head: [policy_size][h_last]
    float* bp
    splnn_layer_fn layer         # the machine copy of the kernels this net runs
    splnn_layer16_fn layer16
    splnn_layer8_fn layer8
    splnn_logits_fn logits


cdef inline const float* nn_trunk(const Net* N, const float* x, float* buf_a, float* buf_b) noexcept nogil:
    """Runs the hidden layers on the features x; returns the last hidden layer (buf_a or
    buf_b, each of N.max_hidden floats)."""
    cdef int k, n_in = N.n_in
    cdef const float* cur = x
    cdef float* out = buf_a
    for k in range(N.n_layers):
        if N.w8[k] != NULL:
            N.layer8(cur, n_in, N.w8[k], N.s8[k], N.b[k], N.hidden[k], out, 1)
        elif N.w16[k] != NULL:
            N.layer16(cur, n_in, N.w16[k], N.b[k], N.hidden[k], out, 1)
        else:
            N.layer(cur, n_in, N.w[k], N.b[k], N.hidden[k], out, 1)
        n_in = N.hidden[k]
        cur = out
        out = buf_b if out == buf_a else buf_a
    return cur


cdef inline void nn_value(const Net* N, const float* h, int n_seats, double* out) noexcept nogil:
    """Win probabilities relative to the mover (out[0] the mover, out[k] the k-th seat after
    it), a softmax over the first n_seats value logits."""
    cdef float logits[8]
    cdef int k
    cdef double m, total = 0.0
    N.layer(h, N.hidden[N.n_layers - 1], N.wv, N.bv, N.max_players, logits, 0)
    m = logits[0]
    for k in range(1, n_seats):
        if logits[k] > m:
            m = logits[k]
    for k in range(n_seats):
        out[k] = exp(logits[k] - m)
        total += out[k]
    for k in range(n_seats):
        out[k] /= total


cdef inline void nn_policy_logits(const Net* N, const float* h, const int* cls, int n_cls,
                                  float* out) noexcept nogil:
    """The policy logits of the classes cls[0..n_cls) into out (only their rows are read)."""
    N.logits(h, N.hidden[N.n_layers - 1], N.wp, N.bp, cls, n_cls, out)
