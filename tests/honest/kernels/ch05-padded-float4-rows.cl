/* Chapter 5, honest variant: the descriptors are staged in __local memory as
 * ROWS of float4 (one row per descriptor, row-major), padded by one float4.
 *
 * The chapter's tile is feature-major (row k = feature k of 64 descriptors)
 * and read one float at a time. Here work-item lid owns row lid, holding its
 * descriptor as LOCAL_FEATURES/4 float4s plus one float4 of padding, and the
 * distance loop reads it back 16 bytes at a time: a quarter of the local
 * load instructions. The padding makes the row stride 17 float4s = 68 words,
 * so the 8 work-items served in one phase of a 128-bit access start in banks
 * 0, 4, 8, ..., 28: no bank conflict (without the padding all 8 would start
 * in bank 0). The copy still reads the transposed global array with
 * coalesced loads (neighbouring work-items, neighbouring words).
 */
#ifndef LOCAL_FEATURES
#define LOCAL_FEATURES 64
#endif
#define ROW (LOCAL_FEATURES / 4 + 1)   /* float4s per row, one of them padding */

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __global const float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    __local float4 tile[LOCAL_SIZE * ROW];   /* 64 x 17 x 16 B = 17 KiB */

    int d = get_global_id(0);
    int lid = get_local_id(0);
    int in_range = d < n_descriptors;
    int n_staged = min(n_features, LOCAL_FEATURES);
    int nq = n_staged / 4;
    __local float4 *row = tile + lid * ROW;

    for (int q = 0; q < nq; q++) {
        float4 v = (float4)(0.0f);
        if (in_range)
            v = (float4)(descriptors[(4 * q + 0) * n_descriptors + d],
                         descriptors[(4 * q + 1) * n_descriptors + d],
                         descriptors[(4 * q + 2) * n_descriptors + d],
                         descriptors[(4 * q + 3) * n_descriptors + d]);
        row[q] = v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!in_range)
        return;

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * n_features;
        float4 acc = (float4)(0.0f);
        int q = 0;
        for (; q < nq; q++) {
            float4 diff = row[q] - vload4(q, centroid);
            acc += diff * diff;
        }
        /* descriptors longer than LOCAL_FEATURES: the rest from global memory */
        for (int k = 4 * q; k < n_features; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 diff = x - vload4(k / 4, centroid);
            acc += diff * diff;
        }
        float dist = (acc.x + acc.y) + (acc.z + acc.w);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
