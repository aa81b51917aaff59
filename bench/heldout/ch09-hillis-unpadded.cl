/* Chapter 9 variant: row scans are Hillis-Steele (one pixel per work-item,
 * 256-pixel chunks, ping-pong buffers) instead of Blelloch; the transpose
 * stages through an unpadded [TILE][TILE] tile (column reads hit one bank).
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#ifndef TILE
#define TILE 32
#endif
#ifndef TILE_ROWS
#define TILE_ROWS 8
#endif

/* inclusive scan of v over the group; returns it, *total gets the group's sum */
static uint hs_scan(__local uint (*buf)[LOCAL_SIZE], uint lid, uint v, uint *total)
{
    uint src = 0;
    buf[0][lid] = v;
    for (uint offset = 1; offset < LOCAL_SIZE; offset <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint t = buf[src][lid];
        buf[1 - src][lid] = lid >= offset ? t + buf[src][lid - offset] : t;
        src = 1 - src;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint r = buf[src][lid];
    *total = buf[src][LOCAL_SIZE - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan_bytes(__global const uchar *in, __global uint *out, uint width, uint height)
{
    __local uint buf[2][LOCAL_SIZE];
    const uint lid = get_local_id(0);
    const size_t row = get_group_id(0);
    (void)height;
    uint carry = 0;
    for (uint start = 0; start < width; start += LOCAL_SIZE) {
        const uint x = start + lid;
        uint total;
        const uint r = hs_scan(buf, lid, x < width ? in[row * width + x] : 0, &total);
        if (x < width)
            out[row * width + x] = carry + r;
        carry += total;
    }
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan(__global const uint *in, __global uint *out, uint width, uint height)
{
    __local uint buf[2][LOCAL_SIZE];
    const uint lid = get_local_id(0);
    const size_t row = get_group_id(0);
    (void)height;
    uint carry = 0;
    for (uint start = 0; start < width; start += LOCAL_SIZE) {
        const uint x = start + lid;
        uint total;
        const uint r = hs_scan(buf, lid, x < width ? in[row * width + x] : 0, &total);
        if (x < width)
            out[row * width + x] = carry + r;
        carry += total;
    }
}

__kernel __attribute__((reqd_work_group_size(TILE, TILE_ROWS, 1)))
void transpose(__global const uint *in, __global uint *out, uint width, uint height)
{
    __local uint tile[TILE][TILE];
    const uint tx = get_local_id(0), ty = get_local_id(1);
    const uint x0 = get_group_id(0) * TILE, y0 = get_group_id(1) * TILE;
    for (uint j = ty; j < TILE; j += TILE_ROWS) {
        const uint x = x0 + tx, y = y0 + j;
        if (x < width && y < height)
            tile[j][tx] = in[(size_t)y * width + x];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = ty; j < TILE; j += TILE_ROWS) {
        const uint x = y0 + tx, y = x0 + j;
        if (x < height && y < width)
            out[(size_t)y * height + x] = tile[tx][j];
    }
}
