/* Chapter 9, find the bug: the integral image with the second pass in float.
 *
 * Row scan, transpose, row scan, transpose back, like the reference, except
 * that the second row scan (down the image's columns) works in float, as
 * image code often does. It passes on small images. Find the input where it
 * fails, explain why, and fix it.
 * Check it with:  cltutor check 9   (the chapter's tests run it too)
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

/* The same scan on float values. */
static float scan_chunk_f(__local float *tree, uint lid)
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
    barrier(CLK_LOCAL_MEM_FENCE);
    const float sum = tree[PAD(CHUNK - 1)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        tree[PAD(CHUNK - 1)] = 0;
    for (uint active = 1; active < CHUNK; active <<= 1) {
        stride >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            const uint left = stride * (2 * lid + 1) - 1;
            const float t = tree[PAD(left)];
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
        carry += sum;
        barrier(CLK_LOCAL_MEM_FENCE);      /* tree is refilled by the next chunk */
    }
}

/* The second pass adds up the row sums down each column. It works in uint,
 * like the first: float holds every integer only up to 2^24, and a column
 * sum of a white 1000 x 999 image reaches 255 x 999 x 1000 > 2^24, so float
 * sums round. (scan_chunk_f above is no longer used.) */
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
        carry += sum;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* in is width x height (row-major), out is height x width: out[x][y] = in[y][x].
 * A work-group moves one TILE x TILE tile: it reads rows of the tile
 * (coalesced), and writes rows of the transposed tile (coalesced), reading
 * the tile's columns from local memory in between. Column j of the tile is
 * tile[0..TILE-1][j]: with TILE + 1 words per row those are in 32 different
 * banks; with TILE words per row all of them would be in bank j. */
__kernel __attribute__((reqd_work_group_size(TILE, TILE_ROWS, 1)))
void transpose(__global const uint *in, __global uint *out, uint width, uint height)
{
    __local uint tile[TILE][TILE + 1];
    const uint tx = get_local_id(0), ty = get_local_id(1);
    const uint x0 = get_group_id(0) * TILE, y0 = get_group_id(1) * TILE;

    for (uint j = ty; j < TILE; j += TILE_ROWS) {
        const uint x = x0 + tx, y = y0 + j;
        if (x < width && y < height)
            tile[j][tx] = in[(size_t)y * width + x];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = ty; j < TILE; j += TILE_ROWS) {
        const uint x = y0 + tx, y = x0 + j;     /* x, y in out: height columns, width rows */
        if (x < height && y < width)
            out[(size_t)y * height + x] = tile[tx][j];
    }
}
