/* A copy of kernels/08-scan/lookback.cl for timing it in parts (README.md
 * beside this file says how). The course's kernel is the reference: keep this
 * copy's full kernel (ANATOMY 4) the same as it, line for line, outside the
 * #if ANATOMY blocks.
 *
 * ANATOMY 1  the tile's loads and stores only: the tile number, the uint4s
 *            into registers and straight back out (a copy through the tile);
 *         2  + the scan inside the tile, with nothing added from earlier
 *            tiles (the output is wrong; timing only);
 *         3  + the status words published (aggregate, then prefix), without
 *            reading any predecessor;
 *         4  the full kernel (the default), output checked.
 * ANATOMY_GROUP_ID  the tile is get_group_id(0) instead of a number from the
 *            atomic counter (what the counter costs; the wait then relies on
 *            the device starting groups in the order of their ids).
 * Two changes to the full kernel, to measure:
 * ANATOMY_TILE_LOCAL  the tile in local memory instead of registers (each
 *            work-item's QUADS uint4s side by side, one uint4 of padding
 *            after them), so that a work-group needs far fewer registers
 *            and more groups fit on a multiprocessor (-DELEMENTS=32 at most:
 *            the tile must fit in 48 KiB);
 *    ANATOMY_LB_LANE0  work-item 0 publishes the aggregate and does the
 *            whole look-back (LANE_WINDOW predecessors read at once) as
 *            soon as it has the tile's total, before the barrier that
 *            hands the total to the group, which then hands it the prefix
 *            too: no barrier in the look-back. */

#ifndef ANATOMY
#define ANATOMY 4
#endif
#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#ifndef ELEMENTS
#define ELEMENTS 64              /* per work-item: a multiple of 16 */
#endif
#ifndef WINDOW
#define WINDOW 32                /* predecessors read at once: at most LOCAL_SIZE */
#endif
#define BLOCK (ELEMENTS * LOCAL_SIZE)
#define QUADS (ELEMENTS / 4)     /* uint4s per work-item */
#define PLANES (QUADS / 4)       /* uint4s of totals per work-item */
#define SEGMENT 16               /* work-items' totals per first-level segment */
#define SEGMENTS (LOCAL_SIZE / SEGMENT)
#define SPAD(i) ((i) + (i) / SEGMENT)   /* one uint4 of padding after every SEGMENT */

#if defined(cl_khr_int64_base_atomics) && !defined(STATUS_VOLATILE)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define STATUS_STORE(p, v) atom_xchg((p), (v))
#define STATUS_LOAD(p) atom_add((p), 0UL)
#else
#define STATUS_STORE(p, v) (*(p) = (v))
#define STATUS_LOAD(p) (*(p))
#endif

#ifdef ANATOMY_LB_LANE0
#ifndef LANE_WINDOW
#define LANE_WINDOW 8
#endif
/* The look-back by one work-item: publishes the aggregate, reads
 * LANE_WINDOW predecessors at once until it meets a prefix, publishes the
 * prefix; returns the sum of every tile before this one. */
uint lane_lookback(volatile __global ulong *status, uint tile, uint total, uint epoch)
{
    const ulong AGGREGATE = (ulong)(2 * epoch + 1) << 32, PREFIX = (ulong)(2 * epoch + 2) << 32;
    const ulong FLAGS = 0xffffffff00000000UL;
    if (tile == 0) {
        STATUS_STORE(&status[0], PREFIX | total);
        return 0;
    }
    STATUS_STORE(&status[tile], AGGREGATE | total);
    uint before = 0;
    int p = (int)tile - 1;
    for (;;) {
        ulong w[LANE_WINDOW];
        for (int k = 0; k < LANE_WINDOW; k++)
            w[k] = p - k >= 0 ? STATUS_LOAD(&status[p - k]) : PREFIX;
        int done = 0, k = 0;
        for (; k < LANE_WINDOW; k++) {
            const ulong flag = w[k] & FLAGS;
            if (flag != AGGREGATE && flag != PREFIX)
                break;
            before += (uint)w[k];
            if (flag == PREFIX) {
                done = 1;
                break;
            }
        }
        if (done)
            break;
        p -= k;
    }
    STATUS_STORE(&status[tile], PREFIX | (before + total));
    return before;
}
#endif

