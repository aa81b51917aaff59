/* A ladder rung for chapter 9's beyond kernel (bench/beyond-ladder): the
 * same two passes as kernels/09-integral-image/lookback.cl, whose
 * column_scan gives each work-item four neighbouring columns (uint4 loads)
 * of tiles of 32 rows. Here a work-item owns VEC columns (1 or 2, uint or
 * uint2 loads) of tiles of TILE_H rows, so that a tile can be taller for the
 * same registers (VEC x TILE_H words of the tile per work-item) and write
 * fewer status words a pixel (2 per column and tile: 2 / TILE_H a pixel).
 * Everything else is the shipped file's. Measured on an H200 at 8192 x 8192
 * (docs/results/beyond-ladder-nvidia-h200.txt): every rung slower than the
 * shipped kernel, 566.7 us at best (1 column x 128 rows) against 467.0 us
 * for the shipped kernel. */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#ifndef VEC
#define VEC 2                    /* columns of a column_scan tile per work-item: 1 or 2 */
#endif
#if VEC != 1 && VEC != 2
#error "VEC is 1 or 2 (four columns a work-item: kernels/09-integral-image/lookback.cl)"
#endif
#ifndef TILE_H
#ifdef STATUS_VOLATILE
#define TILE_H 16                /* rows of a column_scan tile */
#else
#define TILE_H 32
#endif
#endif
#define COLUMNS (VEC * LOCAL_SIZE) /* columns of a column_scan tile */
#ifndef ROW_ELEMENTS
#define ROW_ELEMENTS 32          /* row_scan_bytes: pixels per work-item, 16 or 32 */
#endif
#define CHUNK (ROW_ELEMENTS * LOCAL_SIZE)
#define QUADS (ROW_ELEMENTS / 4)
#define SEGMENT 16
#define SEGMENTS (LOCAL_SIZE / SEGMENT)
#define SPAD(i) ((i) + (i) / SEGMENT)
/* uint4 q of a chunk in local memory, swizzled as in chapter 8's lookback.cl */
#define SWIZZLE(q) ((q) ^ (((q) / QUADS) % 8))

#ifndef STATUS_VOLATILE /* 64-bit atomics: cl_khr_int64_base_atomics */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define STATUS_STORE(p, v) atom_xchg((p), (v))
#define STATUS_LOAD(p) atom_add((p), 0UL)
#else
#define STATUS_STORE(p, v) (*(p) = (v))
#define STATUS_LOAD(p) (*(p))
#endif

/* The host asks this kernel for the tile shape of column_scan. */
__kernel void column_tile(__global uint *shape)
{
    shape[0] = COLUMNS;
    shape[1] = TILE_H;
}

/* One work-group per row, CHUNK pixels at a time: work-item lid reads its
 * ROW_ELEMENTS consecutive pixels (two uchar16s), scans them in registers;
 * the work-items' totals are scanned in two levels (two barriers); the
 * chunk goes out through local memory in coalesced uint4s. */
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan_bytes(__global const uchar *in, __global uint *out, uint width, uint height)
{
    __local uint4 block[CHUNK / 4];
    __local uint sums[SPAD(LOCAL_SIZE)];
    __local uint partial[SEGMENTS];
    const uint lid = get_local_id(0);
    const size_t row = get_group_id(0);
    __global const uchar *src = in + row * width;
    __global uint *dst = out + row * width;
    const int aligned = width % 16 == 0;
    (void)height;

    uint carry = 0;
    for (uint start = 0; start < width; start += CHUNK) {
        const uint x0 = start + lid * ROW_ELEMENTS;
        uint4 v[QUADS];
        uint sum = 0;
        for (uint h = 0; h < ROW_ELEMENTS / 16; h++) {
            uint16 b;
            if (aligned && x0 + 16 * h + 16 <= width) {
                b = convert_uint16(((__global const uchar16 *)(src + x0))[h]);
            } else {
                uint t[16];
                for (uint k = 0; k < 16; k++)
                    t[k] = x0 + 16 * h + k < width ? src[x0 + 16 * h + k] : 0;
                b = (uint16)(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7],
                             t[8], t[9], t[10], t[11], t[12], t[13], t[14], t[15]);
            }
            sum += b.s0; v[4 * h].s0 = sum; sum += b.s1; v[4 * h].s1 = sum;
            sum += b.s2; v[4 * h].s2 = sum; sum += b.s3; v[4 * h].s3 = sum;
            sum += b.s4; v[4 * h + 1].s0 = sum; sum += b.s5; v[4 * h + 1].s1 = sum;
            sum += b.s6; v[4 * h + 1].s2 = sum; sum += b.s7; v[4 * h + 1].s3 = sum;
            sum += b.s8; v[4 * h + 2].s0 = sum; sum += b.s9; v[4 * h + 2].s1 = sum;
            sum += b.sa; v[4 * h + 2].s2 = sum; sum += b.sb; v[4 * h + 2].s3 = sum;
            sum += b.sc; v[4 * h + 3].s0 = sum; sum += b.sd; v[4 * h + 3].s1 = sum;
            sum += b.se; v[4 * h + 3].s2 = sum; sum += b.sf; v[4 * h + 3].s3 = sum;
        }
        sums[SPAD(lid)] = sum;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < SEGMENTS) {
            uint run = 0;
            for (uint k = 0; k < SEGMENT; k++) {
                const uint idx = SPAD(lid * SEGMENT + k);
                const uint x = sums[idx];
                sums[idx] = run;
                run += x;
            }
            partial[lid] = run;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        uint prefix = carry + sums[SPAD(lid)];
        for (uint s = 0; s < SEGMENTS; s++) {
            const uint x = partial[s];
            if (s < lid / SEGMENT)
                prefix += x;
            carry += x;
        }
        for (uint j = 0; j < QUADS; j++)
            block[SWIZZLE(lid * QUADS + j)] = v[j] + prefix;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint q = lid; q < CHUNK / 4; q += LOCAL_SIZE) {
            const uint x = start + 4 * q;
            const uint4 y = block[SWIZZLE(q)];
            if (width % 4 == 0 && x + 4 <= width) {
                *(__global uint4 *)(dst + x) = y;
            } else {
                if (x < width) dst[x] = y.s0;
                if (x + 1 < width) dst[x + 1] = y.s1;
                if (x + 2 < width) dst[x + 2] = y.s2;
                if (x + 3 < width) dst[x + 3] = y.s3;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);   /* block, sums and partial are reused by the next chunk */
    }
}

