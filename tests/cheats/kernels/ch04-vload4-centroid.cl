/* Breaks chapter 4's wide_loads: the centroid read with vload4 from a float
 * pointer. The hole it tries: the GPU model once counted a vloadN as one
 * 16-byte load, while NVIDIA's OpenCL compiler and clang's NVPTX backend
 * emit four 4-byte loads for it (docs/results/ptx). Correct on every test;
 * on NVIDIA it makes as many load requests as chapter 3's kernel, so it must
 * fail wide_loads (the chapter's reference reads through a float4 pointer). */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int d = get_global_id(0);
    if (d >= n_descriptors)      /* the global size is rounded up to the work-group size */
        return;

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * n_features;
        float4 acc = (float4)(0.0f);   /* four partial sums, added up once at the end */
        for (int k = 0; k < n_features; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 diff = x - vload4(k / 4, centroid);   /* vload4 counts in float4s */
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
