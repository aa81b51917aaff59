#!/bin/sh
# cltutor --version and --help, each command's help, unknown commands and options.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # k, json_check, a workspace in $tmp

expect "--version" 0 '^cltutor [0-9]+\.[0-9]+' -- "$bin" --version
expect "--help" 0 'Usage: cltutor' -- "$bin" --help
for c in list devices run check reset bench; do
  expect "$c --help" 0 "Usage: cltutor $c" -- "$bin" "$c" --help
done
expect "unknown command" 64 "unknown command 'frobnicate'" -- "$bin" frobnicate
expect "unknown option" 64 'unknown option --frob' -- "$bin" run 2 --frob
expect "run without a chapter" 64 'which chapter' -- "$bin" run
expect "the worker mode without a request says so" 64 'got no request' -- "$bin" __worker

finish
