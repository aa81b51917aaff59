#!/bin/sh
# Small kernels whose figures theory fixes: coalescing, float4, bank conflicts, atomics, __constant.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, course, figures, need_plugin
need_plugin

# ---- coalescing: 4-byte reads 32 bytes apart touch 32 sectors; neighbouring ones 4
figures "strided read: 12.5% efficient, 32 sectors per request" 0 coalescing.cl 1024x16 \
  "strided global load efficiency = 0.125" "strided global load sectors_per_request = 32" \
  "strided global load bytes_per_access = 4" "strided global load requests_per_warp = 1"
figures "coalesced read: 100% efficient, 4 sectors per request" 0 coalescing.cl 1024x16 \
  "coalesced global load efficiency = 1" "coalesced global load sectors_per_request = 4" \
  "coalesced global load distinct_addresses_avg = 32"

# ---- float4 through a float4 pointer: 16 bytes per work-item, a warp reads 512 contiguous bytes in one
# request; vload4 from a float pointer: four loads of 4 bytes (as NVIDIA's and clang's compilers emit it),
# four requests over the same 16 sectors
figures "float4 loads: 16 bytes per work-item, 16 sectors, 100%; vload4: four 4-byte requests" 0 float4.cl 1024x16 \
  "vload4 global load bytes_per_access = 4" "vload4 global load sectors_per_request = 4" \
  "vload4 global load efficiency = 1" \
  "pointer global load bytes_per_access = 16" "pointer global load sectors_per_request = 16" \
  "pointer global load efficiency = 1"

# ---- local memory: 32 banks of 4 bytes
figures "local strides 1, 2, 32, 33: bank conflicts 1, 2, 32, 1" 0 banks.cl 1024x16 \
  "store1 local store bank_conflict_max = 1" "store2 local store bank_conflict_max = 2" \
  "store32 local store bank_conflict_max = 32" "store33 local store bank_conflict_max = 1" \
  "load1 local load bank_conflict_avg = 1" "load2 local load bank_conflict_avg = 2" \
  "load32 local load bank_conflict_avg = 32" "load33 local load bank_conflict_avg = 1" noissues

# ---- atomics: one address for the whole warp vs one each
figures "atomics: same address contention 32, spread 1" 0 atomics.cl 1024x32 \
  "same global atomic contention_avg = 32" "same global atomic contention_max = 32" \
  "spread global atomic contention_max = 1" "spread global atomic executions = 1024" \
  "same global atomic executions = 1024"

# ---- __constant: broadcast vs divergent
figures "constant: broadcast 1 address per warp, divergent 32" 0 constant.cl 1024x16 \
  "broadcast constant load distinct_addresses_max = 1" "divergent constant load distinct_addresses_avg = 32"

finish
