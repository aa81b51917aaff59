/* Chapter 6, honest variant: one float at a time, the way a convolution
 * reads its filter taps.
 *
 * Modelled on NVIDIA's OpenCL SDK sample oclConvolutionSeparable: the data
 * tile is staged in __local memory by the group, with a #pragma unroll'ed
 * copy loop, and the coefficients (here: the centroid's features) are read
 * one scalar at a time from a __constant pointer inside a #pragma unroll'ed
 * loop, every work-item reading the same tap at the same moment (a
 * broadcast). No float4 and no vload4: four scalar partial sums, feature k
 * going to sum k % 4, which keeps four independent chains of adds in flight
 * (one single running sum, as in the book's GPU5, made this kernel 9% slower
 * than the chapter's on an H200). The tile is the chapter's feature-major
 * layout, conflict-free.
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
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
        int k = 0;
#pragma unroll 4
        for (; k < n_staged; k += 4) {
            float t0 = tile[(k + 0) * LOCAL_SIZE + lid] - centroid[k + 0];
            float t1 = tile[(k + 1) * LOCAL_SIZE + lid] - centroid[k + 1];
            float t2 = tile[(k + 2) * LOCAL_SIZE + lid] - centroid[k + 2];
            float t3 = tile[(k + 3) * LOCAL_SIZE + lid] - centroid[k + 3];
            s0 += t0 * t0;
            s1 += t1 * t1;
            s2 += t2 * t2;
            s3 += t3 * t3;
        }
        /* descriptors longer than LOCAL_FEATURES: the rest from global memory */
        for (; k < n_features; k += 4) {
            float t0 = descriptors[(k + 0) * n_descriptors + d] - centroid[k + 0];
            float t1 = descriptors[(k + 1) * n_descriptors + d] - centroid[k + 1];
            float t2 = descriptors[(k + 2) * n_descriptors + d] - centroid[k + 2];
            float t3 = descriptors[(k + 3) * n_descriptors + d] - centroid[k + 3];
            s0 += t0 * t0;
            s1 += t1 * t1;
            s2 += t2 * t2;
            s3 += t3 * t3;
        }
        float dist = (s0 + s1) + (s2 + s3);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
