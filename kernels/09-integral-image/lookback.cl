/* Beyond chapter 9: the integral image in two passes and no transpose.
 *   row_scan_bytes  inclusive scan of every row of the uint8 image -> uint
 *                   (1 + 4 bytes a pixel)
 *   column_scan     inclusive scan of every column of that, in the image's
 *                   own layout, in one pass with chapter 8's decoupled
 *                   look-back (4 + 4 bytes a pixel)
 * 13 bytes a pixel instead of the 29 of scan, transpose, scan, transpose.
 *
 * column_scan cuts the image into tiles of COLUMNS columns x TILE_H rows.
 * Work-item lid owns 4 neighbouring columns of its tile: it reads them row by
 * row (a warp reads 512 contiguous bytes of a row: coalesced), keeps the
 * TILE_H rows in registers and sums down the columns. Its columns' totals are
 * the tile's aggregates; what it must add is each column's sum over every
 * tile above, which it finds by looking back up its columns at the tiles
 * above, one status word per column, exactly as chapter 8's scan looks back
 * along the tiles of a row. The columns are independent: every work-item
 * walks back on its own, with no barrier.
 *
 * Tiles are numbered in the order work-groups start (an atomic counter), row
 * of tiles after row of tiles, so every tile a group waits on belongs to a
 * group that is already running. A status word is 64 bits, flag (with the
 * launch number) in the high half and value in the low half, read and
 * written as one 64-bit atomic (cl_khr_int64_base_atomics): the hand-over
 * between work-groups is then defined by OpenCL, and the race check passes.
 *
 * Measured on an H200 at 8192 x 8192 (both passes; 2026-11-27,
 * docs/results/beyond-ch9-status-words-nvidia-h200.jsonl): 0.50 ms with
 * atomic status words in tiles of 32 rows, 0.52 ms with 24 and 0.58 ms with
 * 16 (a tile writes 2 x 1024 status words: taller tiles write fewer).
 * With -DSTATUS_VOLATILE the status words are plain volatile 64-bit loads and
 * stores, in tiles of 16 rows: 0.38 ms, but OpenCL 1.2 does not define that
 * hand-over between work-groups, and the race check reports it. */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#ifndef TILE_H
#ifdef STATUS_VOLATILE
#define TILE_H 16                /* rows of a column_scan tile */
#else
#define TILE_H 32
#endif
#endif
#define COLUMNS (4 * LOCAL_SIZE) /* columns of a column_scan tile */
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
    const uint x = tx * COLUMNS + 4 * lid, y0 = ty * TILE_H;
    const int vec = width % 4 == 0 && x + 4 <= width;

    /* the tile's rows, summed down the columns as they come */
    uint4 v[TILE_H];
    uint4 sum = (uint4)(0);
    for (uint r = 0; r < TILE_H; r++) {
        const size_t i = (size_t)(y0 + r) * width + x;
        uint4 a = (uint4)(0);
        if (y0 + r < height) {
            if (vec)
                a = *(__global const uint4 *)(in + i);
            else
                a = (uint4)(x < width ? in[i] : 0, x + 1 < width ? in[i + 1] : 0,
                            x + 2 < width ? in[i + 2] : 0, x + 3 < width ? in[i + 3] : 0);
        }
        sum += a;
        v[r] = sum;
    }

    /* the look-back up this work-item's four columns */
    volatile __global ulong *mine = status + (size_t)tile * COLUMNS + 4 * lid;
    uint4 above = (uint4)(0);
    if (ty == 0) {
        STATUS_STORE(&mine[0], PREFIX | sum.s0); STATUS_STORE(&mine[1], PREFIX | sum.s1);
        STATUS_STORE(&mine[2], PREFIX | sum.s2); STATUS_STORE(&mine[3], PREFIX | sum.s3);
    } else {
        STATUS_STORE(&mine[0], AGGREGATE | sum.s0); STATUS_STORE(&mine[1], AGGREGATE | sum.s1);
        STATUS_STORE(&mine[2], AGGREGATE | sum.s2); STATUS_STORE(&mine[3], AGGREGATE | sum.s3);
        /* the four columns walk back side by side: their loads go out together */
        size_t p[4];
        uint before[4];
        int walking = 4;
        for (uint c = 0; c < 4; c++) {
            p[c] = (size_t)tile - tiles_x;      /* the tile above */
            before[c] = 0;
        }
        while (walking > 0) {
            ulong s[4];
            for (uint c = 0; c < 4; c++)
                s[c] = p[c] != (size_t)-1 ? STATUS_LOAD(&status[p[c] * COLUMNS + 4 * lid + c]) : 0;
            for (uint c = 0; c < 4; c++) {
                if (p[c] == (size_t)-1)
                    continue;           /* this column has found its prefix */
                const ulong flag = s[c] & FLAGS;
                if (flag == PREFIX) {
                    before[c] += (uint)s[c];
                    p[c] = (size_t)-1;
                    walking--;
                } else if (flag == AGGREGATE) {
                    before[c] += (uint)s[c];
                    p[c] -= tiles_x;    /* the top row of tiles always has a prefix */
                }
                /* otherwise not published yet in this launch: read it again */
            }
        }
        above = (uint4)(before[0], before[1], before[2], before[3]);
        STATUS_STORE(&mine[0], PREFIX | (above.s0 + sum.s0)); STATUS_STORE(&mine[1], PREFIX | (above.s1 + sum.s1));
        STATUS_STORE(&mine[2], PREFIX | (above.s2 + sum.s2)); STATUS_STORE(&mine[3], PREFIX | (above.s3 + sum.s3));
    }

    for (uint r = 0; r < TILE_H; r++) {
        const size_t i = (size_t)(y0 + r) * width + x;
        const uint4 a = v[r] + above;
        if (y0 + r < height) {
            if (vec) {
                *(__global uint4 *)(out + i) = a;
            } else {
                if (x < width) out[i] = a.s0;
                if (x + 1 < width) out[i + 1] = a.s1;
                if (x + 2 < width) out[i + 2] = a.s2;
                if (x + 3 < width) out[i + 3] = a.s3;
            }
        }
    }
}
