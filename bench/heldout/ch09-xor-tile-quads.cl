/* Chapter 9 variant: row scans take 4 consecutive pixels per work-item
 * (vload4 straight from global, 1024-pixel chunks) with a padded Blelloch tree
 * over the work-item totals; the transpose tile is unpadded but XOR-swizzled.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
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

/* x holds pixels i..i+3 of the row (zeros past the end); writes the inclusive scan */
static uint scan_quad(__local uint *tree, uint lid, uint4 x, uint carry, __global uint *dst, uint i, uint width)
{
    uint4 s;
    s.s0 = x.s0;
    s.s1 = s.s0 + x.s1;
    s.s2 = s.s1 + x.s2;
    s.s3 = s.s2 + x.s3;
    tree[PAD(lid)] = s.s3;
    const uint total = scan_tree(tree, lid);
    s += carry + tree[PAD(lid)];
    if (i + 4 <= width) {
        vstore4(s, 0, dst + i);
    } else {
        if (i < width) dst[i] = s.s0;
        if (i + 1 < width) dst[i + 1] = s.s1;
        if (i + 2 < width) dst[i + 2] = s.s2;
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
        const uint i = start + 4 * lid;
        uint4 x;
        if (i + 4 <= width)
            x = convert_uint4(vload4(0, src + i));
        else
            x = (uint4)(i < width ? src[i] : 0, i + 1 < width ? src[i + 1] : 0, i + 2 < width ? src[i + 2] : 0, 0);
        carry += scan_quad(tree, lid, x, carry, dst, i, width);
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
        uint4 x;
        if (i + 4 <= width)
            x = vload4(0, src + i);
        else
            x = (uint4)(i < width ? src[i] : 0, i + 1 < width ? src[i + 1] : 0, i + 2 < width ? src[i + 2] : 0, 0);
        carry += scan_quad(tree, lid, x, carry, dst, i, width);
    }
}

/* logical element (r, c) of the tile is stored at tile[r][c ^ r]: row writes and
 * column reads of a warp both touch 32 different banks, with no padding word */
__kernel __attribute__((reqd_work_group_size(TILE, TILE_ROWS, 1)))
void transpose(__global const uint *in, __global uint *out, uint width, uint height)
{
    __local uint tile[TILE][TILE];
    const uint tx = get_local_id(0), ty = get_local_id(1);
    const uint x0 = get_group_id(0) * TILE, y0 = get_group_id(1) * TILE;
    for (uint j = ty; j < TILE; j += TILE_ROWS) {
        const uint x = x0 + tx, y = y0 + j;
        if (x < width && y < height)
            tile[j][(tx ^ j) % TILE] = in[(size_t)y * width + x];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = ty; j < TILE; j += TILE_ROWS) {
        const uint x = y0 + tx, y = x0 + j;
        if (x < height && y < width)
            out[(size_t)y * height + x] = tile[tx][(j ^ tx) % TILE];
    }
}
