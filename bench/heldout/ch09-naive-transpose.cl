/* Chapter 9 variant: the transpose goes straight from global to global memory
 * (coalesced reads, scattered column writes, no local tile); the row scans are
 * the exercise's two-per-item padded Blelloch over 512-pixel chunks, with carry.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
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

#define ROW_SCAN_BODY                                                          \
    __local uint tree[PAD(CHUNK - 1) + 1];                                     \
    const uint lid = get_local_id(0);                                          \
    const size_t row = get_group_id(0);                                        \
    (void)height;                                                              \
    uint carry = 0;                                                            \
    for (uint start = 0; start < width; start += CHUNK) {                      \
        const uint a = start + lid, b = a + LOCAL_SIZE;                        \
        const uint va = a < width ? src[row * width + a] : 0;                  \
        const uint vb = b < width ? src[row * width + b] : 0;                  \
        tree[PAD(lid)] = va;                                                   \
        tree[PAD(lid + LOCAL_SIZE)] = vb;                                      \
        const uint sum = scan_chunk(tree, lid);                                \
        if (a < width) out[row * width + a] = carry + tree[PAD(lid)] + va;     \
        if (b < width) out[row * width + b] = carry + tree[PAD(lid + LOCAL_SIZE)] + vb; \
        carry += sum;                                                          \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
    }

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan_bytes(__global const uchar *in, __global uint *out, uint width, uint height)
{
    __global const uchar *src = in;
    ROW_SCAN_BODY
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan(__global const uint *in, __global uint *out, uint width, uint height)
{
    __global const uint *src = in;
    ROW_SCAN_BODY
}

__kernel __attribute__((reqd_work_group_size(TILE, TILE_ROWS, 1)))
void transpose(__global const uint *in, __global uint *out, uint width, uint height)
{
    const uint tx = get_local_id(0), ty = get_local_id(1);
    const uint x0 = get_group_id(0) * TILE, y0 = get_group_id(1) * TILE;
    for (uint j = ty; j < TILE; j += TILE_ROWS) {
        const uint x = x0 + tx, y = y0 + j;
        if (x < width && y < height)
            out[(size_t)x * height + y] = in[(size_t)y * width + x];
    }
}
