/* Chapter 9 reference (capstone): the integral image
 *   I(x, y) = sum of pixels (x', y') with x' <= x and y' <= y   (modulo 2^32)
 * as four passes, as in the integral-image paper:
 *   row_scan_bytes  inclusive scan of every row of the uint8 image -> uint
 *   transpose       tiled through local memory, padded against bank conflicts
 *   row_scan        inclusive scan of every row again (the image's columns)
 *   transpose       back to the image's layout
 * The row scans are chapter 8's scan: each work-item scans ROW_ELEMENTS
 * consecutive pixels in registers, a Blelloch tree scans the work-items'
 * totals, and one work-group walks a whole row in chunks of CHUNK pixels,
 * carrying the running total. */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#ifndef ROW_ELEMENTS
#define ROW_ELEMENTS 16          /* pixels per work-item, a multiple of 16 */
#endif
#define CHUNK (ROW_ELEMENTS * LOCAL_SIZE)
#define LOG_BANKS 5
#define PAD(i) ((i) + ((i) >> LOG_BANKS))

#ifndef TILE
#define TILE 32          /* the host launches TILE x TILE_ROWS work-items per tile */
#endif
#ifndef TILE_ROWS
#define TILE_ROWS 8
#endif

/* Chapter 8's exclusive Blelloch scan of tree[PAD(0 .. LOCAL_SIZE-1)], one
 * leaf per work-item, in place. Every work-item of the group must call it;
 * returns the total of the leaves. */
static uint scan_tree(__local uint *tree, uint lid)
{
    uint stride = 1;
    for (uint active = LOCAL_SIZE / 2; active > 0; active >>= 1) {
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
    const uint sum = tree[PAD(LOCAL_SIZE - 1)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        tree[PAD(LOCAL_SIZE - 1)] = 0;
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
    return sum;
}

/* The inclusive scan of v[0 .. ROW_ELEMENTS-1] in place; returns the total. */
static uint scan_private(uint *v)
{
    uint sum = 0;
    for (uint k = 0; k < ROW_ELEMENTS; k++) {
        sum += v[k];
        v[k] = sum;
    }
    return sum;
}

/* dst[first + k] = v[k] + prefix, whole uint4s when they are all in the row
 * and the row starts 16-byte aligned. */
static void store_row(__global uint *dst, uint first, uint width, int aligned, const uint *v, uint prefix)
{
    if (aligned && first + ROW_ELEMENTS <= width) {
        __global uint4 *d4 = (__global uint4 *)(dst + first);
        for (uint q = 0; q < ROW_ELEMENTS / 4; q++)
            d4[q] = (uint4)(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]) + prefix;
    } else {
        for (uint k = 0; k < ROW_ELEMENTS; k++)
            if (first + k < width)
                dst[first + k] = v[k] + prefix;
    }
}

/* One work-group per row of the uint8 image: out[y][x] = in[y][0] + ... + in[y][x]. */
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan_bytes(__global const uchar *in, __global uint *out, uint width, uint height)
{
    __local uint tree[PAD(LOCAL_SIZE - 1) + 1];
    const uint lid = get_local_id(0);
    const size_t row = get_group_id(0);
    __global const uchar *src = in + row * width;
    __global uint *dst = out + row * width;
    const int aligned = width % 16 == 0;   /* then every row starts 16-byte aligned */
    (void)height;

    uint carry = 0;                        /* sum of the row's earlier chunks */
    for (uint start = 0; start < width; start += CHUNK) {
        const uint first = start + lid * ROW_ELEMENTS;
        uint v[ROW_ELEMENTS];
        if (aligned && first + ROW_ELEMENTS <= width) {
            /* 16 pixels per uint4 load, unpacked to one uint each */
            __global const uint4 *s4 = (__global const uint4 *)(src + first);
            for (uint q = 0; q < ROW_ELEMENTS / 16; q++) {
                const uint4 x = s4[q];
                for (uint b = 0; b < 4; b++) {
                    v[16 * q + b] = (x.s0 >> (8 * b)) & 255;
                    v[16 * q + 4 + b] = (x.s1 >> (8 * b)) & 255;
                    v[16 * q + 8 + b] = (x.s2 >> (8 * b)) & 255;
                    v[16 * q + 12 + b] = (x.s3 >> (8 * b)) & 255;
                }
            }
        } else {
            for (uint k = 0; k < ROW_ELEMENTS; k++)
                v[k] = first + k < width ? src[first + k] : 0;
        }
        tree[PAD(lid)] = scan_private(v);
        const uint sum = scan_tree(tree, lid);
        /* the inclusive prefix of the work-item's own pixels + the pixels
         * before them in this chunk + the earlier chunks */
        store_row(dst, first, width, aligned, v, carry + tree[PAD(lid)]);
        carry += sum;
        barrier(CLK_LOCAL_MEM_FENCE);      /* tree is refilled by the next chunk */
    }
}

/* The same for rows of uint (the second pass). */
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan(__global const uint *in, __global uint *out, uint width, uint height)
{
    __local uint tree[PAD(LOCAL_SIZE - 1) + 1];
    const uint lid = get_local_id(0);
    const size_t row = get_group_id(0);
    __global const uint *src = in + row * width;
    __global uint *dst = out + row * width;
    const int aligned = width % 4 == 0;
    (void)height;

    uint carry = 0;
    for (uint start = 0; start < width; start += CHUNK) {
        const uint first = start + lid * ROW_ELEMENTS;
        uint v[ROW_ELEMENTS];
        if (aligned && first + ROW_ELEMENTS <= width) {
            __global const uint4 *s4 = (__global const uint4 *)(src + first);
            for (uint q = 0; q < ROW_ELEMENTS / 4; q++) {
                const uint4 x = s4[q];
                v[4 * q] = x.s0; v[4 * q + 1] = x.s1; v[4 * q + 2] = x.s2; v[4 * q + 3] = x.s3;
            }
        } else {
            for (uint k = 0; k < ROW_ELEMENTS; k++)
                v[k] = first + k < width ? src[first + k] : 0;
        }
        tree[PAD(lid)] = scan_private(v);
        const uint sum = scan_tree(tree, lid);
        store_row(dst, first, width, aligned, v, carry + tree[PAD(lid)]);
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
