/* The body of the network's kernels, included by ext/nn_kernels.h once per machine copy with
 * SPLNN_SFX (the copy's name suffix) and SPLNN_TARGET (its function attribute) defined. Every
 * copy does the same float operations in the same order (see nn_kernels.h), so all copies give
 * the same bits; only the width of the vectors the compiler uses differs. */
#define SPLNN_CAT2(a, b) a##b
#define SPLNN_CAT(a, b) SPLNN_CAT2(a, b)
#define SPLNN_NAME(n) SPLNN_CAT(n, SPLNN_SFX)

/* The non-zero inputs among x[i..n_in): their indices into idx and values into vals, in input
 * order, until n_in or until SPLNN_CHUNK are found (nearly: the vector copies stop a vector
 * short of it). Returns the index after the last input looked at; *count gets how many were
 * kept. No branch on the values: the features' sparse pattern changes from one evaluation to
 * the next, and a branch per input was mispredicted so often that it took a third of the
 * layer's time in a search. The AVX-512 copy compresses sixteen inputs at a time, the AVX2 copy
 * eight (a permutation looked up by the mask), the baseline writes each input to the next slot,
 * which only a non-zero one keeps. A NaN counts as non-zero and -0.0 as zero, as in x != 0. */
SPLNN_TARGET
static inline int SPLNN_NAME(splnn_gather_)(const float* restrict x, int i, int n_in,
                                            int* restrict idx, float* restrict vals, int* count)
{
    int m = 0;
#if SPLNN_GATHER == 2
    const __m512i step = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (; i + 16 <= n_in && m <= SPLNN_CHUNK - 16; i += 16) {
        const __m512 v = _mm512_loadu_ps(x + i);
        const __mmask16 k = _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_NEQ_UQ);
        _mm512_storeu_ps(vals + m, _mm512_maskz_compress_ps(k, v));
        _mm512_storeu_si512((void*)(idx + m),
                            _mm512_maskz_compress_epi32(k, _mm512_add_epi32(_mm512_set1_epi32(i), step)));
        m += __builtin_popcount((unsigned)k);
    }
    if (i + 16 <= n_in) {
        *count = m;
        return i;
    }
#elif SPLNN_GATHER == 1
    const __m256i shifts = _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21);
    const __m256i seven = _mm256_set1_epi32(7);
    for (; i + 8 <= n_in && m <= SPLNN_CHUNK - 8; i += 8) {
        const __m256 v = _mm256_loadu_ps(x + i);
        const int k = _mm256_movemask_ps(_mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_NEQ_UQ));
        const __m256i perm = _mm256_and_si256(
            _mm256_srlv_epi32(_mm256_set1_epi32((int)splnn_perm8[k]), shifts), seven);
        _mm256_storeu_ps(vals + m, _mm256_permutevar8x32_ps(v, perm));
        _mm256_storeu_si256((__m256i*)(idx + m), _mm256_add_epi32(_mm256_set1_epi32(i), perm));
        m += __builtin_popcount((unsigned)k);
    }
    if (i + 8 <= n_in) {
        *count = m;
        return i;
    }
#endif
    for (; i < n_in && m < SPLNN_CHUNK; i++) {
        idx[m] = i;
        vals[m] = x[i];
        m += x[i] != 0.0f;
    }
    *count = m;
    return i;
}

/* out[j] = bias[j] + sum over i of x[i] * w[i][j], the terms added in the order of i; w is
 * [n_in][n_out], row-major. Zero inputs (sparse features, ReLU zeros) are skipped: the
 * non-zero ones are gathered first (above), then added eight rows per pass over out, so that
 * out is read and written once per eight rows instead of once per row (the order of the
 * additions, and so the result, is the same however the rows are grouped). With relu,
 * negative outputs become 0 (written as a select, which vectorises, where a conditional store
 * would not). */
