/* Cheat (chapter 9): the reference's row scans, and a transpose that goes
 * through a __local tile without transposing in it. Each work-item reads
 * the input element its output element needs straight down a column of the
 * input (neighbouring work-items read elements a row, width * 4 bytes,
 * apart: a sector each), writes it to tile[j][tx], and after a barrier
 * copies tile[j][tx] back out to a row of the output (neighbouring
 * work-items write neighbouring words: coalesced). The tile is written and
 * read along its rows, so no bank conflict either. The integral image is
 * right: the transpose is a true transpose, only the uncoalesced side moved
 * from the stores (ch09b-strided-transpose.cl) to the loads.
 * Hole it tries: the chapter's transpose checks look at the stores
 * (coalesced_stores@transpose), at bank conflicts (none: the tile is a
 * pass-through) and at local memory being used (it is, in all three
 * kernels), so none of them sees the strided loads.
 * Expected: cost fails (every load of the transpose moves a 32-byte sector
 * for 4 useful bytes); a coalesced_loads@transpose check would fail it too.
 * Seen 2026-11-27: the three transpose checks pass, cost = 1.37 fails
 * (limit 1.2, at 64x48); on an NVIDIA H200 at 8192x8192 it took 0.888 ms
 * against the reference's 0.596 (1.49x).
 * Below: kernels/09-integral-image/integral.cl with its transpose replaced. */
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

/* Pixels start .. start + CHUNK - 1 of a row go into block[PAD(0 .. CHUNK-1)],
 * zeros past the end of the row. Work-item lid takes 16-byte pieces lid,
 * lid + LOCAL_SIZE, ... (coalesced), whole uchar16s where the rows start
 * 16-byte aligned, one pixel at a time otherwise. PAD skips a word only
 * after every 32, so the 16 words of a piece stay together, and lane t's
 * words land in banks that differ across the 32 lanes of a warp. */
static void load_bytes(__global const uchar *src, uint start, uint width, int aligned, __local uint *block,
                       uint lid)
{
    for (uint q = lid; q < CHUNK / 16; q += LOCAL_SIZE) {
        const uint i = 16 * q, x0 = start + i;
        if (aligned && x0 + 16 <= width) {
            const uchar16 x = ((__global const uchar16 *)(src + start))[q];
            vstore16(convert_uint16(x), 0, block + PAD(i));
        } else {
            for (uint k = 0; k < 16; k++)
                block[PAD(i + k)] = x0 + k < width ? src[x0 + k] : 0;
        }
    }
}

/* The same for a row of uint: 4 elements per piece. */
static void load_uints(__global const uint *src, uint start, uint width, int aligned, __local uint *block,
                       uint lid)
{
    for (uint q = lid; q < CHUNK / 4; q += LOCAL_SIZE) {
        const uint i = 4 * q, x0 = start + i;
        if (aligned && x0 + 4 <= width) {
            vstore4(((__global const uint4 *)(src + start))[q], 0, block + PAD(i));
        } else {
            for (uint k = 0; k < 4; k++)
                block[PAD(i + k)] = x0 + k < width ? src[x0 + k] : 0;
        }
    }
}

static void store_uints(__global uint *dst, uint start, uint width, int aligned, __local const uint *block,
                        uint lid)
{
    for (uint q = lid; q < CHUNK / 4; q += LOCAL_SIZE) {
        const uint i = 4 * q, x0 = start + i;
        if (aligned && x0 + 4 <= width) {
            ((__global uint4 *)(dst + start))[q] = vload4(0, block + PAD(i));
        } else {
            for (uint k = 0; k < 4; k++)
                if (x0 + k < width)
                    dst[x0 + k] = block[PAD(i + k)];
        }
    }
}

/* The inclusive scan of block[PAD(0 .. CHUNK-1)] in place, plus carry.
 * Work-item lid scans elements lid * ROW_ELEMENTS ... in registers (with the
 * padding, the 32 lanes read 32 different banks), the tree scans the
 * work-items' totals. Returns the chunk's total. */
