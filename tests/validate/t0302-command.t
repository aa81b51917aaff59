#!/bin/sh
# The validate command: help, usage errors, --static, several chapters.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # a workspace, fresh, v, ini_case

expect "validate --help" 0 'Usage: cltutor validate' -- "$bin" validate --help
expect "unknown option" 64 'unknown option --frob' -- "$bin" validate --frob
expect "unknown chapter" 64 "no chapter '99'" -- "$bin" validate 99
expect "--static runs no kernel" 0 '^  ok   hints' -- "$bin" validate 3 --static
out=$("$bin" validate 8 3 --static 2>&1)
if [ "$(printf '%s\n' "$out" | grep -c '^Chapter')" -eq 2 ] && printf '%s\n' "$out" | grep -q '^Chapter 3' &&
   printf '%s\n' "$out" | grep -q '^Chapter 8'; then ok "validate takes several chapters"
else bad "validate takes several chapters" "$out"; fi
out=$("$bin" validate 3 --static 2>&1)
if printf '%s\n' "$out" | grep -Eq 'reference|starting file'; then bad "--static runs no kernel (it ran some)" "$out"
else ok "--static lists no kernel checks"; fi

finish