SPLNN_TARGET
static void SPLNN_NAME(splnn_layer_)(const float* x, int n_in, const float* restrict w,
                                     const float* restrict bias, int n_out, float* restrict out,
                                     int relu)
{
    int idx[SPLNN_CHUNK];
    float vals[SPLNN_CHUNK];
    int i = 0, j, k, m;
    for (j = 0; j < n_out; j++)
        out[j] = bias[j];
    while (i < n_in) {
        i = SPLNN_NAME(splnn_gather_)(x, i, n_in, idx, vals, &m);
        for (k = 0; k + 8 <= m; k += 8) {
            const float* r0 = w + (size_t)idx[k] * (size_t)n_out;
            const float* r1 = w + (size_t)idx[k + 1] * (size_t)n_out;
            const float* r2 = w + (size_t)idx[k + 2] * (size_t)n_out;
            const float* r3 = w + (size_t)idx[k + 3] * (size_t)n_out;
            const float* r4 = w + (size_t)idx[k + 4] * (size_t)n_out;
            const float* r5 = w + (size_t)idx[k + 5] * (size_t)n_out;
            const float* r6 = w + (size_t)idx[k + 6] * (size_t)n_out;
            const float* r7 = w + (size_t)idx[k + 7] * (size_t)n_out;
            const float v0 = vals[k], v1 = vals[k + 1], v2 = vals[k + 2], v3 = vals[k + 3];
            const float v4 = vals[k + 4], v5 = vals[k + 5], v6 = vals[k + 6], v7 = vals[k + 7];
            for (j = 0; j < n_out; j++) {
                float t = out[j];
                t += v0 * r0[j];
                t += v1 * r1[j];
                t += v2 * r2[j];
                t += v3 * r3[j];
                t += v4 * r4[j];
                t += v5 * r5[j];
                t += v6 * r6[j];
                t += v7 * r7[j];
                out[j] = t;
            }
        }
        for (; k < m; k++) {
            const float* r = w + (size_t)idx[k] * (size_t)n_out;
            const float v = vals[k];
            for (j = 0; j < n_out; j++)
                out[j] += v * r[j];
        }
    }
    if (relu)
        for (j = 0; j < n_out; j++)
            out[j] = out[j] > 0.0f ? out[j] : 0.0f;
}

/* The same layer with bfloat16 weights, packed two to a 32-bit word (splnn_pack16): a row
 * holds SPLNN_ROW16(n_out) words, and in each block of sixteen outputs j0..j0+15, word l
 * (l < 8) holds output j0 + l's weight in its low half and j0 + 8 + l's in its high half; row
 * n_in, after the last, is zeros. A shift and a mask widen the weights to floats exactly, so
 * the result is the float layer's on the weights rounded to bfloat16 (the same sums in the same
 * order), from half the bytes. A group of fewer than eight rows is filled up with the zero row
 * times -0.0, which leaves every sum as it was (x + -0.0 is x, bit for bit). */
#define SPLNN_BF16_TERM(t, v, r, j)                                                            \
    t += v * splnn_bf16((uint16_t)(((r)[((j) >> 4) * 8 + ((j) & 7)] << (((j) & 8) ? 0 : 16)) >> 16))
SPLNN_TARGET
static void SPLNN_NAME(splnn_layer16_)(const float* x, int n_in, const uint32_t* restrict w,
                                       const float* restrict bias, int n_out,
                                       float* restrict out, int relu)
{
    int idx[SPLNN_CHUNK];
    float vals[SPLNN_CHUNK];
    const size_t stride = (size_t)SPLNN_ROW16(n_out);
    const uint32_t* zero = w + (size_t)n_in * stride;
    const int n16 = n_out & ~15;
    int i = 0, j, k, m;
    for (j = 0; j < n_out; j++)
        out[j] = bias[j];
    while (i < n_in) {
        i = SPLNN_NAME(splnn_gather_)(x, i, n_in, idx, vals, &m);
        for (k = 0; k < m; k += 8) {
            const int nr = m - k;
#define SPLNN_ROW(q) (nr > q ? w + (size_t)idx[k + q] * stride : zero)
#define SPLNN_VAL(q) (nr > q ? vals[k + q] : -0.0f)
            const uint32_t *r0 = SPLNN_ROW(0), *r1 = SPLNN_ROW(1), *r2 = SPLNN_ROW(2), *r3 = SPLNN_ROW(3);
            const uint32_t *r4 = SPLNN_ROW(4), *r5 = SPLNN_ROW(5), *r6 = SPLNN_ROW(6), *r7 = SPLNN_ROW(7);
            const float v0 = SPLNN_VAL(0), v1 = SPLNN_VAL(1), v2 = SPLNN_VAL(2), v3 = SPLNN_VAL(3);
            const float v4 = SPLNN_VAL(4), v5 = SPLNN_VAL(5), v6 = SPLNN_VAL(6), v7 = SPLNN_VAL(7);
#undef SPLNN_ROW
#undef SPLNN_VAL
#if defined(__GNUC__)
            for (j = 0; j < n16; j += 16) {
                splnn_v8 lo, hi;
                splnn_u8 p;
                const splnn_u8 high = (splnn_u8){0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u,
                                                 0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u};
                memcpy(&lo, out + j, sizeof lo);
                memcpy(&hi, out + j + 8, sizeof hi);
#define SPLNN_PAIR(r, v)                                                                       \
                memcpy(&p, (r) + j / 2, sizeof p);                                             \
                lo += (v) * (splnn_v8)(p << 16);                                               \
                hi += (v) * (splnn_v8)(p & high);
                SPLNN_PAIR(r0, v0) SPLNN_PAIR(r1, v1) SPLNN_PAIR(r2, v2) SPLNN_PAIR(r3, v3)
                SPLNN_PAIR(r4, v4) SPLNN_PAIR(r5, v5) SPLNN_PAIR(r6, v6) SPLNN_PAIR(r7, v7)
#undef SPLNN_PAIR
                memcpy(out + j, &lo, sizeof lo);
                memcpy(out + j + 8, &hi, sizeof hi);
            }
#else
            for (j = 0; j < n16; j++) {
                float t = out[j];
                SPLNN_BF16_TERM(t, v0, r0, j); SPLNN_BF16_TERM(t, v1, r1, j);
                SPLNN_BF16_TERM(t, v2, r2, j); SPLNN_BF16_TERM(t, v3, r3, j);
                SPLNN_BF16_TERM(t, v4, r4, j); SPLNN_BF16_TERM(t, v5, r5, j);
                SPLNN_BF16_TERM(t, v6, r6, j); SPLNN_BF16_TERM(t, v7, r7, j);
                out[j] = t;
            }
#endif
            for (j = n16; j < n_out; j++) {
                float t = out[j];
                SPLNN_BF16_TERM(t, v0, r0, j); SPLNN_BF16_TERM(t, v1, r1, j);
                SPLNN_BF16_TERM(t, v2, r2, j); SPLNN_BF16_TERM(t, v3, r3, j);
                SPLNN_BF16_TERM(t, v4, r4, j); SPLNN_BF16_TERM(t, v5, r5, j);
                SPLNN_BF16_TERM(t, v6, r6, j); SPLNN_BF16_TERM(t, v7, r7, j);
                out[j] = t;
            }
        }
    }
    if (relu)
        for (j = 0; j < n_out; j++)
            out[j] = out[j] > 0.0f ? out[j] : 0.0f;
}
#undef SPLNN_BF16_TERM

