/* Chapter 9 exercise (capstone): the integral image
 *   I(x, y) = sum of pixels (x', y') with x' <= x and y' <= y   (modulo 2^32)
 * as four passes: row_scan_bytes (rows of the uint8 image), transpose,
 * row_scan (rows of the transposed sums = the image's columns), transpose.
 *
 * As given, the row scans handle one chunk of 2 * LOCAL_SIZE = 512 pixels
 * and forget the chunks before it, and the transpose goes straight from
 * global to global memory. Small images pass; `cltutor check 9` shows the
 * first wrong pixel at x = 512 on wider ones. Do TODO 1 (correct), then
 * TODO 2 and 3 (fast on a GPU).   Run it with:  cltutor run 9
 */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define CHUNK (2 * LOCAL_SIZE)
#define LOG_BANKS 5
#define PAD(i) ((i) + ((i) >> LOG_BANKS))

#ifndef TILE
#define TILE 32          /* the host launches TILE x TILE_ROWS work-items per tile */
#endif
#ifndef TILE_ROWS
#define TILE_ROWS 8
#endif

/* Chapter 8's exclusive Blelloch scan of tree[PAD(0 .. CHUNK-1)], in place.
 * Every work-item of the group must call it; returns the chunk's total. */
static uint scan_chunk(__local uint *tree, uint lid)
{
    uint stride = 1;
    for (uint active = CHUNK / 2; active > 0; active >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            const uint left = stride * (2 * lid + 1) - 1;
            tree[PAD(left + stride)] += tree[PAD(left)];
        }
        stride <<= 1;
    }
    /* Every work-item reads the total into a private variable, then one
     * clears the root. (Work-item 0 saving it to a __local variable and
     * clearing the root in the same step is also correct, but PoCL 3.1
     * miscompiled that form inside the loop over chunks: the root kept
     * its value and every sum came out one row total too high.) */
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint sum = tree[PAD(CHUNK - 1)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        tree[PAD(CHUNK - 1)] = 0;
    for (uint active = 1; active < CHUNK; active <<= 1) {
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
    return sum;
}

/* One work-group per row of the uint8 image: out[y][x] = in[y][0] + ... + in[y][x]. */
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan_bytes(__global const uchar *in, __global uint *out, uint width, uint height)
{
    __local uint tree[PAD(CHUNK - 1) + 1];
    const uint lid = get_local_id(0);
    const size_t row = get_group_id(0);
    __global const uchar *src = in + row * width;
    __global uint *dst = out + row * width;
    (void)height;

    uint carry = 0;                        /* sum of the row's earlier chunks */
    for (uint start = 0; start < width; start += CHUNK) {
        const uint a = start + lid, b = a + LOCAL_SIZE;
        const uint va = a < width ? src[a] : 0;
        const uint vb = b < width ? src[b] : 0;
        tree[PAD(lid)] = va;
        tree[PAD(lid + LOCAL_SIZE)] = vb;
        const uint sum = scan_chunk(tree, lid);
        /* exclusive + the element itself = inclusive */
        if (a < width) dst[a] = carry + tree[PAD(lid)] + va;
        if (b < width) dst[b] = carry + tree[PAD(lid + LOCAL_SIZE)] + vb;
        /* TODO 1: carry the chunk's total into the next chunk */
        barrier(CLK_LOCAL_MEM_FENCE);      /* tree is refilled by the next chunk */
    }
}

/* The same for rows of uint (the second pass). */
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan(__global const uint *in, __global uint *out, uint width, uint height)
{
    __local uint tree[PAD(CHUNK - 1) + 1];
    const uint lid = get_local_id(0);
    const size_t row = get_group_id(0);
    __global const uint *src = in + row * width;
    __global uint *dst = out + row * width;
    (void)height;

    uint carry = 0;
    for (uint start = 0; start < width; start += CHUNK) {
        const uint a = start + lid, b = a + LOCAL_SIZE;
        const uint va = a < width ? src[a] : 0;
        const uint vb = b < width ? src[b] : 0;
        tree[PAD(lid)] = va;
        tree[PAD(lid + LOCAL_SIZE)] = vb;
        const uint sum = scan_chunk(tree, lid);
        if (a < width) dst[a] = carry + tree[PAD(lid)] + va;
        if (b < width) dst[b] = carry + tree[PAD(lid + LOCAL_SIZE)] + vb;
        /* TODO 1: carry the chunk's total into the next chunk */
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* in is width x height (row-major), out is height x width: out[x][y] = in[y][x].
 * The host starts one work-group of TILE x TILE_ROWS per TILE x TILE tile. */
__kernel __attribute__((reqd_work_group_size(TILE, TILE_ROWS, 1)))
void transpose(__global const uint *in, __global uint *out, uint width, uint height)
{
    /* TODO 2: go through local memory. As written, the reads of a warp are
     * one row (coalesced) but its writes go down a column: 32 rows of out,
     * 32 separate memory segments. Stage the tile in local memory so that
     * both the reads and the writes go along rows of memory.
     * TODO 3: then look at which banks a warp's reads of the tile fall in,
     * and lay the tile out so that they are 32 different ones. */
    const uint tx = get_local_id(0), ty = get_local_id(1);
    const uint x0 = get_group_id(0) * TILE, y0 = get_group_id(1) * TILE;
    for (uint j = ty; j < TILE; j += TILE_ROWS) {
        const uint x = x0 + tx, y = y0 + j;
        if (x < width && y < height)
            out[(size_t)x * height + y] = in[(size_t)y * width + x];
    }
}
