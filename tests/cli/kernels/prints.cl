/* Prints its arguments from one work-item and counts nothing: a learner's
 * printf debugging, shown under the wrong result. */
__kernel void histogram(__global const float *descriptors, __global const float *centroids,
                        __global uint *histogram, uint n_descriptors, uint n_centroids, uint n_features)
{
    if (get_global_id(0) == 0)
        printf("debug: n_descriptors = %u, n_centroids = %u\n", n_descriptors, n_centroids);
}
