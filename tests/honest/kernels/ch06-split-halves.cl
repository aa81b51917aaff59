/* Chapter 6, honest variant: the group's two warps split the centroids, and
 * each work-item compares TWO staged descriptors with every centroid of its
 * half; the local tile is truly shared.
 *
 * An adaptation, to the local tile, of the register-tiling idea that
 * lesson 6's "Beyond" section describes in prose: the group (LOCAL_SIZE = 64
 * work-items, two warps of 32) stages its descriptors in __local memory as
 * in chapter 5. Then half h (work-items h*32 .. h*32+31) takes half of the
 * centroids, and lane l of it compares descriptors l and l + 32 of the tile
 * with each of them. One vload4 from __constant memory (uniform across the
 * warp: a broadcast) now feeds two descriptors, so constant loads per
 * operation halve, while local loads and arithmetic per work-item stay the
 * same as in the chapter's kernel. Every descriptor is read by two
 * work-items that did not both write it, so the barrier is required. At the
 * end each half leaves its best distance and centroid per descriptor in
 * local memory; after a second barrier, work-item lid keeps the first
 * half's answer unless the second half's distance is strictly smaller,
 * which is the answer of a walk over all the centroids in order (ties go to
 * the lower index). Assumes 32-wide warps (NVIDIA): on a 64-wide AMD
 * wavefront the two halves would read two different centroid addresses.
 */
#ifndef LOCAL_FEATURES
#define LOCAL_FEATURES 64
#endif
#define HALF (LOCAL_SIZE / 2)

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __constant float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    __local float tile[LOCAL_FEATURES * LOCAL_SIZE];
    __local float best_dist[2 * LOCAL_SIZE];
    __local int best_idx[2 * LOCAL_SIZE];

    int d = get_global_id(0);
    int lid = get_local_id(0);
    int in_range = d < n_descriptors;
    int n_staged = min(n_features, LOCAL_FEATURES);

    /* 1. stage, as in chapter 5 */
    for (int k = 0; k < n_staged; k++)
        tile[k * LOCAL_SIZE + lid] = in_range ? descriptors[k * n_descriptors + d] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);

    /* 2. half h, lane l: descriptors l and l + HALF, centroids [c_begin, c_end) */
    int h = lid / HALF;
    int l = lid - h * HALF;
    int d0 = d - lid;
    int da = d0 + l, db = d0 + l + HALF;
    int a_in = da < n_descriptors, b_in = db < n_descriptors;
    int split = (n_centroids + 1) / 2;
    int c_begin = h ? split : 0;
    int c_end = h ? n_centroids : split;

    float best_a = FLT_MAX, best_b = FLT_MAX;
    int near_a = c_begin, near_b = c_begin;
    for (int c = c_begin; c < c_end; c++) {
        __constant float *centroid = centroids + c * n_features;
        float4 acc_a = (float4)(0.0f);
        float4 acc_b = (float4)(0.0f);
        int k = 0;
        for (; k < n_staged; k += 4) {
            float4 y = vload4(k / 4, centroid);
            float4 xa = (float4)(tile[(k + 0) * LOCAL_SIZE + l],
                                 tile[(k + 1) * LOCAL_SIZE + l],
                                 tile[(k + 2) * LOCAL_SIZE + l],
                                 tile[(k + 3) * LOCAL_SIZE + l]);
            float4 xb = (float4)(tile[(k + 0) * LOCAL_SIZE + l + HALF],
                                 tile[(k + 1) * LOCAL_SIZE + l + HALF],
                                 tile[(k + 2) * LOCAL_SIZE + l + HALF],
                                 tile[(k + 3) * LOCAL_SIZE + l + HALF]);
            float4 ea = xa - y, eb = xb - y;
            acc_a += ea * ea;
            acc_b += eb * eb;
        }
        /* descriptors longer than LOCAL_FEATURES: the rest from global memory */
        for (; k < n_features; k += 4) {
            float4 y = vload4(k / 4, centroid);
            float4 xa = (float4)(0.0f), xb = (float4)(0.0f);
            if (a_in)
                xa = (float4)(descriptors[(k + 0) * n_descriptors + da],
                              descriptors[(k + 1) * n_descriptors + da],
                              descriptors[(k + 2) * n_descriptors + da],
                              descriptors[(k + 3) * n_descriptors + da]);
            if (b_in)
                xb = (float4)(descriptors[(k + 0) * n_descriptors + db],
                              descriptors[(k + 1) * n_descriptors + db],
                              descriptors[(k + 2) * n_descriptors + db],
                              descriptors[(k + 3) * n_descriptors + db]);
            float4 ea = xa - y, eb = xb - y;
            acc_a += ea * ea;
            acc_b += eb * eb;
        }
        float dist_a = (acc_a.x + acc_a.y) + (acc_a.z + acc_a.w);
        float dist_b = (acc_b.x + acc_b.y) + (acc_b.z + acc_b.w);
        if (dist_a < best_a) {
            best_a = dist_a;
            near_a = c;
        }
        if (dist_b < best_b) {
            best_b = dist_b;
            near_b = c;
        }
    }

    /* 3. the two halves meet in local memory */
    best_dist[h * LOCAL_SIZE + l] = best_a;
    best_idx[h * LOCAL_SIZE + l] = near_a;
    best_dist[h * LOCAL_SIZE + l + HALF] = best_b;
    best_idx[h * LOCAL_SIZE + l + HALF] = near_b;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!in_range)
        return;
    int nearest = best_dist[LOCAL_SIZE + lid] < best_dist[lid] ? best_idx[LOCAL_SIZE + lid]
                                                               : best_idx[lid];
    atomic_inc(&histogram[nearest]);
}
