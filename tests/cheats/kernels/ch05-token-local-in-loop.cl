/* Cheat (chapter 5, dilution): chapter 4's reference, the descriptors
 * still read from global memory in the inner loop, plus two reads per step
 * of a __local array of zeros. Hole it tries: local_loads is a share of all
 * load bytes, so 32 wasted bytes from __local next to 32 useful ones from
 * global make it 50%. Expected if the check were robust: local_loads fails
 * (the global reads the chapter removes are all still there). */
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    __local float4 token[LOCAL_SIZE];
    int lid = get_local_id(0);
    token[lid] = (float4)(0.0f);
    barrier(CLK_LOCAL_MEM_FENCE);

    int d = get_global_id(0);
    if (d >= n_descriptors)      /* the global size is rounded up to the work-group size */
        return;

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * n_features;
        float4 acc = (float4)(0.0f);   /* four partial sums, added up once at the end */
        float4 pad = (float4)(0.0f);
        for (int k = 0; k < n_features; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 diff = x - vload4(k / 4, centroid);   /* vload4 counts in float4s */
            acc += diff * diff;
            /* zeros, read for show */
            pad += token[(lid + k) % LOCAL_SIZE] + token[(lid + k + 1) % LOCAL_SIZE];
        }
        float dist = (acc.x + acc.y) + (acc.z + acc.w) + (pad.x + pad.y + pad.z + pad.w);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
