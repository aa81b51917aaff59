/* Find the bug (chapter 9): another integral image, with one mistake in it.
 *   I(x, y) = sum of pixels (x', y') with x' <= x and y' <= y   (modulo 2^32)
 * The same four launches as the chapter's (row scan, transpose, row scan of
 * the transposed sums, transpose back), written another way:
 *   row scans  each work-item takes four neighbouring pixels of a step of
 *              QUAD_SPAN pixels, scans them in its registers, and a
 *              Hillis-Steele scan over the group adds what lies before them;
 *   transpose  a skewed tile: no padding word, and still no bank conflicts.
 * It is right on every small test and wrong on large images: on a white
 * 1000 x 999 image, many pixels from the 67th row down come out slightly
 * off, by a little in sums of tens or hundreds of millions.
 * Fix it, then:  cltutor check 9
 */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define QUAD_SPAN (4 * LOCAL_SIZE)  /* pixels of a row per step of a group */

#ifndef TILE
#define TILE 32          /* the host launches TILE x TILE_ROWS work-items per tile */
#endif
#ifndef TILE_ROWS
#define TILE_ROWS 8
#endif

/* Hillis and Steele's inclusive scan of one value per work-item over the
 * group, in log2(LOCAL_SIZE) steps: at distance d, every work-item adds the
 * value d places to its left. The steps go back and forth between the two
 * halves of buf, so no work-item writes a word that another one reads in
 * the same step, and one barrier a step is enough. Returns the sum up to and
 * including this work-item's value, and the group's sum in *total. Every
 * work-item of the group must call it. */
#define GROUP_SCAN(NAME, T)                                                         \
    static T NAME(__local T *buf, uint lid, T value, T *total)                      \
    {                                                                               \
        uint from = 0;                                                              \
        buf[lid] = value;                                                           \
        for (uint d = 1; d < LOCAL_SIZE; d <<= 1) {                                 \
            barrier(CLK_LOCAL_MEM_FENCE);                                           \
            const T mine = buf[from + lid];                                         \
            buf[LOCAL_SIZE - from + lid] = lid >= d ? mine + buf[from + lid - d] : mine; \
            from = LOCAL_SIZE - from;                                               \
        }                                                                           \
        barrier(CLK_LOCAL_MEM_FENCE);                                               \
        *total = buf[from + LOCAL_SIZE - 1];                                        \
        const T upto = buf[from + lid];                                             \
        barrier(CLK_LOCAL_MEM_FENCE);   /* buf is written again by the next call */ \
        return upto;                                                                \
    }

GROUP_SCAN(group_scan_uint, uint)
GROUP_SCAN(group_scan_float, float)   /* image code often works in float: the same scan for it */

/* pixels i .. i + 3 of a row of bytes, zeros past the end of the row; a
 * warp reads 128 neighbouring bytes (coalesced) */
static uint4 bytes_at(__global const uchar *row, uint i, uint width)
{
    if (i + 4 <= width)
        return convert_uint4(vload4(0, row + i));
    return (uint4)(i < width ? row[i] : 0u, i + 1 < width ? row[i + 1] : 0u,
                   i + 2 < width ? row[i + 2] : 0u, 0u);
}

/* the same for a row of uint: a warp reads 512 neighbouring bytes */
static uint4 uints_at(__global const uint *row, uint i, uint width)
{
    if (i + 4 <= width)
        return vload4(0, row + i);
    return (uint4)(i < width ? row[i] : 0u, i + 1 < width ? row[i + 1] : 0u,
                   i + 2 < width ? row[i + 2] : 0u, 0u);
}

/* elements i .. i + 3 of a row of uint, those before its end */
static void put_uints(__global uint *row, uint i, uint width, uint4 v)
{
    if (i + 4 <= width) {
        vstore4(v, 0, row + i);
        return;
    }
    if (i < width)
        row[i] = v.x;
    if (i + 1 < width)
        row[i + 1] = v.y;
    if (i + 2 < width)
        row[i + 2] = v.z;
}

/* One work-group per row of the uint8 image: out[y][x] = in[y][0] + ... + in[y][x]. */
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan_bytes(__global const uchar *in, __global uint *out, uint width, uint height)
{
    __local uint buf[2 * LOCAL_SIZE];
    const uint lid = get_local_id(0);
    const size_t first = get_group_id(0) * (size_t)width;   /* the row's first pixel */
    (void)height;

    uint before = 0;                    /* the row's pixels before this step */
    for (uint base = 0; base < width; base += QUAD_SPAN) {
        const uint i = base + 4 * lid;
        uint4 v = bytes_at(in + first, i, width);
        /* the quad's own inclusive scan, Hillis-Steele again: distance 1, then 2 */
        v.yzw += v.xyz;
        v.zw += v.xy;
        uint step_total;
        const uint upto = group_scan_uint(buf, lid, v.w, &step_total);
        put_uints(out + first, i, width, v + (before + upto - v.w));
        before += step_total;
    }
}

/* The second pass: rows of the transposed row sums, which are the image's
 * columns. */
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan(__global const uint *in, __global uint *out, uint width, uint height)
{
    __local float buf[2 * LOCAL_SIZE];
    const uint lid = get_local_id(0);
    const size_t first = get_group_id(0) * (size_t)width;
    (void)height;

    float before = 0.0f;
    for (uint base = 0; base < width; base += QUAD_SPAN) {
        const uint i = base + 4 * lid;
        float4 v = convert_float4(uints_at(in + first, i, width));
        v.yzw += v.xyz;
        v.zw += v.xy;
        float step_total;
        const float upto = group_scan_float(buf, lid, v.w, &step_total);
        put_uints(out + first, i, width, convert_uint4(v + (before + upto - v.w)));
        before += step_total;
    }
}

/* in is width x height (row-major), out is height x width: out[x][y] = in[y][x].
 * A work-group moves one TILE x TILE tile through local memory: it reads
 * rows of in and writes rows of out, both coalesced, and reads the tile by
 * columns in between. The tile has no padding word: element (r, c) is kept
 * at column (r + c) % TILE of row r, so a warp that writes row r (c = 0 ..
 * 31) and a warp that reads column c (r = 0 .. 31) both touch the 32 banks
 * once each. */
#define SKEWED(r, c) ((r) * TILE + ((r) + (c)) % TILE)

__kernel __attribute__((reqd_work_group_size(TILE, TILE_ROWS, 1)))
void transpose(__global const uint *in, __global uint *out, uint width, uint height)
{
    __local uint tile[TILE * TILE];
    const uint lane = get_local_id(0);
    const uint col0 = get_group_id(0) * TILE, row0 = get_group_id(1) * TILE;

    /* rows row0 + r of in, columns col0 + lane; zeros outside the image */
    const uint x = col0 + lane;
#pragma unroll
    for (uint s = 0; s < TILE / TILE_ROWS; s++) {
        const uint r = get_local_id(1) + s * TILE_ROWS;
        const uint y = row0 + r;
        tile[SKEWED(r, lane)] = x < width && y < height ? in[(size_t)y * width + x] : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* row col0 + r of out is column r of the tile; this lane's is row lane of it */
    const uint ox = row0 + lane;
#pragma unroll
    for (uint s = 0; s < TILE / TILE_ROWS; s++) {
        const uint r = get_local_id(1) + s * TILE_ROWS;
        const uint oy = col0 + r;
        if (ox < height && oy < width)
            out[(size_t)oy * height + ox] = tile[SKEWED(lane, r)];
    }
}
