/* The network's dense layer (ext/nn.pxd), in C so that it can be compiled twice: once for
 * the baseline x86-64 instruction set and once for AVX2, the copy chosen once at load time
 * by the CPU it runs on (GCC/Clang target_clones, an ELF ifunc on glibc). The loop has no
 * reduction and the AVX2 copy has no FMA, so both copies round every sum the same way and a
 * seeded search gives the same result on every x86-64 machine. Elsewhere there is one
 * portable copy. */
#ifndef SPLENDOR_AI_NN_KERNELS_H
#define SPLENDOR_AI_NN_KERNELS_H

#include <stddef.h>
#include <stdlib.h>  /* defines __GLIBC__ where the C library is glibc */

#ifndef __has_attribute
#define __has_attribute(x) 0
#endif

#if defined(__x86_64__) && defined(__GLIBC__) && __has_attribute(target_clones)
#define SPLNN_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SPLNN_CLONES
#endif

/* out[j] = bias[j] + sum over i of x[i] * w[i][j]; w is [n_in][n_out], row-major. Zero
 * inputs (sparse features, ReLU zeros) are skipped. With relu, negative outputs become 0
 * (written as a select, which vectorises, where a conditional store would not). */
SPLNN_CLONES
static void splnn_layer(const float* x, int n_in, const float* restrict w,
                        const float* restrict bias, int n_out, float* restrict out, int relu)
{
    int i, j;
    for (j = 0; j < n_out; j++)
        out[j] = bias[j];
    for (i = 0; i < n_in; i++) {
        const float v = x[i];
        if (v != 0.0f) {
            const float* row = w + (size_t)i * (size_t)n_out;
            for (j = 0; j < n_out; j++)
                out[j] += v * row[j];
        }
    }
    if (relu)
        for (j = 0; j < n_out; j++)
            out[j] = out[j] > 0.0f ? out[j] : 0.0f;
}

#endif
