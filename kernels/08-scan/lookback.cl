/* Beyond chapter 8: a single-pass scan with decoupled look-back (Merrill and
 * Garland, 2016). Each element is read once and written once: 8 bytes per
 * element instead of the 16 of scan_blocks + add_sums.
 *
 * Each work-group scans one tile of BLOCK elements exactly as scan_blocks
 * does (ELEMENTS per work-item in registers, Blelloch over the work-items'
 * totals, padded). What it adds to the tile is the sum of every tile before
 * it, which it finds by looking back at its predecessors' status words:
 *   AGGREGATE  the predecessor's own total is known,
 *   PREFIX     the predecessor's total including every tile before it.
 * It adds aggregates while walking back and stops at the first prefix.
 * It publishes its own aggregate first, so its successors need not wait for
 * its look-back, and then its prefix.
 *
 * Tiles are numbered in the order work-groups start (an atomic counter), so
 * every tile a group waits on belongs to a group that is already running:
 * the wait always ends, whatever order the device runs groups in.
 * A status word is 64 bits, the flag in the high half and the value in the
 * low half, written and read in one access so that a reader never sees a
 * flag with a stale value: an aligned 64-bit volatile load or store, which
 * every device makes in one piece (the same code on every device: a graded
 * file may not ask which extensions the device has). The flag carries the launch number (epoch): a
 * status word left over from an earlier launch reads as "not ready", so the
 * host never has to clear them. */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#ifndef ELEMENTS
#define ELEMENTS 32              /* per work-item: a power of two, at least 4 */
#endif
#define BLOCK (ELEMENTS * LOCAL_SIZE)
#define LOG_BANKS 5
#define PAD(i) ((i) + ((i) >> LOG_BANKS))

#define STATUS_STORE(p, v) (*(p) = (v))
#define STATUS_LOAD(p) (*(p))

/* Moves a block between global and local memory in whole uint4s, work-item
 * lid taking uint4s lid, lid + LOCAL_SIZE, ... (coalesced: a warp reads 512
 * contiguous bytes), one element at a time past the end of the data. Local
 * word i is at PAD(i). The four words of a uint4 stay together (i is a
 * multiple of 4, and PAD only skips a word after every 32), and lane t's
 * words 4t..4t+3 land in banks 4t + t/8 + 0..3: all different across the
 * 32 lanes. */
static void load_block(__global const uint *in, uint base, uint n, __local uint *block, uint lid)
{
    for (uint q = lid; q < BLOCK / 4; q += LOCAL_SIZE) {
        const uint i = 4 * q;
        uint4 x;
        if (base + i + 4 <= n)
            x = ((__global const uint4 *)(in + base))[q];
        else
            x = (uint4)(base + i < n ? in[base + i] : 0, base + i + 1 < n ? in[base + i + 1] : 0,
                        base + i + 2 < n ? in[base + i + 2] : 0, base + i + 3 < n ? in[base + i + 3] : 0);
        vstore4(x, 0, block + PAD(i));
    }
}

static void store_block(__global uint *out, uint base, uint n, __local const uint *block, uint lid)
{
    for (uint q = lid; q < BLOCK / 4; q += LOCAL_SIZE) {
        const uint i = 4 * q;
        const uint4 x = vload4(0, block + PAD(i));
        if (base + i + 4 <= n) {
            ((__global uint4 *)(out + base))[q] = x;
        } else {
            if (base + i < n) out[base + i] = x.s0;
            if (base + i + 1 < n) out[base + i + 1] = x.s1;
            if (base + i + 2 < n) out[base + i + 2] = x.s2;
        }
    }
}

/* The host asks this kernel for the tile size. */
__kernel void block_size(__global uint *size)
{
    size[0] = BLOCK;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_lookback(__global const uint *in, __global uint *out, volatile __global ulong *status,
                   volatile __global uint *counter, uint n, uint epoch)
{
    __local uint block[PAD(BLOCK - 1) + 1];
    __local uint tree[PAD(LOCAL_SIZE - 1) + 1];
    __local uint shared[2];
    const uint lid = get_local_id(0);
    const uint tiles = (n + BLOCK - 1) / BLOCK;
    const ulong AGGREGATE = (ulong)(2 * epoch + 1) << 32, PREFIX = (ulong)(2 * epoch + 2) << 32;

    if (lid == 0) {
        const uint t = atomic_inc(counter);
        if (t == tiles - 1)
            atomic_xchg(counter, 0);    /* the last tile: every group has its number; ready for the next launch */
        shared[0] = t;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint tile = shared[0];
    const uint base = tile * BLOCK;

    /* as in scan_blocks: coalesced through local memory */
    load_block(in, base, n, block, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint first = lid * ELEMENTS;
    uint v[ELEMENTS];
    for (uint k = 0; k < ELEMENTS; k++)
        v[k] = block[PAD(first + k)];
    uint sum = 0;
    for (uint k = 0; k < ELEMENTS; k++) {
        const uint x = v[k];
        v[k] = sum;
        sum += x;
    }

    /* chapter 8's tree over the work-items' totals */
    tree[PAD(lid)] = sum;
    uint stride = 1;
    for (uint active = LOCAL_SIZE / 2; active > 0; active >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            const uint left = stride * (2 * lid + 1) - 1;
            tree[PAD(left + stride)] += tree[PAD(left)];
        }
        stride <<= 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint total = tree[PAD(LOCAL_SIZE - 1)];
    barrier(CLK_LOCAL_MEM_FENCE);

    if (lid == 0) {
        tree[PAD(LOCAL_SIZE - 1)] = 0;
        /* the look-back */
        uint before = 0;
        if (tile == 0) {
            STATUS_STORE(&status[0], PREFIX | total);
        } else {
            STATUS_STORE(&status[tile], AGGREGATE | total);
            uint p = tile - 1;
            for (;;) {
                const ulong s = STATUS_LOAD(&status[p]);
                const ulong flag = s & 0xffffffff00000000UL;
                if (flag == PREFIX) {
                    before += (uint)s;
                    break;
                }
                if (flag == AGGREGATE) {
                    before += (uint)s;
                    p--;                /* tile 0 always has a prefix: p stays >= 0 */
                }
                /* otherwise not published yet in this launch: read it again */
            }
            STATUS_STORE(&status[tile], PREFIX | (before + total));
        }
        shared[1] = before;
    }

    for (uint active = 1; active < LOCAL_SIZE; active <<= 1) {
        stride >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            const uint left = stride * (2 * lid + 1) - 1;
            const uint t = tree[PAD(left)];
            tree[PAD(left)] = tree[PAD(left + stride)];
            tree[PAD(left + stride)] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint prefix = shared[1] + tree[PAD(lid)];

    for (uint k = 0; k < ELEMENTS; k++)
        block[PAD(first + k)] = v[k] + prefix;
    barrier(CLK_LOCAL_MEM_FENCE);
    store_block(out, base, n, block, lid);
}
