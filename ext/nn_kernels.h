/* The network's dense layer (float32, bfloat16 and int8 weights) and its policy logits
 * (ext/nn.pxd), in C so that they can be compiled more than once: on x86-64 with GCC or Clang,
 * a copy for AVX-512 (with VNNI), one for AVX2 with AVX-VNNI, one for AVX2 and one for the
 * baseline instruction set (the body is ext/nn_kernel_body.h, included once per copy). A Net
 * holds the pointers of the copy it runs (ext/nn.pyx picks the widest the CPU
 * has, or the one SPLENDOR_AI_NN_KERNEL names), so the search calls it through the Net.
 *
 * The dense layer has no reduction (each output is its own sum, added in input order), the
 * logits' reductions have a fixed order (eight lanes), and the build turns off the contraction
 * of a multiply and an add into one fused multiply-add (-ffp-contract=off in setup.py; the
 * AVX-512 instruction set has FMA), so every copy rounds every sum the same way and a seeded
 * search gives the same result on every x86-64 machine. The int8 layer's sums are integers,
 * exact in any order. Elsewhere there is one portable copy. */
#ifndef SPLENDOR_AI_NN_KERNELS_H
#define SPLENDOR_AI_NN_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>  /* defines __GLIBC__ where the C library is glibc */
#include <string.h>
#include <math.h>

#define SPLNN_CHUNK 128

/* A bfloat16 (the top half of a float32) as the float it stands for: exact. */
static inline float splnn_bf16(uint16_t b)
{
    const uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The bfloat16 nearest to f (ties to even; a NaN stays a NaN). */
static inline uint16_t splnn_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u)
        return (uint16_t)((u >> 16) | 0x40u);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

/* A row's dot product with h is eight partial sums (lane l adds the products at positions
 * l, l + 8, l + 16, ...; the last n % 8 go to lane 0), added up in this fixed order. */
#define SPLNN_SUM8(s) (((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7])))

#if defined(__GNUC__)
typedef float splnn_v8 __attribute__((vector_size(32)));
typedef uint32_t splnn_u8 __attribute__((vector_size(32)));
#endif

/* Words in a row of a bfloat16 layer of n_out outputs (ext/nn_kernel_body.h): two weights a
 * word, the row padded to a multiple of sixteen outputs. */
#define SPLNN_ROW16(n_out) ((((n_out) + 15) / 16) * 8)

/* Packs a float32 layer w[n_in][n_out] into its bfloat16 words: n_in + 1 rows of
 * SPLNN_ROW16(n_out) words, the last zeros. */
static inline void splnn_pack16(const float* w, int n_in, int n_out, uint32_t* out)
{
    const int row = SPLNN_ROW16(n_out);
    int i, j;
    memset(out, 0, sizeof(uint32_t) * (size_t)row * (size_t)(n_in + 1));
    for (i = 0; i < n_in; i++)
        for (j = 0; j < n_out; j++) {
            const uint32_t b = splnn_to_bf16(w[(size_t)i * n_out + j]);
            out[(size_t)i * row + (j >> 4) * 8 + (j & 7)] |= (j & 8) ? b << 16 : b;
        }
}

/* The int8 layers (ext/nn_kernel_body.h) have at most SPLNN_Q8_MAX inputs and outputs. The
 * vector copies read a layer as groups of four inputs, SPLNN_Q8_STRIDE(n_out) bytes a group:
 * each output's four weights in a 32-bit word, the outputs padded to a multiple of eight. */
#define SPLNN_Q8_MAX 1024
#define SPLNN_Q8_STRIDE(n_out) ((((n_out) + 7) / 8) * 32)
static const float splnn_zeros[SPLNN_Q8_MAX] = {0.0f};

/* Output j's scale (max |w[.][j]| / 127, 1 where they are all zero) and the weight w[i][j] as
 * an integer of -127..127: w / scale rounded to the nearest (ties to even). */
static inline float splnn_scale8(const float* w, int n_in, int n_out, int j)
{
    float m = 0.0f;
    int i;
    for (i = 0; i < n_in; i++) {
        const float v = fabsf(w[(size_t)i * n_out + j]);
        m = v > m ? v : m;
    }
    return m > 0.0f ? m / 127.0f : 1.0f;
}