/* The host asks this kernel for the tile size. */
__kernel void block_size(__global uint *size)
{
    size[0] = BLOCK;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_lookback(__global const uint *in, __global uint *out, volatile __global ulong *status,
                   volatile __global uint *counter, uint n, uint epoch)
{
    /* plane k, entry SPAD(t): the totals of work-item t's uint4s 4k .. 4k+3 */
    __local uint4 sums[PLANES][SPAD(LOCAL_SIZE)];
    __local uint4 partial[PLANES][SEGMENTS];
    __local uint4 offset[PLANES];
    __local ulong window[2][WINDOW];
#ifdef ANATOMY_LB_LANE0
    __local uint shared[3];
#else
    __local uint shared[2];
#endif
    const uint lid = get_local_id(0);
    const uint tiles = (n + BLOCK - 1) / BLOCK;
    const ulong AGGREGATE = (ulong)(2 * epoch + 1) << 32, PREFIX = (ulong)(2 * epoch + 2) << 32;
    const ulong FLAGS = 0xffffffff00000000UL;

#ifdef ANATOMY_GROUP_ID
    if (lid == 0)
        shared[0] = get_group_id(0);
#else
    if (lid == 0) {
        const uint t = atomic_inc(counter);
        if (t == tiles - 1)
            atomic_xchg(counter, 0);    /* the last tile: every group has its number; ready for the next launch */
        shared[0] = t;
    }
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint tile = shared[0];
    const uint base = tile * BLOCK;
    const int full = base + BLOCK <= n;

    /* uint4 j of the work-item is uint4 lid + j * LOCAL_SIZE of the tile:
     * every load is coalesced, and stays in registers */
#ifdef ANATOMY_TILE_LOCAL
    __local uint4 tile_data[LOCAL_SIZE * (QUADS + 1)];
    __local uint4 *v = tile_data + lid * (QUADS + 1);
#else
    uint4 v[QUADS];
#endif
    for (uint j = 0; j < QUADS; j++) {
        const uint i = base + 4 * (lid + j * LOCAL_SIZE);
        if (full || i + 4 <= n)
            v[j] = *(__global const uint4 *)(in + i);
        else
            v[j] = (uint4)(i < n ? in[i] : 0, i + 1 < n ? in[i + 1] : 0, i + 2 < n ? in[i + 2] : 0, 0);
    }
#if ANATOMY == 1
    for (uint j = 0; j < QUADS; j++) {
        const uint i = base + 4 * (lid + j * LOCAL_SIZE);
        if (full || i + 4 <= n)
            *(__global uint4 *)(out + i) = v[j];
    }
    return;
#endif
    /* each uint4 scanned on its own (exclusive), its total kept */
    uint total_of[QUADS];
    for (uint j = 0; j < QUADS; j++) {
        const uint4 x = v[j];
        v[j] = (uint4)(0, x.s0, x.s0 + x.s1, x.s0 + x.s1 + x.s2);
        total_of[j] = v[j].s3 + x.s3;
    }
    for (uint k = 0; k < PLANES; k++)
        sums[k][SPAD(lid)] = (uint4)(total_of[4 * k], total_of[4 * k + 1], total_of[4 * k + 2], total_of[4 * k + 3]);
    barrier(CLK_LOCAL_MEM_FENCE);

    /* QUADS scans across the work-items at once, one per lane of the planes:
     * segments of SEGMENT work-items first ... */
    if (lid < SEGMENTS) {
        for (uint k = 0; k < PLANES; k++) {
            uint4 run = (uint4)(0);
            for (uint m = 0; m < SEGMENT; m++) {
                const uint idx = SPAD(lid * SEGMENT + m);
                const uint4 x = sums[k][idx];
                sums[k][idx] = run;
                run += x;
            }
            partial[k][lid] = run;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* ... then the segments' totals, and the uint4 columns one after another
     * (column j of the tile, every work-item's uint4 j, comes after column j - 1) */
    if (lid == 0) {
        uint run = 0;
        for (uint k = 0; k < PLANES; k++) {
            uint4 col = (uint4)(0);
            for (uint m = 0; m < SEGMENTS; m++) {
                const uint4 x = partial[k][m];
                partial[k][m] = col;
                col += x;
            }
            const uint4 before = (uint4)(run, run + col.s0, run + col.s0 + col.s1, run + col.s0 + col.s1 + col.s2);
            offset[k] = before;
            run = before.s3 + col.s3;
        }
        shared[1] = run;
#if defined(ANATOMY_LB_LANE0) && ANATOMY == 4
        shared[2] = lane_lookback(status, tile, run, epoch);
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint total = shared[1];
    uint prefix_of[QUADS];
    for (uint k = 0; k < PLANES; k++) {
        const uint4 p = offset[k] + partial[k][lid / SEGMENT] + sums[k][SPAD(lid)];
        prefix_of[4 * k] = p.s0;
        prefix_of[4 * k + 1] = p.s1;
        prefix_of[4 * k + 2] = p.s2;
        prefix_of[4 * k + 3] = p.s3;
    }

    /* the look-back: every work-item takes the same decisions from window[] */
    uint before = 0;
#if defined(ANATOMY_LB_LANE0) && ANATOMY == 4
    before = shared[2];
#elif ANATOMY == 3
    if (lid == 0) {
        STATUS_STORE(&status[tile], AGGREGATE | total);
        STATUS_STORE(&status[tile], PREFIX | total);
    }
#elif ANATOMY == 4
    if (tile == 0) {
        if (lid == 0)
            STATUS_STORE(&status[0], PREFIX | total);
    } else {
        if (lid == 0)
            STATUS_STORE(&status[tile], AGGREGATE | total);
        int p = (int)tile - 1;          /* the newest predecessor not yet added */
        for (uint round = 0;; round++) {
            __local ulong *w = window[round & 1];
            if (lid < WINDOW)
                w[lid] = p - (int)lid >= 0 ? STATUS_LOAD(&status[p - (int)lid]) : PREFIX;
            barrier(CLK_LOCAL_MEM_FENCE);
            int done = 0, k = 0;
            for (; k < WINDOW; k++) {
                const ulong s = w[k];
                const ulong flag = s & FLAGS;
                if (flag != AGGREGATE && flag != PREFIX)
                    break;              /* not published yet in this launch: read it again */
                before += (uint)s;
                if (flag == PREFIX) {
                    done = 1;
                    break;
                }
            }
            if (done)
                break;
            p -= k;                     /* tile 0 always has a prefix: p stays >= 0 */
        }
        if (lid == 0)
            STATUS_STORE(&status[tile], PREFIX | (before + total));
    }
#endif

    /* straight from registers to global memory, coalesced */
    for (uint j = 0; j < QUADS; j++) {
        const uint i = base + 4 * (lid + j * LOCAL_SIZE);
        const uint4 x = v[j] + (before + prefix_of[j]);
        if (full || i + 4 <= n) {
            *(__global uint4 *)(out + i) = x;
        } else {
            if (i < n) out[i] = x.s0;
            if (i + 1 < n) out[i + 1] = x.s1;
            if (i + 2 < n) out[i + 2] = x.s2;
        }
    }
}
