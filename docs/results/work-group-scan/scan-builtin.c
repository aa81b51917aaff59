#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#define N (1<<26)
const char*S="__kernel void a(__global const uint*i,__global uint*o){size_t g=get_global_id(0);o[g]=work_group_scan_exclusive_add(i[g]);}\n"
"__kernel void b(__global const uint*i,__global uint*o){__local uint t[256];size_t g=get_global_id(0);uint l=get_local_id(0),x=i[g];t[l]=x;"
"for(uint d=1;d<256;d<<=1){barrier(CLK_LOCAL_MEM_FENCE);uint v=l>=d?t[l-d]:0;barrier(CLK_LOCAL_MEM_FENCE);t[l]+=v;}o[g]=t[l]-x;}";
int main(){cl_platform_id p[4];cl_uint np;cl_device_id d;clGetPlatformIDs(4,p,&np);
for(cl_uint i=0;i<np;i++)if(!clGetDeviceIDs(p[i],CL_DEVICE_TYPE_GPU,1,&d,0))break;
char nm[256];clGetDeviceInfo(d,CL_DEVICE_NAME,256,nm,0);cl_context x=clCreateContext(0,1,&d,0,0,0);
cl_command_queue q=clCreateCommandQueue(x,d,CL_QUEUE_PROFILING_ENABLE,0);cl_program pr=clCreateProgramWithSource(x,1,&S,0,0);
if(clBuildProgram(pr,1,&d,"-cl-std=CL2.0",0,0)){puts("build failed");return 1;}
uint*h=malloc(4*N),*r=malloc(4*N);for(int i=0;i<N;i++)h[i]=rand();
cl_mem I=clCreateBuffer(x,CL_MEM_COPY_HOST_PTR,4*N,h,0),O=clCreateBuffer(x,0,4*N,0,0);
for(int k=0;k<2;k++){cl_kernel K=clCreateKernel(pr,k?"b":"a",0);clSetKernelArg(K,0,8,&I);clSetKernelArg(K,1,8,&O);
size_t g=N,l=256;double best=1e9;for(int t=0;t<11;t++){cl_event e;clEnqueueNDRangeKernel(q,K,1,0,&g,&l,0,0,&e);clWaitForEvents(1,&e);
cl_ulong a,b;clGetEventProfilingInfo(e,CL_PROFILING_COMMAND_START,8,&a,0);clGetEventProfilingInfo(e,CL_PROFILING_COMMAND_END,8,&b,0);if(t&&(b-a)/1e6<best)best=(b-a)/1e6;}
clEnqueueReadBuffer(q,O,1,0,4*N,r,0,0,0);int ok=1;uint s=0;for(int i=0;i<N&&ok;i++){if(i%256==0)s=0;ok=r[i]==s;s+=h[i];}
printf("%s %s %s %.3f ms %.0f GB/s\n",nm,k?"local":"wg",ok?"correct":"WRONG",best,8.0*N/best/1e6);}
return 0;}