/* in and out are width x height, row-major; out = in summed down the columns. */
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void column_scan(__global const uint *in, __global uint *out, volatile __global ulong *status,
                 volatile __global uint *counter, uint width, uint height, uint epoch)
{
    __local uint shared[1];
    const uint lid = get_local_id(0);
    const uint tiles_x = (width + COLUMNS - 1) / COLUMNS, tiles_y = (height + TILE_H - 1) / TILE_H;
    const ulong AGGREGATE = (ulong)(2 * epoch + 1) << 32, PREFIX = (ulong)(2 * epoch + 2) << 32;
    const ulong FLAGS = 0xffffffff00000000UL;

    if (lid == 0) {
        const uint t = atomic_inc(counter);
        if (t == tiles_x * tiles_y - 1)
            atomic_xchg(counter, 0);    /* the last tile: ready for the next launch */
        shared[0] = t;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint tile = shared[0];
    const uint tx = tile % tiles_x, ty = tile / tiles_x;
    const uint x = tx * COLUMNS + VEC * lid, y0 = ty * TILE_H;
    const int vec = width % VEC == 0 && x + VEC <= width;

    /* the tile's rows, summed down the columns as they come */
    uint v[TILE_H][VEC];
    uint sum[VEC];
    for (uint c = 0; c < VEC; c++)
        sum[c] = 0;
    for (uint r = 0; r < TILE_H; r++) {
        const size_t i = (size_t)(y0 + r) * width + x;
        uint a[VEC];
        for (uint c = 0; c < VEC; c++)
            a[c] = 0;
        if (y0 + r < height) {
            if (vec) {
#if VEC == 2
                const uint2 q = *(__global const uint2 *)(in + i);
                a[0] = q.s0; a[1] = q.s1;
#else
                a[0] = in[i];
#endif
            } else {
                for (uint c = 0; c < VEC; c++)
                    a[c] = x + c < width ? in[i + c] : 0;
            }
        }
        for (uint c = 0; c < VEC; c++) {
            sum[c] += a[c];
            v[r][c] = sum[c];
        }
    }

    /* the look-back up this work-item's VEC columns */
    volatile __global ulong *mine = status + (size_t)tile * COLUMNS + VEC * lid;
    uint above[VEC];
    for (uint c = 0; c < VEC; c++)
        above[c] = 0;
    if (ty == 0) {
        for (uint c = 0; c < VEC; c++)
            STATUS_STORE(&mine[c], PREFIX | sum[c]);
    } else {
        for (uint c = 0; c < VEC; c++)
            STATUS_STORE(&mine[c], AGGREGATE | sum[c]);
        /* the columns walk back side by side: their loads go out together */
        size_t p[VEC];
        int walking = VEC;
        for (uint c = 0; c < VEC; c++)
            p[c] = (size_t)tile - tiles_x;      /* the tile above */
        while (walking > 0) {
            ulong s[VEC];
            for (uint c = 0; c < VEC; c++)
                s[c] = p[c] != (size_t)-1 ? STATUS_LOAD(&status[p[c] * COLUMNS + VEC * lid + c]) : 0;
            for (uint c = 0; c < VEC; c++) {
                if (p[c] == (size_t)-1)
                    continue;           /* this column has found its prefix */
                const ulong flag = s[c] & FLAGS;
                if (flag == PREFIX) {
                    above[c] += (uint)s[c];
                    p[c] = (size_t)-1;
                    walking--;
                } else if (flag == AGGREGATE) {
                    above[c] += (uint)s[c];
                    p[c] -= tiles_x;    /* the top row of tiles always has a prefix */
                }
                /* otherwise not published yet in this launch: read it again */
            }
        }
        for (uint c = 0; c < VEC; c++)
            STATUS_STORE(&mine[c], PREFIX | (above[c] + sum[c]));
    }

    for (uint r = 0; r < TILE_H; r++) {
        const size_t i = (size_t)(y0 + r) * width + x;
        if (y0 + r < height) {
            if (vec) {
#if VEC == 2
                *(__global uint2 *)(out + i) = (uint2)(v[r][0] + above[0], v[r][1] + above[1]);
#else
                out[i] = v[r][0] + above[0];
#endif
            } else {
                for (uint c = 0; c < VEC; c++)
                    if (x + c < width)
                        out[i + c] = v[r][c] + above[c];
            }
        }
    }
}
