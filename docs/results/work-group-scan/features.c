#include <CL/cl.h>
#include <stdio.h>
#include <string.h>
int main(void){cl_platform_id p[4];cl_uint np;cl_device_id d;char b[16384];size_t s;
clGetPlatformIDs(4,p,&np);for(cl_uint i=0;i<np;i++)if(!clGetDeviceIDs(p[i],CL_DEVICE_TYPE_GPU,1,&d,NULL))break;
clGetDeviceInfo(d,CL_DEVICE_NAME,sizeof b,b,0);printf("%s\n",b);
clGetDeviceInfo(d,CL_DEVICE_VERSION,sizeof b,b,0);printf("%s\n",b);
clGetDeviceInfo(d,CL_DEVICE_OPENCL_C_VERSION,sizeof b,b,0);printf("%s\n",b);
cl_name_version nv[64];if(!clGetDeviceInfo(d,CL_DEVICE_OPENCL_C_FEATURES,sizeof nv,nv,&s))for(size_t k=0;k<s/sizeof*nv;k++)printf("feature %s\n",nv[k].name);
cl_bool w=0;clGetDeviceInfo(d,CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,sizeof w,&w,0);printf("wg collective support %d\n",w);
clGetDeviceInfo(d,CL_DEVICE_EXTENSIONS,sizeof b,b,0);printf("ext: %s\n",b);
cl_context c=clCreateContext(0,1,&d,0,0,0);
const char*src[3]={"__kernel void k(__global uint*a){a[get_global_id(0)]=work_group_scan_inclusive_add(a[get_global_id(0)]);}",
"#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n__kernel void k(__global uint*a){a[get_global_id(0)]=sub_group_scan_inclusive_add(a[get_global_id(0)]);}",
"__kernel void k(__global uint*a){a[get_global_id(0)]=sub_group_reduce_add(a[get_global_id(0)]);}"};
const char*opt[4]={"-cl-std=CL3.0","-cl-std=CL2.0","-cl-std=CL1.2",""};
for(int i=0;i<3;i++)for(int j=0;j<4;j++){cl_program pr=clCreateProgramWithSource(c,1,&src[i],0,0);cl_int e=clBuildProgram(pr,1,&d,opt[j],0,0);
b[0]=0;clGetProgramBuildInfo(pr,d,CL_PROGRAM_BUILD_LOG,sizeof b,b,0);b[160]=0;for(char*q=b;*q;q++)if(*q=='\n')*q=' ';printf("kernel %d opt '%s': %d %s\n",i,opt[j],e,b);}
return 0;}
