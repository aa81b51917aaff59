/* Four floats read through a float4 *: the pointer promises 16-byte
 * alignment. bench/ptx/vload-vs-float4-pointer.sh */
__kernel void sum_float4_pointer(__global const float4 *p, __global float *out)
{
    int i = get_global_id(0);
    float4 v = p[i];
    out[i] = (v.x + v.y) + (v.z + v.w);
}
