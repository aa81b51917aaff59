/* Test kernel: does not compile. */
__kernel void probe(__global const float *descriptors)
{
    descriptors[0] = undefined_name;
}