static uint scan_block(__local uint *block, __local uint *tree, uint lid, uint carry)
{
    const uint first = lid * ROW_ELEMENTS;
    uint v[ROW_ELEMENTS];
    uint sum = 0;
    for (uint k = 0; k < ROW_ELEMENTS; k++) {
        sum += block[PAD(first + k)];
        v[k] = sum;
    }
    tree[PAD(lid)] = sum;
    const uint total = scan_tree(tree, lid);
    /* the pixels before this work-item's in the chunk, and the earlier chunks */
    const uint prefix = carry + tree[PAD(lid)];
    for (uint k = 0; k < ROW_ELEMENTS; k++)
        block[PAD(first + k)] = v[k] + prefix;
    return total;
}

/* One work-group per row of the uint8 image: out[y][x] = in[y][0] + ... + in[y][x]. */
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan_bytes(__global const uchar *in, __global uint *out, uint width, uint height)
{
    __local uint block[PAD(CHUNK - 1) + 1];
    __local uint tree[PAD(LOCAL_SIZE - 1) + 1];
    const uint lid = get_local_id(0);
    const size_t row = get_group_id(0);
    __global const uchar *src = in + row * width;
    __global uint *dst = out + row * width;
    const int aligned = width % 16 == 0;   /* then every row starts 16-byte aligned */
    (void)height;

    uint carry = 0;                        /* sum of the row's earlier chunks */
    for (uint start = 0; start < width; start += CHUNK) {
        load_bytes(src, start, width, aligned, block, lid);
        barrier(CLK_LOCAL_MEM_FENCE);
        carry += scan_block(block, tree, lid, carry);
        barrier(CLK_LOCAL_MEM_FENCE);
        store_uints(dst, start, width, aligned, block, lid);
        barrier(CLK_LOCAL_MEM_FENCE);      /* block is refilled by the next chunk */
    }
}

/* The same for rows of uint (the second pass). */
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void row_scan(__global const uint *in, __global uint *out, uint width, uint height)
{
    __local uint block[PAD(CHUNK - 1) + 1];
    __local uint tree[PAD(LOCAL_SIZE - 1) + 1];
    const uint lid = get_local_id(0);
    const size_t row = get_group_id(0);
    __global const uint *src = in + row * width;
    __global uint *dst = out + row * width;
    const int aligned = width % 4 == 0;
    (void)height;

    uint carry = 0;
    for (uint start = 0; start < width; start += CHUNK) {
        load_uints(src, start, width, aligned, block, lid);
        barrier(CLK_LOCAL_MEM_FENCE);
        carry += scan_block(block, tree, lid, carry);
        barrier(CLK_LOCAL_MEM_FENCE);
        store_uints(dst, start, width, aligned, block, lid);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* in is width x height (row-major), out is height x width: out[x][y] = in[y][x].
 * A work-group fills one TILE x TILE tile of the output: out[y][x] for
 * y = x0 + j, x = y0 + tx is in[x][y], read down a column of the input. */
__kernel __attribute__((reqd_work_group_size(TILE, TILE_ROWS, 1)))
void transpose(__global const uint *in, __global uint *out, uint width, uint height)
{
    __local uint tile[TILE][TILE + 1];
    const uint tx = get_local_id(0), ty = get_local_id(1);
    const uint x0 = get_group_id(0) * TILE, y0 = get_group_id(1) * TILE;

    for (uint j = ty; j < TILE; j += TILE_ROWS) {
        const uint x = y0 + tx, y = x0 + j;     /* x, y in out: height columns, width rows */
        if (x < height && y < width)
            tile[j][tx] = in[(size_t)x * width + y];   /* a column of in: strided */
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = ty; j < TILE; j += TILE_ROWS) {
        const uint x = y0 + tx, y = x0 + j;
        if (x < height && y < width)
            out[(size_t)y * height + x] = tile[j][tx];  /* a row of out: coalesced */
    }
}
