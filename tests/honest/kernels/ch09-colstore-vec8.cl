/* Chapter 9, honest variant: the transpose turns the tile on its way INTO
 * local memory, and the row scans take eight pixels per work-item.
 *
 * transpose: the usual kernel writes tile rows and reads tile columns; this
 * one writes columns and reads rows. Work-item (tx, j) reads in[y0+j][x0+tx]
 * (a warp reads one row: coalesced) and stores it at tile[tx][j], already
 * transposed; after the barrier, out row x0 + j is tile row j, read along
 * the row and written along the output row (coalesced). The column store
 * is the strided access now, and the padding tile[32][33] puts its 32 words
 * (33 tx + j) in 32 different banks.
 * row scans: work-item lid takes 8 consecutive pixels of its chunk as one
 * uchar8 / uint8 (each lane a whole 32-byte sector of the uint rows),
 * scans them in registers, and chapter 8's padded Blelloch tree scans the
 * 256 totals: chunks of 2048 pixels, so a row of 1920 is one chunk and a row
 * of 8192 four. Vectors that cross the end of a row are done element-wise.
 */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define PER 8
#define CHUNK (PER * LOCAL_SIZE)
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

static inline uint8 inclusive8(uint8 v)
{
    v.s1 += v.s0; v.s2 += v.s1; v.s3 += v.s2; v.s4 += v.s3;
    v.s5 += v.s4; v.s6 += v.s5; v.s7 += v.s6;
    return v;
}

static inline void store8(__global uint *dst, uint i, uint width, uint8 v)
{
    if (i + PER - 1 < width) {
        vstore8(v, 0, dst + i);
    } else {
        const uint e[PER] = { v.s0, v.s1, v.s2, v.s3, v.s4, v.s5, v.s6, v.s7 };
        for (uint k = 0; k < PER - 1; k++)
            if (i + k < width)
                dst[i + k] = e[k];
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
        const uint i = start + PER * lid;
        uint8 v;
        if (i + PER - 1 < width) {
            v = convert_uint8(vload8(0, src + i));
        } else {
            uint e[PER];
            for (uint k = 0; k < PER; k++)
                e[k] = i + k < width ? src[i + k] : 0;
            v = (uint8)(e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]);
        }
        v = inclusive8(v);
        tree[PAD(lid)] = v.s7;
        const uint sum = scan_leaves(tree, lid);
        store8(dst, i, width, v + (carry + tree[PAD(lid)]));
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
        const uint i = start + PER * lid;
        uint8 v;
        if (i + PER - 1 < width) {
            v = vload8(0, src + i);
        } else {
            uint e[PER];
            for (uint k = 0; k < PER; k++)
                e[k] = i + k < width ? src[i + k] : 0;
            v = (uint8)(e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]);
        }
        v = inclusive8(v);
        tree[PAD(lid)] = v.s7;
        const uint sum = scan_leaves(tree, lid);
        store8(dst, i, width, v + (carry + tree[PAD(lid)]));
        carry += sum;
    }
}

/* in is width x height, out is height x width: out[x][y] = in[y][x]. */
__kernel __attribute__((reqd_work_group_size(TILE, TILE_ROWS, 1)))
void transpose(__global const uint *in, __global uint *out, uint width, uint height)
{
    __local uint tile[TILE][TILE + 1];      /* tile[a][b] = in[y0 + b][x0 + a] */
    const uint tx = get_local_id(0), ty = get_local_id(1);
    const uint x0 = get_group_id(0) * TILE, y0 = get_group_id(1) * TILE;

    for (uint j = ty; j < TILE; j += TILE_ROWS) {
        const uint x = x0 + tx, y = y0 + j;
        tile[tx][j] = (x < width && y < height) ? in[(size_t)y * width + x] : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint j = ty; j < TILE; j += TILE_ROWS) {
        const uint ox = y0 + tx, oy = x0 + j;  /* out is height wide */
        if (ox < height && oy < width)
            out[(size_t)oy * height + ox] = tile[j][tx];
    }
}