static inline int splnn_int8(float w, float scale)
{
    const float r = w / scale;
    return (int)lrintf(r > 127.0f ? 127.0f : (r < -127.0f ? -127.0f : r));
}

/* Packs a float32 layer w[n_in][n_out] into int8 words for the vector copies (the layout
 * above, (n_in + 3) / 4 groups) and its scales into scale[n_out]. */
static inline void splnn_pack8(const float* w, int n_in, int n_out, int8_t* out, float* scale)
{
    const size_t stride = (size_t)SPLNN_Q8_STRIDE(n_out);
    int i, j;
    memset(out, 0, stride * (size_t)((n_in + 3) / 4));
    for (j = 0; j < n_out; j++) {
        scale[j] = splnn_scale8(w, n_in, n_out, j);
        for (i = 0; i < n_in; i++)
            out[(size_t)(i / 4) * stride + 4 * (size_t)j + (size_t)(i % 4)] =
                (int8_t)splnn_int8(w[(size_t)i * n_out + j], scale[j]);
    }
}

/* The same integers as floats, [n_in][n_out] like a float layer, for the baseline copy. */
static inline void splnn_pack8f(const float* w, int n_in, int n_out, float* out, float* scale)
{
    int i, j;
    for (j = 0; j < n_out; j++) {
        scale[j] = splnn_scale8(w, n_in, n_out, j);
        for (i = 0; i < n_in; i++)
            out[(size_t)i * n_out + j] = (float)splnn_int8(w[(size_t)i * n_out + j], scale[j]);
    }
}

typedef void (*splnn_layer_fn)(const float* x, int n_in, const float* w, const float* bias,
                               int n_out, float* out, int relu);
typedef void (*splnn_layer16_fn)(const float* x, int n_in, const uint32_t* w, const float* bias,
                                 int n_out, float* out, int relu);
typedef void (*splnn_layer8_fn)(const float* x, int n_in, const void* w, const float* scale,
                                const float* bias, int n_out, float* out, int relu);
typedef void (*splnn_logits_fn)(const float* h, int n, const float* wp, const float* bias,
                                const int* cls, int n_cls, float* out);

#if defined(__x86_64__) && defined(__GNUC__) && !defined(SPLNN_PORTABLE)  /* -DSPLNN_PORTABLE: the portable copy alone */
#include <immintrin.h>
#include <cpuid.h>
#define SPLNN_X86 1
/* The AVX2 gather's permutations: entry k packs, three bits a lane, the lanes set in the
 * 8-bit mask k in increasing order (then zeros). */
