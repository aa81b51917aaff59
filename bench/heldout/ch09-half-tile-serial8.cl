/* Chapter 9 variant: the transpose moves its 32x32 tile in two 32x16 halves
 * through a smaller padded tile [TILE][17]; row scans give each work-item 8
 * consecutive pixels read one at a time from global (uncoalesced), a serial
 * scan in registers, then a Hillis-Steele scan of the 256 totals (2048-pixel chunks).
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define PER_ITEM 8
#define CHUNK (PER_ITEM * LOCAL_SIZE)
#ifndef TILE
#define TILE 32
#endif
#ifndef TILE_ROWS
#define TILE_ROWS 8
#endif
#define HALF (TILE / 2)

#define ROW_SCAN_BODY                                                          \
    __local uint buf[2][LOCAL_SIZE];                                           \
    const uint lid = get_local_id(0);                                          \
    const size_t row = get_group_id(0);                                        \
    (void)height;                                                              \
    uint carry = 0;                                                            \
    for (uint start = 0; start < width; start += CHUNK) {                      \
        const uint first = start + lid * PER_ITEM;                             \
        uint v[PER_ITEM];                                                      \
        uint sum = 0;                                                          \
        for (uint k = 0; k < PER_ITEM; k++) {                                  \
            sum += first + k < width ? (uint)src[row * width + first + k] : 0u; \
            v[k] = sum;                                                        \
        }                                                                      \
        uint s = 0;                                                            \
        buf[0][lid] = sum;                                                     \
        for (uint offset = 1; offset < LOCAL_SIZE; offset <<= 1) {             \
            barrier(CLK_LOCAL_MEM_FENCE);                                      \
            const uint t = buf[s][lid];                                        \
            buf[1 - s][lid] = lid >= offset ? t + buf[s][lid - offset] : t;    \
            s = 1 - s;                                                         \
        }                                                                      \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        const uint prefix = carry + buf[s][lid] - sum;                         \
        const uint total = buf[s][LOCAL_SIZE - 1];                             \
        barrier(CLK_LOCAL_MEM_FENCE);                                          \
        for (uint k = 0; k < PER_ITEM; k++)                                    \
            if (first + k < width)                                             \
                out[row * width + first + k] = v[k] + prefix;                  \
        carry += total;                                                        \
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
    __local uint tile[TILE][HALF + 1];
    const uint lid = get_local_id(1) * TILE + get_local_id(0);
    const uint x0 = get_group_id(0) * TILE, y0 = get_group_id(1) * TILE;
    for (uint h = 0; h < 2; h++) {
        const uint xh = x0 + h * HALF;
        /* in: TILE rows of HALF columns, half-warps along a row */
        for (uint idx = lid; idx < TILE * HALF; idx += TILE * TILE_ROWS) {
            const uint r = idx / HALF, c = idx % HALF;
            const uint x = xh + c, y = y0 + r;
            if (x < width && y < height)
                tile[r][c] = in[(size_t)y * width + x];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        /* out: HALF rows (the half's columns) of TILE elements, warps along a row */
        for (uint idx = lid; idx < TILE * HALF; idx += TILE * TILE_ROWS) {
            const uint c = idx / TILE, r = idx % TILE;
            const uint x = y0 + r, y = xh + c;
            if (x < height && y < width)
                out[(size_t)y * height + x] = tile[r][c];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
