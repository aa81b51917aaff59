/* Chapter 9, honest variant: the transpose moves its tile as uint4 rows,
 * and the row scans take four pixels per work-item.
 *
 * transpose: the 256 work-items of a 32 x 32 tile each move one uint4:
 * work-item l reads 4 neighbouring words of tile row l / 8 (vload4; rows of
 * odd widths are only 4-byte aligned), and after the barrier writes 4
 * neighbouring words of an output row, gathered from a column of the tile.
 * A warp reads and writes 4 row segments of 128 contiguous bytes. The tile is padded,
 * tile[32][33]: the words a warp touches at once are 33 r + 4 q + c for
 * r = 0..3, q = 0..7, in 32 different banks, for writes and for the column
 * reads alike.
 * row scans: work-item lid loads 4 consecutive pixels of the chunk as a
 * uchar4 / uint4 (a warp reads 128 or 512 contiguous bytes), scans them in
 * registers, and chapter 8's padded Blelloch tree scans the 256 quad
 * totals: chunks of 1024 pixels, and a tree of 256 leaves instead of 512.
 * Quads that cross the end of the row are read and written element-wise.
 */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define CHUNK (4 * LOCAL_SIZE)
#define PAD(i) ((i) + ((i) >> 5))

#ifndef TILE
#define TILE 32
#endif
#ifndef TILE_ROWS
#define TILE_ROWS 8
#endif
#define QPR (TILE / 4)             /* uint4s per tile row */

/* Exclusive Blelloch scan of tree[PAD(0 .. LOCAL_SIZE-1)]; returns the total. */
static uint scan_leaves(__local uint *tree, uint lid)
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
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint total = tree[PAD(LOCAL_SIZE - 1)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        tree[PAD(LOCAL_SIZE - 1)] = 0;
    for (uint active = 1; active < LOCAL_SIZE; active <<= 1) {
        stride >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            const uint left = PAD(stride * (2 * lid + 1) - 1);
            const uint right = PAD(stride * (2 * lid + 2) - 1);
            const uint t = tree[left];
            tree[left] = tree[right];
            tree[right] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}

static inline void store_quad(__global uint *dst, uint i, uint width, uint4 v)
{
    if (i + 3 < width) {
        vstore4(v, 0, dst + i);
    } else {
        if (i < width)     dst[i] = v.s0;
        if (i + 1 < width) dst[i + 1] = v.s1;
        if (i + 2 < width) dst[i + 2] = v.s2;
    }
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan_bytes(__global const uchar *in, __global uint *out, uint width, uint height)
{
    __local uint tree[PAD(LOCAL_SIZE - 1) + 1];
    const uint lid = get_local_id(0);
    const size_t row = get_group_id(0);
    __global const uchar *src = in + row * width;
    __global uint *dst = out + row * width;
    (void)height;

    uint carry = 0;
    for (uint start = 0; start < width; start += CHUNK) {
        const uint i = start + 4 * lid;
        uint4 v = (uint4)(0);
        if (i + 3 < width) {
            v = convert_uint4(vload4(0, src + i));
        } else {
            if (i < width)     v.s0 = src[i];
            if (i + 1 < width) v.s1 = src[i + 1];
            if (i + 2 < width) v.s2 = src[i + 2];
        }
        v.s1 += v.s0; v.s2 += v.s1; v.s3 += v.s2;      /* inclusive, in registers */
        tree[PAD(lid)] = v.s3;
        const uint sum = scan_leaves(tree, lid);
        store_quad(dst, i, width, v + (carry + tree[PAD(lid)]));
        carry += sum;
    }
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan(__global const uint *in, __global uint *out, uint width, uint height)
{
    __local uint tree[PAD(LOCAL_SIZE - 1) + 1];
    const uint lid = get_local_id(0);
    const size_t row = get_group_id(0);
    __global const uint *src = in + row * width;
    __global uint *dst = out + row * width;
    (void)height;

    uint carry = 0;
    for (uint start = 0; start < width; start += CHUNK) {
        const uint i = start + 4 * lid;
        uint4 v = (uint4)(0);
        if (i + 3 < width) {
            v = vload4(0, src + i);
        } else {
            if (i < width)     v.s0 = src[i];
            if (i + 1 < width) v.s1 = src[i + 1];
            if (i + 2 < width) v.s2 = src[i + 2];
        }
        v.s1 += v.s0; v.s2 += v.s1; v.s3 += v.s2;
        tree[PAD(lid)] = v.s3;
        const uint sum = scan_leaves(tree, lid);
        store_quad(dst, i, width, v + (carry + tree[PAD(lid)]));
        carry += sum;
    }
}

/* in is width x height, out is height x width: out[x][y] = in[y][x]. */
__kernel __attribute__((reqd_work_group_size(TILE, TILE_ROWS, 1)))
void transpose(__global const uint *in, __global uint *out, uint width, uint height)
{
    __local uint tile[TILE][TILE + 1];
    const uint l = get_local_id(1) * TILE + get_local_id(0);
    const uint x0 = get_group_id(0) * TILE, y0 = get_group_id(1) * TILE;

    for (uint q = l; q < TILE * QPR; q += TILE * TILE_ROWS) {
        const uint r = q / QPR, c = (q % QPR) * 4;
        const uint y = y0 + r, x = x0 + c;
        uint4 v = (uint4)(0);
        if (y < height) {
            __global const uint *p = in + (size_t)y * width + x;
            if (x + 3 < width) {
                v = vload4(0, p);
            } else {
                if (x < width)     v.s0 = p[0];
                if (x + 1 < width) v.s1 = p[1];
                if (x + 2 < width) v.s2 = p[2];
            }
        }
        tile[r][c] = v.s0; tile[r][c + 1] = v.s1;
        tile[r][c + 2] = v.s2; tile[r][c + 3] = v.s3;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* out row x0 + r, columns y0 + c .. y0 + c + 3 = tile column r */
    for (uint q = l; q < TILE * QPR; q += TILE * TILE_ROWS) {
        const uint r = q / QPR, c = (q % QPR) * 4;
        const uint x = x0 + r, y = y0 + c;
        if (x < width) {
            const uint4 v = (uint4)(tile[c][r], tile[c + 1][r], tile[c + 2][r], tile[c + 3][r]);
            store_quad(out + (size_t)x * height, y, height, v);
        }
    }
}