/* The same layer with int8 weights (nn_kernels.h, splnn_pack8: every output column its own
 * scale) on inputs x >= 0, quantized to 0..127 against their maximum a:
 * q = (int)(x * (127 / a) + 0.5), clamped to 0..127 first. Each output's sum of q times the weights is an
 * integer below 2^24 in magnitude (at most SPLNN_Q8_MAX inputs, each term below 2^14), so it is
 * exact whatever the order of its additions, and every copy gives the same bits while adding as
 * its instructions like: the AVX-512 and AVX-VNNI copies four products an instruction (VNNI), the AVX2 copy
 * with a pair of multiply-adds (a product of 0..127 and -127..127 twice fits sixteen bits, so
 * nothing saturates), the baseline as floats (splnn_pack8f: the float layer above, exact on
 * integers this small). The output is ((float)sum * scale[j]) * (a / 127) + bias[j]. Groups of
 * four zero inputs are skipped, as the float layer skips zeros. */
SPLNN_TARGET
static void SPLNN_NAME(splnn_layer8_)(const float* restrict x, int n_in, const void* restrict w,
                                      const float* restrict scale, const float* restrict bias,
                                      int n_out, float* restrict out, int relu)
{
    float a = 0.0f, inv, deq;
    int i = 0, j;
#if SPLNN_Q8 > 0
    uint8_t q[SPLNN_Q8_MAX];
    int gidx[SPLNN_Q8_MAX / 4];
    int32_t acc[SPLNN_Q8_MAX];
    const int8_t* restrict w8 = (const int8_t*)w;
    const size_t stride = (size_t)SPLNN_Q8_STRIDE(n_out);
    const int ng = (n_in + 3) / 4;
    int g = 0, m = 0;
    if (n_in >= 8) {
        __m256 mv = _mm256_setzero_ps();
        float lanes[8];
        for (; i + 8 <= n_in; i += 8)
            mv = _mm256_max_ps(_mm256_loadu_ps(x + i), mv);  /* x > m ? x : m, lane by lane */
        _mm256_storeu_ps(lanes, mv);
        for (j = 0; j < 8; j++)
            a = lanes[j] > a ? lanes[j] : a;
    }
#else
    float qf[SPLNN_Q8_MAX];
    {
        /* Eight running maxima, as the vector copies keep them (the compiler vectorizes this). */
        float lanes[8] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
        int l;
        for (; i + 8 <= n_in; i += 8)
            for (l = 0; l < 8; l++)
                lanes[l] = x[i + l] > lanes[l] ? x[i + l] : lanes[l];
        for (l = 0; l < 8; l++)
            a = lanes[l] > a ? lanes[l] : a;
    }
#endif
    for (; i < n_in; i++)
        a = x[i] > a ? x[i] : a;
    if (!(a > 0.0f)) {  /* every input is zero (or not a number): the bias alone */
        for (j = 0; j < n_out; j++)
            out[j] = relu && !(bias[j] > 0.0f) ? 0.0f : bias[j];
        return;
    }
    inv = 127.0f / a;
    deq = a / 127.0f;
/* t clamped to 0..127 (not a number: 0), then truncated: what the vector copies do with a max,
 * a min and a conversion. */
#define SPLNN_CLAMP(t) ((t) > 0.0f ? ((t) < 127.0f ? (t) : 127.0f) : 0.0f)
#if SPLNN_Q8 > 0
    i = 0;
    {
        /* 32 inputs (eight groups) at a time: quantized (a truncation clamped to 0..127, as
         * SPLNN_CLAMP), packed to bytes, and the non-zero groups' indices compressed into gidx
         * (a permutation looked up by the mask, as the AVX2 gather). */
        const __m256 vinv = _mm256_set1_ps(inv), half = _mm256_set1_ps(0.5f);
        const __m256i lo = _mm256_setzero_si256();
        const __m256 top = _mm256_set1_ps(127.0f);
        const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        const __m256i shifts = _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21);
        const __m256i seven = _mm256_set1_epi32(7);
        for (; i + 32 <= n_in; i += 32, g += 8) {
            __m256i v[4], packed, perm;
            int k, mask;
            for (k = 0; k < 4; k++) {
                const __m256 t = _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(x + i + 8 * k), vinv), half);
                /* max(t, 0) is 0 where t is not a number, as SPLNN_CLAMP */
                v[k] = _mm256_cvttps_epi32(_mm256_min_ps(_mm256_max_ps(t, _mm256_setzero_ps()), top));
            }
            packed = _mm256_packus_epi16(_mm256_packs_epi32(v[0], v[1]), _mm256_packs_epi32(v[2], v[3]));
            packed = _mm256_permutevar8x32_epi32(packed, order);
            _mm256_storeu_si256((__m256i*)(q + i), packed);
            mask = 0xFF & ~_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(packed, lo)));
            perm = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32((int)splnn_perm8[mask]), shifts), seven);
            _mm256_storeu_si256((__m256i*)(gidx + m), _mm256_add_epi32(_mm256_set1_epi32(g), perm));
            m += __builtin_popcount((unsigned)mask);
        }
    }
    for (; i < n_in; i++) {
        const float t = x[i] * inv + 0.5f;
        q[i] = (uint8_t)(int)SPLNN_CLAMP(t);
    }
    for (; i < ng * 4; i++)
        q[i] = 0;
    for (; g < ng; g++) {
        uint32_t word;
        memcpy(&word, q + 4 * g, sizeof word);
        gidx[m] = g;
        m += word != 0;
    }
    memset(acc, 0, sizeof(int32_t) * (size_t)n_out);
    j = 0;
    {
#if SPLNN_Q8 == 2
#define SPLNN_QB 16
#define SPLNN_DOT(s, b, v) _mm256_dpbusd_epi32(s, b, v)
#elif SPLNN_Q8 == 3
#define SPLNN_QB 8  /* eight sums: without AVX-512 there are sixteen vector registers, too few for sixteen */
#define SPLNN_DOT(s, b, v) _mm256_dpbusd_avx_epi32(s, b, v)
#else
#define SPLNN_QB 8
        const __m256i ones = _mm256_set1_epi16(1);
#define SPLNN_DOT(s, b, v) _mm256_add_epi32(s, _mm256_madd_epi16(_mm256_maddubs_epi16(b, v), ones))
#endif
        /* SPLNN_QB vectors of eight outputs' sums at a time, then one vector at a time. */
        for (; j + 8 * SPLNN_QB <= n_out; j += 8 * SPLNN_QB) {
            __m256i s[SPLNN_QB];
            int v, k;
#pragma GCC unroll 16
            for (v = 0; v < SPLNN_QB; v++)
                s[v] = _mm256_setzero_si256();
            for (k = 0; k < m; k++) {
                uint32_t word;
                const int8_t* r = w8 + (size_t)gidx[k] * stride + 4 * (size_t)j;
                __m256i b;
                memcpy(&word, q + 4 * gidx[k], sizeof word);
                b = _mm256_set1_epi32((int)word);
#pragma GCC unroll 16
                for (v = 0; v < SPLNN_QB; v++)
                    s[v] = SPLNN_DOT(s[v], b, _mm256_loadu_si256((const __m256i*)(r + 32 * v)));
            }
#pragma GCC unroll 16
            for (v = 0; v < SPLNN_QB; v++)
                _mm256_storeu_si256((__m256i*)(acc + j + 8 * v), s[v]);
        }
        for (; j + 8 <= n_out; j += 8) {
            __m256i s = _mm256_setzero_si256();
            int k;
            for (k = 0; k < m; k++) {
                uint32_t word;
                memcpy(&word, q + 4 * gidx[k], sizeof word);
                s = SPLNN_DOT(s, _mm256_set1_epi32((int)word),
                              _mm256_loadu_si256((const __m256i*)(w8 + (size_t)gidx[k] * stride + 4 * (size_t)j)));
            }
            _mm256_storeu_si256((__m256i*)(acc + j), s);
        }
#undef SPLNN_QB
#undef SPLNN_DOT
    }
    {
        /* The last outputs, fewer than eight. */
        const int j0 = j;
        int k;
        for (k = 0; k < m; k++) {
            const uint8_t* qg = q + 4 * gidx[k];
            const int8_t* r = w8 + (size_t)gidx[k] * stride;
            for (j = j0; j < n_out; j++)
                acc[j] += qg[0] * r[4 * j] + qg[1] * r[4 * j + 1] + qg[2] * r[4 * j + 2] + qg[3] * r[4 * j + 3];
        }
    }
    for (j = 0; j < n_out; j++) {
        const float t = ((float)acc[j] * scale[j]) * deq + bias[j];
        out[j] = relu && !(t > 0.0f) ? 0.0f : t;
    }
