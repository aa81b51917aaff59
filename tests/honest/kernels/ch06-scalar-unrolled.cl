/* Chapter 6, honest variant: one float at a time, the way a convolution
 * reads its filter taps.
 *
 * Modelled on NVIDIA's OpenCL SDK sample oclConvolutionSeparable: the data
 * tile is staged in __local memory by the group, with a #pragma unroll'ed
 * copy loop, and the coefficients (here: the centroid's features) are read
 * one scalar at a time from a __constant pointer inside a #pragma unroll'ed
 * loop, every work-item reading the same tap at the same moment. The squared
 * differences are summed in the plain sequential order of the book's GPU5,
 * one scalar accumulator, not four float4 lanes. The tile is the chapter's
 * feature-major layout, conflict-free.
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

#pragma unroll 8
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
        int k = 0;
#pragma unroll 8
        for (; k < n_staged; k++) {
            float t = tile[k * LOCAL_SIZE + lid] - centroid[k];
            dist += t * t;
        }
        /* descriptors longer than LOCAL_FEATURES: the rest from global memory */
        for (; k < n_features; k++) {
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
