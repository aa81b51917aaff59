/* Four floats read with vload4 from a float *: the pointer promises only a
 * float's alignment (4 bytes). bench/ptx/vload-vs-float4-pointer.sh */
__kernel void sum_vload4(__global const float *p, __global float *out)
{
    int i = get_global_id(0);
    float4 v = vload4(i, p);
    out[i] = (v.x + v.y) + (v.z + v.w);
}