#else
    for (i = 0; i < n_in; i++) {
        const float t = x[i] * inv + 0.5f;
        qf[i] = (float)(int)SPLNN_CLAMP(t);
    }
    SPLNN_NAME(splnn_layer_)(qf, n_in, (const float*)w, splnn_zeros, n_out, out, 0);
    for (j = 0; j < n_out; j++) {
        const float t = (out[j] * scale[j]) * deq + bias[j];
        out[j] = relu && !(t > 0.0f) ? 0.0f : t;
    }
#endif
#undef SPLNN_CLAMP
}

#if defined(__GNUC__)
/* GCC and Clang: eight lanes as one vector (one AVX register, two SSE ones), four rows at a
 * time so that their additions overlap. */
SPLNN_TARGET
static void SPLNN_NAME(splnn_logits_)(const float* restrict h, int n, const float* restrict wp,
                                      const float* restrict bias, const int* restrict cls,
                                      int n_cls, float* restrict out)
{
    int k = 0, j, q;
    splnn_v8 hv, a, s[4];
    const float* r[4];
    for (; k < n_cls; k += 4) {
        const int rows = n_cls - k < 4 ? n_cls - k : 4;
        for (q = 0; q < 4; q++) {
            r[q] = wp + (size_t)cls[k + (q < rows ? q : 0)] * (size_t)n;
            s[q] = (splnn_v8){0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
        }
        for (j = 0; j + 8 <= n; j += 8) {
            memcpy(&hv, h + j, sizeof hv);
            for (q = 0; q < 4; q++) {
                memcpy(&a, r[q] + j, sizeof a);
                s[q] += a * hv;
            }
        }
        for (q = 0; q < rows; q++) {
            float t[8];
            int i;
            memcpy(t, &s[q], sizeof t);
            for (i = j; i < n; i++)
                t[0] += r[q][i] * h[i];
            out[k + q] = bias[cls[k + q]] + SPLNN_SUM8(t);
        }
    }
}
#else
/* A portable copy of the same sums (lane l of row k in t[l]). */
SPLNN_TARGET
static void SPLNN_NAME(splnn_logits_)(const float* restrict h, int n, const float* restrict wp,
                                      const float* restrict bias, const int* restrict cls,
                                      int n_cls, float* restrict out)
{
    int k, j, l;
    for (k = 0; k < n_cls; k++) {
        const float* row = wp + (size_t)cls[k] * (size_t)n;
        float t[8] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
        for (j = 0; j + 8 <= n; j += 8)
            for (l = 0; l < 8; l++)
                t[l] += row[j + l] * h[j + l];
        for (; j < n; j++)
            t[0] += row[j] * h[j];
        out[k] = bias[cls[k]] + SPLNN_SUM8(t);
    }
}
#endif

#undef SPLNN_LAYER_BODY
#undef SPLNN_NAME
#undef SPLNN_CAT
#undef SPLNN_CAT2
