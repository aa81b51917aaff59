#!/bin/sh
# cltutor analyze without Oclgrind or its plugin says what to install; its help and usage errors.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, course, figures, need_plugin

expect "no Oclgrind: exit 69 and how to install" 69 'apt-get install oclgrind' -- \
  env CLTUTOR_OCLGRIND_ICD=/nonexistent/liboclgrind-rt-icd.so "$bin" analyze 2
expect "no Oclgrind: run still works" 0 'Correct' -- \
  env CLTUTOR_OCLGRIND_ICD=/nonexistent/liboclgrind-rt-icd.so "$bin" run 2 --solution --no-timing --size 200x8
expect "no plugin: says how to build it" 69 'plugin' -- \
  env CLTUTOR_GM_PLUGIN=/nonexistent/cltutor-gpumodel.so "$bin" analyze 2
expect "analyze --help" 0 'Usage: cltutor analyze' -- "$bin" analyze --help
expect "analyze without a chapter" 64 'which chapter' -- "$bin" analyze

finish
