/* Beyond chapter 8: a single-pass scan with decoupled look-back (Merrill and
 * Garland, 2016). Each element is read once and written once: 8 bytes per
 * element instead of the 16 of scan_blocks + add_sums.
 *
 * Each work-group scans one tile of BLOCK elements, ELEMENTS consecutive ones
 * per work-item in registers. What it adds to the tile is the sum of every
 * tile before it, which it finds by looking back at its predecessors' status
 * words:
 *   AGGREGATE  the predecessor's own total is known,
 *   PREFIX     the predecessor's total including every tile before it.
 * It publishes its own aggregate first, so its successors need not wait for
 * its look-back, and then its prefix.
 *
 * What makes it fast, against a plain version of the same idea:
 *  - the look-back reads WINDOW predecessors at once (one word per work-item
 *    of the first warp), adds the aggregates up to the nearest prefix, and
 *    moves WINDOW tiles back only when the whole window holds aggregates:
 *    one round trip to L2 per step instead of one per predecessor;
 *  - the tile goes between global memory (coalesced, striped: work-item lid
 *    takes uint4s lid, lid + LOCAL_SIZE, ...) and the work-items' registers
 *    (blocked: ELEMENTS consecutive elements each) through local memory in
 *    whole uint4s on both sides, with an XOR swizzle instead of padding
 *    (below): no bank conflicts and a quarter of the local accesses;
 *  - the work-items' totals are scanned in two levels (segments of 16, then
 *    the segments' totals) with two barriers, not a tree with one per level.
 *
 * Tiles are numbered in the order work-groups start (an atomic counter), so
 * every tile a group waits on belongs to a group that is already running:
 * the wait always ends, whatever order the device runs groups in.
 * A status word is 64 bits, the flag in the high half and the value in the
 * low half, written and read in one access so that a reader never sees a
 * flag with a stale value: an aligned 64-bit volatile load or store, which
 * every device makes in one piece (the same code on every device, no
 * extension asked for). The flag carries the launch number (epoch): a status
 * word left over from an earlier launch reads as "not ready", so the host
 * never has to clear them. */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#ifndef ELEMENTS
#define ELEMENTS 32              /* per work-item: a power of two, at least 4 */
#endif
#ifndef WINDOW
#define WINDOW 32                /* predecessors read at once: at most LOCAL_SIZE */
#endif
#define BLOCK (ELEMENTS * LOCAL_SIZE)
#define QUADS (ELEMENTS / 4)     /* uint4s per work-item */
#define SEGMENT 16               /* work-items' totals per first-level segment */
#define SEGMENTS (LOCAL_SIZE / SEGMENT)
#define SPAD(i) ((i) + (i) / SEGMENT)

#define STATUS_STORE(p, v) (*(p) = (v))
#define STATUS_LOAD(p) (*(p))

/* Where uint4 number q of the tile (its elements 4q .. 4q+3) lives in local
 * memory. Its owner, work-item q / QUADS, keeps it as its (q % QUADS)-th
 * uint4; the swizzle XORs that with the owner's number, so that the 8
 * work-items of a quarter warp (one 128-byte local access) never land in the
 * same 16 bytes of banks, whether they read their own blocked uint4s (same
 * j, owners t..t+7) or striped ones (8 consecutive q). */
#define SWZ_BITS (QUADS < 8 ? QUADS : 8)
#define SWIZZLE(q) ((q) ^ (((q) / QUADS) % SWZ_BITS))

/* The host asks this kernel for the tile size. */
__kernel void block_size(__global uint *size)
{
    size[0] = BLOCK;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_lookback(__global const uint *in, __global uint *out, volatile __global ulong *status,
                   volatile __global uint *counter, uint n, uint epoch)
{
    __local uint4 block[BLOCK / 4];
    __local uint sums[SPAD(LOCAL_SIZE)];
    __local uint partial[SEGMENTS];
    __local ulong window[2][WINDOW];
    __local uint shared[1];
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

    /* global -> local, striped and coalesced */
    for (uint q = lid; q < BLOCK / 4; q += LOCAL_SIZE) {
        const uint i = base + 4 * q;
        uint4 x;
        if (full || i + 4 <= n)
            x = *(__global const uint4 *)(in + i);
        else
            x = (uint4)(i < n ? in[i] : 0, i + 1 < n ? in[i + 1] : 0, i + 2 < n ? in[i + 2] : 0, 0);
        block[SWIZZLE(q)] = x;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* local -> registers, blocked; the work-item's exclusive scan */
    uint4 v[QUADS];
    uint sum = 0;
    for (uint j = 0; j < QUADS; j++) {
        const uint4 x = block[SWIZZLE(lid * QUADS + j)];
        v[j].s0 = sum;
        v[j].s1 = sum + x.s0;
        v[j].s2 = v[j].s1 + x.s1;
        v[j].s3 = v[j].s2 + x.s2;
        sum = v[j].s3 + x.s3;
    }

    /* the work-items' totals: segments of SEGMENT, then the segments */
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
    uint prefix = sums[SPAD(lid)], total = 0;
    for (uint s = 0; s < SEGMENTS; s++) {
        const uint x = partial[s];
        if (s < lid / SEGMENT)
            prefix += x;
        total += x;
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

    /* registers -> local (each work-item its own uint4s: no barrier before) */
    prefix += before;
    for (uint j = 0; j < QUADS; j++)
        block[SWIZZLE(lid * QUADS + j)] = v[j] + prefix;
    barrier(CLK_LOCAL_MEM_FENCE);
    /* local -> global, striped and coalesced */
    for (uint q = lid; q < BLOCK / 4; q += LOCAL_SIZE) {
        const uint i = base + 4 * q;
        const uint4 x = block[SWIZZLE(q)];
        if (full || i + 4 <= n) {
            *(__global uint4 *)(out + i) = x;
        } else {
            if (i < n) out[i] = x.s0;
            if (i + 1 < n) out[i + 1] = x.s1;
            if (i + 2 < n) out[i + 2] = x.s2;
        }
    }
}
