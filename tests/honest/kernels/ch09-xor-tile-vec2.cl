/* Chapter 9, honest variant: an XOR-swizzled transpose tile and row scans
 * on 2-element vectors.
 *
 * transpose: the tile is tile[32][32], no padding word; element (r, c) is
 * stored in column c ^ r of row r. The row writes (lane tx: column tx ^ j of
 * row j) and the column reads after the barrier (lane tx: row tx, column
 * j ^ tx, word 32 tx + (j ^ tx)) both fall in banks tx ^ j: 32 different
 * ones, with 4 KB of local memory instead of 4.2 KB. Otherwise the NVIDIA
 * "Efficient Matrix Transpose" tiling: 32 x 8 work-items loop over a
 * 32 x 32 tile, reads and writes along rows.
 * row scans: after Jia, Zhang and Xu's integral-image paper, which found
 * 2-element vectors best on both its GPUs: work-item lid loads the pixels
 * 2 lid and 2 lid + 1 of its chunk as one uchar2 / uint2, adds them in
 * registers, and the padded Blelloch tree scans the 256 pair totals.
 * A chunk is 512 pixels as in the exercise, on a tree of half the leaves.
 */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define CHUNK (2 * LOCAL_SIZE)
#define PAD(i) ((i) + ((i) >> 5))

#ifndef TILE
#define TILE 32
#endif
#ifndef TILE_ROWS
#define TILE_ROWS 8
#endif

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
        const uint i = start + 2 * lid;
        uint2 v = (uint2)(0);
        if (i + 1 < width)
            v = convert_uint2(vload2(0, src + i));
        else if (i < width)
            v.s0 = src[i];
        v.s1 += v.s0;
        tree[PAD(lid)] = v.s1;
        const uint sum = scan_leaves(tree, lid);
        v += carry + tree[PAD(lid)];
        if (i + 1 < width)
            vstore2(v, 0, dst + i);
        else if (i < width)
            dst[i] = v.s0;
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
        const uint i = start + 2 * lid;
        uint2 v = (uint2)(0);
        if (i + 1 < width)
            v = vload2(0, src + i);
        else if (i < width)
            v.s0 = src[i];
        v.s1 += v.s0;
        tree[PAD(lid)] = v.s1;
        const uint sum = scan_leaves(tree, lid);
        v += carry + tree[PAD(lid)];
        if (i + 1 < width)
            vstore2(v, 0, dst + i);
        else if (i < width)
            dst[i] = v.s0;
        carry += sum;
    }
}

/* in is width x height, out is height x width: out[x][y] = in[y][x]. */
__kernel __attribute__((reqd_work_group_size(TILE, TILE_ROWS, 1)))
void transpose(__global const uint *in, __global uint *out, uint width, uint height)
{
    __local uint tile[TILE][TILE];          /* (r, c) lives at tile[r][c ^ r] */
    const uint tx = get_local_id(0), ty = get_local_id(1);
    const uint x0 = get_group_id(0) * TILE, y0 = get_group_id(1) * TILE;

    for (uint j = ty; j < TILE; j += TILE_ROWS) {
        const uint x = x0 + tx, y = y0 + j;
        tile[j][tx ^ j] = (x < width && y < height) ? in[(size_t)y * width + x] : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint j = ty; j < TILE; j += TILE_ROWS) {
        const uint x = y0 + tx, y = x0 + j;     /* out is height wide */
        if (x < height && y < width)
            out[(size_t)y * height + x] = tile[tx][j ^ tx];
    }
}
