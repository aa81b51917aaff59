#!/bin/sh
# cltutor devices, --device by index and by name, and a machine with no OpenCL device.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, json_check, a workspace in $tmp

expect "devices" 0 '^ \* 0 ' -- "$bin" devices
json_check "devices --json" "len(j)>=1 and j[0]['index']==0 and sum(d['default'] for d in j)==1" -- "$bin" devices --json
expect "device by index" 0 'Correct' -- "$bin" run 2 --solution --no-timing --size 200x8 --device 0
name=$("$bin" devices --json | python3 -c "import json,sys; print(json.load(sys.stdin)[0]['name'][:6].upper())")
expect "device by part of its name, any case" 0 'Correct' -- "$bin" run 2 --solution --no-timing --size 200x8 --device "$name"
expect "device index out of range" 64 'only [0-9]+ device' -- "$bin" run 2 --solution --device 99
expect "device name that matches nothing" 64 "matches no device" -- "$bin" run 2 --solution --device nosuchgpu
mkdir -p "$tmp/no-icd"
expect "no OpenCL device: exit 69" 69 'No OpenCL device|no OpenCL device' -- env OCL_ICD_VENDORS="$tmp/no-icd" "$bin" run 2 --solution
expect "devices without any: exit 69" 69 'No OpenCL device' -- env OCL_ICD_VENDORS="$tmp/no-icd" "$bin" devices

finish
