/* Chapter 8 variant: 4 consecutive elements per work-item (blocks of 1024),
 * each loaded straight from global memory as one uint4 (no local staging),
 * scanned in registers; a padded Blelloch tree over the 256 work-item totals.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define ELEMENTS 4
#define BLOCK (ELEMENTS * LOCAL_SIZE)
#define PAD(i) ((i) + ((i) >> 5))

__kernel void block_size(__global uint *size)
{
    size[0] = BLOCK;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_blocks(__global const uint *in, __global uint *out, __global uint *block_sums, uint n)
{
    __local uint tree[PAD(LOCAL_SIZE - 1) + 1];
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * BLOCK;
    const uint i = base + lid * ELEMENTS;
    uint4 x;
    if (i + 4 <= n)
        x = vload4(0, in + i);
    else
        x = (uint4)(i < n ? in[i] : 0, i + 1 < n ? in[i + 1] : 0, i + 2 < n ? in[i + 2] : 0, 0);
    uint4 e;
    e.s0 = 0;
    e.s1 = x.s0;
    e.s2 = e.s1 + x.s1;
    e.s3 = e.s2 + x.s2;
    const uint sum = e.s3 + x.s3;

    tree[PAD(lid)] = sum;
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
    if (lid == 0) {
        block_sums[get_group_id(0)] = total;
        tree[PAD(LOCAL_SIZE - 1)] = 0;
    }
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
    const uint4 r = e + tree[PAD(lid)];
    if (i + 4 <= n) {
        vstore4(r, 0, out + i);
    } else {
        if (i < n) out[i] = r.s0;
        if (i + 1 < n) out[i + 1] = r.s1;
        if (i + 2 < n) out[i + 2] = r.s2;
    }
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void add_sums(__global uint *data, __global const uint *block_offsets, uint n)
{
    const uint base = get_group_id(0) * BLOCK;
    const uint offset = block_offsets[get_group_id(0)];
    for (uint k = 0; k < ELEMENTS; k++) {
        const uint i = base + k * LOCAL_SIZE + get_local_id(0);
        if (i < n) data[i] += offset;
    }
}
