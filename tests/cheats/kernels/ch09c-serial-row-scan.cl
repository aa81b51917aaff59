/* Cheat (chapter 9c): the reference's padded, tiled transpose, but no scan
 * at all in the row passes: work-item 0 of each row's work-group adds the
 * row up serially, straight from global memory (the other 255 work-items
 * return). Hole it tries: technique checks that measure only the transpose
 * kernel (coalesced_loads@transpose, coalesced_stores@transpose,
 * bank_conflicts@transpose) and local_memory, which the transpose's tile
 * satisfies. On a GPU the row passes would run one lane in 256, with
 * uncoalesced loads. Expected if the checks were robust: the chapter's scan
 * technique fails (active_lanes, local_ops_per_element, or coalescing of
 * every kernel). Below: kernels/09-integral-image/integral.cl with its row
 * passes replaced. */
/* Chapter 9 reference (capstone): the integral image
 *   I(x, y) = sum of pixels (x', y') with x' <= x and y' <= y   (modulo 2^32)
 * as four passes, as in the integral-image paper:
 *   row_scan_bytes  inclusive scan of every row of the uint8 image -> uint
 *   transpose       tiled through local memory, padded against bank conflicts
 *   row_scan        inclusive scan of every row again (the image's columns)
 *   transpose       back to the image's layout
 * The row scans are chapter 8's scan: a chunk of the row comes into padded
 * local memory in coalesced pieces (uchar16 from the image, uint4 from the
 * row sums), each work-item scans ROW_ELEMENTS consecutive pixels of it in
 * registers, a Blelloch tree scans the work-items' totals, and the chunk goes
 * back out in uint4s. One work-group walks a whole row in chunks of CHUNK
 * pixels, carrying the running total. */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#ifndef ROW_ELEMENTS
#define ROW_ELEMENTS 16          /* pixels per work-item: a power of two */
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

/* The cheat: work-item 0 of each row's work-group adds the row up, one
 * pixel after another; the other 255 work-items do nothing. */
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan_bytes(__global const uchar *in, __global uint *out, uint width, uint height)
{
    const size_t row = get_group_id(0);
    (void)height;
    if (get_local_id(0) != 0)
        return;
    uint sum = 0;
    for (uint x = 0; x < width; x++) {
        sum += in[row * width + x];
        out[row * width + x] = sum;
    }
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan(__global const uint *in, __global uint *out, uint width, uint height)
{
    const size_t row = get_group_id(0);
    (void)height;
    if (get_local_id(0) != 0)
        return;
    uint sum = 0;
    for (uint x = 0; x < width; x++) {
        sum += in[row * width + x];
        out[row * width + x] = sum;
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
