# Sourced by bench/lessons/*.sh: builds the C program bench/lessons/NAME.c
# (and clbench.h) with the OpenCL loader, makes NVIDIA's OpenCL driver
# visible where its library is installed outside the loader's list (as on
# the course's GPU machines), and runs the program with a header saying
# when, where and how it ran. CLBENCH_ROOT tells the program where the
# checkout is, for the programs that read a chapter's kernel from it.
#   . bench/lessons/lib.sh; lesson_bench NAME [ARGS...]
lesson_bench() {
  name=$1; shift
  here=$(cd "$(dirname "$0")" && pwd)
  tmp=$(mktemp -d) || return 1
  trap 'rm -rf "$tmp"' EXIT INT TERM
  cc=${CC:-cc}
  if ! printf '#include <CL/cl.h>\n' | "$cc" -E - > /dev/null 2>&1; then
    echo "$name: no OpenCL headers: apt-get install opencl-c-headers ocl-icd-opencl-dev" >&2
    return 1
  fi
  "$cc" -O2 -std=c11 -Wall -o "$tmp/$name" "$here/$name.c" -lOpenCL -lm -ldl || return 1
  CLBENCH_ROOT=$(cd "$here/../.." && pwd); export CLBENCH_ROOT
  if [ -e /usr/local/nvidia/lib64/libnvidia-opencl.so.1 ] && [ -z "${OCL_ICD_VENDORS:-}" ]; then
    mkdir -p "$tmp/icd"
    echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > "$tmp/icd/nvidia.icd"
    for f in /etc/OpenCL/vendors/*.icd; do [ -e "$f" ] && cp "$f" "$tmp/icd/"; done
    export OCL_ICD_VENDORS="$tmp/icd"
  fi
  echo "date (UTC): $(date -u '+%Y-%m-%d %H:%M')"
  echo "host: $(uname -n), $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)), load $(cut -d' ' -f1-3 /proc/loadavg)"
  command -v nvidia-smi > /dev/null 2>&1 &&
    echo "GPU, driver: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -n 1)"
  echo "command: sh bench/lessons/$name.sh${*:+ $*}"
  echo "built with: $("$cc" --version | head -n 1)"
  echo
  "$tmp/$name" "$@"
}
