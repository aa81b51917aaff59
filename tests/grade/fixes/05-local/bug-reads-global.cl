/* Find the bug (chapter 5): each work-item copies its descriptor into a
 * column of local memory with a pointer walk, the group waits at the
 * barrier, and the distance loop then reads the descriptor four features
 * at a time. The answer is right for 64 descriptors and wrong for 1,000.
 * Where does the distance loop read the descriptor from? Fix it, then:
 *     cltutor check 5
 */
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
    /* column lid holds the first features of the group's descriptor lid */
    __local float staged[LOCAL_FEATURES * LOCAL_SIZE];

    int lid = get_local_id(0);
    int d = get_group_id(0) * LOCAL_SIZE + lid;
    int n_staged = min(n_features, LOCAL_FEATURES);

    /* the copy: down column d of the transposed array, down column lid of staged */
    if (d < n_descriptors) {
        __global const float *from = descriptors + d;
        __local float *to = staged + lid;
        for (int k = 0; k < n_staged; k++) {
            *to = *from;
            from += n_descriptors;
            to += LOCAL_SIZE;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);   /* outside the test: the whole group waits */
    if (d >= n_descriptors)
        return;

    __local const float *mine = staged + lid;       /* feature k at mine[k * LOCAL_SIZE] */
    int nearest = 0;
    float best = FLT_MAX;
    __global const float *p = centroids;            /* centroid c, moved on by one row per step */
    for (int c = 0; c < n_centroids; c++, p += n_features) {
        float4 s = (float4)(0.0f);
        int k = 0;
        for (; k < n_staged; k += 4) {
            float4 x;
            x.s0 = mine[k * LOCAL_SIZE];
            x.s1 = mine[(k + 1) * LOCAL_SIZE];
            x.s2 = mine[(k + 2) * LOCAL_SIZE];
            x.s3 = mine[(k + 3) * LOCAL_SIZE];
            x -= vload4(k / 4, p);
            s += x * x;
        }
        for (; k < n_features; k += 4) {   /* past LOCAL_FEATURES: from global memory */
            __global const float *g = descriptors + k * n_descriptors + d;
            float4 x = (float4)(g[0], g[n_descriptors], g[2 * n_descriptors], g[3 * n_descriptors]);
            x -= vload4(k / 4, p);
            s += x * x;
        }
        float dist = (s.x + s.y) + (s.z + s.w);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
