/* Chapter 5 variant: the reference's tile, but the distance loop is scalar and
 * measures two centroids per pass, so each local read of the descriptor feeds
 * two accumulators (an odd last centroid is measured alone).
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#ifndef LOCAL_FEATURES
#define LOCAL_FEATURES 64
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __global const float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    __local float tile[LOCAL_FEATURES * LOCAL_SIZE];

    int d = get_global_id(0);
    int lid = get_local_id(0);
    int in_range = d < n_descriptors;
    int n_staged = min(n_features, LOCAL_FEATURES);

    for (int k = 0; k < n_staged; k++)
        tile[k * LOCAL_SIZE + lid] = in_range ? descriptors[k * n_descriptors + d] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!in_range)
        return;

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c += 2) {
        __global const float *p = centroids + c * n_features;
        int two = c + 1 < n_centroids;
        __global const float *q = two ? p + n_features : p;
        float sp = 0.0f, sq = 0.0f;
        int k = 0;
        for (; k < n_staged; k++) {
            float x = tile[k * LOCAL_SIZE + lid];
            float ep = x - p[k];
            float eq = x - q[k];
            sp += ep * ep;
            sq += eq * eq;
        }
        for (; k < n_features; k++) {
            float x = descriptors[k * n_descriptors + d];
            float ep = x - p[k];
            float eq = x - q[k];
            sp += ep * ep;
            sq += eq * eq;
        }
        if (sp < best) { best = sp; nearest = c; }
        if (two && sq < best) { best = sq; nearest = c + 1; }
    }
    atomic_inc(&histogram[nearest]);
}
