/* Find the bug (chapter 6): GPU5 as the book prints it, give or take. The
 * book's listing moves the centroids to __constant memory, as this chapter
 * does, and is still named after the kernel before it. This one reads the
 * centroids one float at a time, as the book does, and adds a bounds guard.
 * It is right for 64 descriptors and wrong for 500.
 * Fix it, then:  cltutor check 6
 */
#ifndef LOCAL_FEATURES
#define LOCAL_FEATURES 64
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __constant float *centroids,
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

    /* the group's descriptors, staged in local memory */
    for (int k = 0; k < n_staged; k++)
        tile[k * LOCAL_SIZE + lid] = in_range ? descriptors[k * n_descriptors + d] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!in_range)
        return;

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __constant float *centroid = centroids + c * n_features;
        float dist = 0.0f;
        for (int k = 0; k < n_staged; k++) {
            float t = descriptors[k * LOCAL_SIZE + d] - centroid[k];
            dist += t * t;
        }
        for (int k = n_staged; k < n_features; k++) {
            float t = descriptors[k * n_descriptors + d] - centroid[k];
            dist += t * t;
        }
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