static const uint32_t splnn_perm8[256] = {
    0x000000, 0x000000, 0x000001, 0x000008, 0x000002, 0x000010, 0x000011, 0x000088,
    0x000003, 0x000018, 0x000019, 0x0000c8, 0x00001a, 0x0000d0, 0x0000d1, 0x000688,
    0x000004, 0x000020, 0x000021, 0x000108, 0x000022, 0x000110, 0x000111, 0x000888,
    0x000023, 0x000118, 0x000119, 0x0008c8, 0x00011a, 0x0008d0, 0x0008d1, 0x004688,
    0x000005, 0x000028, 0x000029, 0x000148, 0x00002a, 0x000150, 0x000151, 0x000a88,
    0x00002b, 0x000158, 0x000159, 0x000ac8, 0x00015a, 0x000ad0, 0x000ad1, 0x005688,
    0x00002c, 0x000160, 0x000161, 0x000b08, 0x000162, 0x000b10, 0x000b11, 0x005888,
    0x000163, 0x000b18, 0x000b19, 0x0058c8, 0x000b1a, 0x0058d0, 0x0058d1, 0x02c688,
    0x000006, 0x000030, 0x000031, 0x000188, 0x000032, 0x000190, 0x000191, 0x000c88,
    0x000033, 0x000198, 0x000199, 0x000cc8, 0x00019a, 0x000cd0, 0x000cd1, 0x006688,
    0x000034, 0x0001a0, 0x0001a1, 0x000d08, 0x0001a2, 0x000d10, 0x000d11, 0x006888,
    0x0001a3, 0x000d18, 0x000d19, 0x0068c8, 0x000d1a, 0x0068d0, 0x0068d1, 0x034688,
    0x000035, 0x0001a8, 0x0001a9, 0x000d48, 0x0001aa, 0x000d50, 0x000d51, 0x006a88,
    0x0001ab, 0x000d58, 0x000d59, 0x006ac8, 0x000d5a, 0x006ad0, 0x006ad1, 0x035688,
    0x0001ac, 0x000d60, 0x000d61, 0x006b08, 0x000d62, 0x006b10, 0x006b11, 0x035888,
    0x000d63, 0x006b18, 0x006b19, 0x0358c8, 0x006b1a, 0x0358d0, 0x0358d1, 0x1ac688,
    0x000007, 0x000038, 0x000039, 0x0001c8, 0x00003a, 0x0001d0, 0x0001d1, 0x000e88,
    0x00003b, 0x0001d8, 0x0001d9, 0x000ec8, 0x0001da, 0x000ed0, 0x000ed1, 0x007688,
    0x00003c, 0x0001e0, 0x0001e1, 0x000f08, 0x0001e2, 0x000f10, 0x000f11, 0x007888,
    0x0001e3, 0x000f18, 0x000f19, 0x0078c8, 0x000f1a, 0x0078d0, 0x0078d1, 0x03c688,
    0x00003d, 0x0001e8, 0x0001e9, 0x000f48, 0x0001ea, 0x000f50, 0x000f51, 0x007a88,
    0x0001eb, 0x000f58, 0x000f59, 0x007ac8, 0x000f5a, 0x007ad0, 0x007ad1, 0x03d688,
    0x0001ec, 0x000f60, 0x000f61, 0x007b08, 0x000f62, 0x007b10, 0x007b11, 0x03d888,
    0x000f63, 0x007b18, 0x007b19, 0x03d8c8, 0x007b1a, 0x03d8d0, 0x03d8d1, 0x1ec688,
    0x00003e, 0x0001f0, 0x0001f1, 0x000f88, 0x0001f2, 0x000f90, 0x000f91, 0x007c88,
    0x0001f3, 0x000f98, 0x000f99, 0x007cc8, 0x000f9a, 0x007cd0, 0x007cd1, 0x03e688,
    0x0001f4, 0x000fa0, 0x000fa1, 0x007d08, 0x000fa2, 0x007d10, 0x007d11, 0x03e888,
    0x000fa3, 0x007d18, 0x007d19, 0x03e8c8, 0x007d1a, 0x03e8d0, 0x03e8d1, 0x1f4688,
    0x0001f5, 0x000fa8, 0x000fa9, 0x007d48, 0x000faa, 0x007d50, 0x007d51, 0x03ea88,
    0x000fab, 0x007d58, 0x007d59, 0x03eac8, 0x007d5a, 0x03ead0, 0x03ead1, 0x1f5688,
    0x000fac, 0x007d60, 0x007d61, 0x03eb08, 0x007d62, 0x03eb10, 0x03eb11, 0x1f5888,
    0x007d63, 0x03eb18, 0x03eb19, 0x1f58c8, 0x03eb1a, 0x1f58d0, 0x1f58d1, 0xfac688,
};
/* The AVX-512 copy gathers sixteen inputs at a time (a compress) but keeps its sums in 256-bit
 * vectors: on the AMD Zen 4 it was measured on, 512-bit ones made the net search slower (and on
 * an Intel Xeon with AMX, Sapphire Rapids or later, no faster: session 38). Its int8 layer uses
 * VNNI's vpdpbusd. */
#define SPLNN_SFX _avx512
#define SPLNN_TARGET __attribute__((target("avx512f,avx512vl,avx512vnni,popcnt,prefer-vector-width=256")))
#define SPLNN_GATHER 2
#define SPLNN_Q8 2
#include "nn_kernel_body.h"
#undef SPLNN_SFX
#undef SPLNN_TARGET
#undef SPLNN_GATHER
#undef SPLNN_Q8
/* The AVX2 copy with AVX-VNNI (the VEX form of vpdpbusd, on CPUs without AVX-512 such as Intel's
 * Alder Lake and later client cores and Sierra Forest): its int8 layer adds four products an
 * instruction, as the AVX-512 copy does; everything else is the AVX2 copy's code. */
