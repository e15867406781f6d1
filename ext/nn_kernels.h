/* The network's dense layer and its policy logits (ext/nn.pxd), in C so that they can be
 * compiled twice: once for the baseline x86-64 instruction set and once for AVX2, the copy
 * chosen once at load time by the CPU it runs on (GCC/Clang target_clones, an ELF ifunc on
 * glibc). The dense layer has no reduction, the logits' reductions have a fixed order, and
 * the AVX2 copy has no FMA, so both copies round every sum the same way and a seeded search
 * gives the same result on every x86-64 machine. Elsewhere there is one portable copy. */
#ifndef SPLENDOR_AI_NN_KERNELS_H
#define SPLENDOR_AI_NN_KERNELS_H

#include <stddef.h>
#include <stdlib.h>  /* defines __GLIBC__ where the C library is glibc */
#include <string.h>

#ifndef __has_attribute
#define __has_attribute(x) 0
#endif

#if defined(__x86_64__) && defined(__GLIBC__) && __has_attribute(target_clones)
#define SPLNN_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SPLNN_CLONES
#endif

/* out[j] = bias[j] + sum over i of x[i] * w[i][j], the terms added in the order of i; w is
 * [n_in][n_out], row-major. Zero inputs (sparse features, ReLU zeros) are skipped: the
 * non-zero ones are gathered first, then added eight rows per pass over out, so that out is
 * read and written once per eight rows instead of once per row (the order of the additions,
 * and so the result, is the same). With relu, negative outputs become 0 (written as a
 * select, which vectorises, where a conditional store would not). */
#define SPLNN_CHUNK 64
SPLNN_CLONES
static void splnn_layer(const float* x, int n_in, const float* restrict w,
                        const float* restrict bias, int n_out, float* restrict out, int relu)
{
    size_t rows[SPLNN_CHUNK];   /* offsets into w: pointers built from w keep its restrict */
    float vals[SPLNN_CHUNK];
    int i = 0, j, k, m;
    for (j = 0; j < n_out; j++)
        out[j] = bias[j];
    while (i < n_in) {
        for (m = 0; m < SPLNN_CHUNK && i < n_in; i++)
            if (x[i] != 0.0f) {
                rows[m] = (size_t)i * (size_t)n_out;
                vals[m++] = x[i];
            }
        for (k = 0; k + 8 <= m; k += 8) {
            const float *r0 = w + rows[k], *r1 = w + rows[k + 1], *r2 = w + rows[k + 2];
            const float *r3 = w + rows[k + 3], *r4 = w + rows[k + 4], *r5 = w + rows[k + 5];
            const float *r6 = w + rows[k + 6], *r7 = w + rows[k + 7];
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
            const float* r = w + rows[k];
            const float v = vals[k];
            for (j = 0; j < n_out; j++)
                out[j] += v * r[j];
        }
    }
    if (relu)
        for (j = 0; j < n_out; j++)
            out[j] = out[j] > 0.0f ? out[j] : 0.0f;
}

/* A row's dot product with h is eight partial sums (lane l adds the products at positions
 * l, l + 8, l + 16, ...; the last n % 8 go to lane 0), added up in this fixed order. */
#define SPLNN_SUM8(s) (((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7])))

#if defined(__GNUC__)
/* GCC and Clang: eight lanes as one vector (one AVX register, two SSE ones), four rows at a
 * time so that their additions overlap. */
typedef float splnn_v8 __attribute__((vector_size(32)));
#define SPLNN_LOAD8(v, p) memcpy(&(v), (p), sizeof(splnn_v8))

SPLNN_CLONES
static void splnn_logits(const float* restrict h, int n, const float* restrict wp,
                         const float* restrict bias, const int* restrict cls, int n_cls,
                         float* restrict out)
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
            SPLNN_LOAD8(hv, h + j);
            for (q = 0; q < 4; q++) {
                SPLNN_LOAD8(a, r[q] + j);
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
SPLNN_CLONES
static void splnn_logits(const float* restrict h, int n, const float* restrict wp,
                         const float* restrict bias, const int* restrict cls, int n_cls,
                         float* restrict out)
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

#endif
