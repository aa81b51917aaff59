/* Cheat (chapter 7): one global atomic per byte, no sub-histograms; a
 * 128-word __local array is written and read once so that the kernel "uses"
 * local memory, and its accesses are conflict-free. Hole it tries: checks
 * that ask whether local memory is used, or only for the absence of bank
 * conflicts. Expected: local_atomics fails (every counting atomic is global). */
#define BINS 256

__kernel void histogram(__global const uchar *data, uint n, __global uint *histogram)
{
    __local uint token[128];
    const uint lid = get_local_id(0);
    token[lid % 128] = 0;

    const uint chunks = n / 16;
    for (uint c = get_global_id(0); c < chunks; c += get_global_size(0)) {
        const uchar16 v = vload16(c, data);
        atomic_inc(&histogram[v.s0]); atomic_inc(&histogram[v.s1]);
        atomic_inc(&histogram[v.s2]); atomic_inc(&histogram[v.s3]);
        atomic_inc(&histogram[v.s4]); atomic_inc(&histogram[v.s5]);
        atomic_inc(&histogram[v.s6]); atomic_inc(&histogram[v.s7]);
        atomic_inc(&histogram[v.s8]); atomic_inc(&histogram[v.s9]);
        atomic_inc(&histogram[v.sa]); atomic_inc(&histogram[v.sb]);
        atomic_inc(&histogram[v.sc]); atomic_inc(&histogram[v.sd]);
        atomic_inc(&histogram[v.se]); atomic_inc(&histogram[v.sf]);
    }
    const uint tail = chunks * 16 + get_global_id(0);
    if (tail < n)
        atomic_inc(&histogram[data[tail] + token[lid % 128]]);
}