#define SPLNN_SFX _avxvnni
#define SPLNN_TARGET __attribute__((target("avx2,avxvnni,popcnt")))
#define SPLNN_GATHER 1
#define SPLNN_Q8 3
#include "nn_kernel_body.h"
#undef SPLNN_SFX
#undef SPLNN_TARGET
#undef SPLNN_GATHER
#undef SPLNN_Q8
#define SPLNN_SFX _avx2
#define SPLNN_TARGET __attribute__((target("avx2,popcnt")))
#define SPLNN_GATHER 1
#define SPLNN_Q8 1
#include "nn_kernel_body.h"
#undef SPLNN_SFX
#undef SPLNN_TARGET
#undef SPLNN_GATHER
#undef SPLNN_Q8
#else
#define SPLNN_X86 0
#endif
#define SPLNN_SFX _baseline
#define SPLNN_TARGET
#define SPLNN_GATHER 0
#define SPLNN_Q8 0
#include "nn_kernel_body.h"
#undef SPLNN_SFX
#undef SPLNN_TARGET
#undef SPLNN_GATHER
#undef SPLNN_Q8

/* The machine copies, widest first: index, name, whether this CPU runs it, its functions. */
#define SPLNN_N_KERNELS (SPLNN_X86 ? 4 : 1)

static inline const char* splnn_kernel_name(int i)
{
    (void)i;
#if SPLNN_X86
    if (i == 0) return "avx512";
    if (i == 1) return "avxvnni";
    if (i == 2) return "avx2";
#endif
    return "baseline";
}

#if SPLNN_X86
/* AVX-VNNI: CPUID leaf 7, sub-leaf 1, EAX bit 4. GCC 12's __builtin_cpu_supports("avxvnni")
 * answers 0 even where /proc/cpuinfo lists avx_vnni, so the bit is read here; the OS's saving of
 * the 256-bit registers is what __builtin_cpu_supports("avx2") already checks. */
static inline int splnn_cpu_avxvnni(void)
{
    unsigned int a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid_max(0, 0) < 7 || !__get_cpuid_count(7, 1, &a, &b, &c, &d))
        return 0;
    return (a >> 4) & 1u;
}
#endif

static inline int splnn_kernel_supported(int i)
{
#if SPLNN_X86
    __builtin_cpu_init();
    if (i == 0)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")
            && __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("popcnt");
    if (i == 1)
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt") && splnn_cpu_avxvnni();
    if (i == 2) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
#endif
    return i == SPLNN_N_KERNELS - 1;
}

/* Whether kernel i reads its int8 layers as floats (splnn_pack8f) rather than bytes. */
static inline int splnn_kernel_q8_float(int i)
{
    return i == SPLNN_N_KERNELS - 1;
}

/* Fills the four pointers with kernel i's functions; 0 if i is not a kernel. */
static inline int splnn_kernel(int i, splnn_layer_fn* layer, splnn_layer16_fn* layer16,
                               splnn_layer8_fn* layer8, splnn_logits_fn* logits)
{
#if SPLNN_X86
    if (i == 0) {
        *layer = splnn_layer__avx512; *layer16 = splnn_layer16__avx512; *layer8 = splnn_layer8__avx512; *logits = splnn_logits__avx512;
        return 1;
    }
    if (i == 1) {
        *layer = splnn_layer__avxvnni; *layer16 = splnn_layer16__avxvnni; *layer8 = splnn_layer8__avxvnni;
        *logits = splnn_logits__avxvnni;
        return 1;
    }
    if (i == 2) {
        *layer = splnn_layer__avx2; *layer16 = splnn_layer16__avx2; *layer8 = splnn_layer8__avx2; *logits = splnn_logits__avx2;
        return 1;
    }
#endif
    if (i == SPLNN_N_KERNELS - 1) {
        *layer = splnn_layer__baseline; *layer16 = splnn_layer16__baseline; *layer8 = splnn_layer8__baseline;
        *logits = splnn_logits__baseline;
        return 1;
    }
    return 0;
}

#endif
