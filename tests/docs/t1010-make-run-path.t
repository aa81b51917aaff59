#!/bin/sh
# `make run` tells a learner where the program is when `cltutor` is not on the PATH: the README and the
# lessons write `cltutor run 2`, and after `make run` it is BUILD/cltutor in the checkout.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR

rel=${build#"$root"/}
if [ "$rel" = "$build" ]; then
  echo "1..0 # SKIP the build folder $build is outside the checkout (make run builds in the checkout)"
  exit 0
fi
# standard input is not a terminal: the course says so and exits at once, then make run speaks
out=$(cd "$root" && PATH=/usr/bin:/bin timeout 120 make -s run BUILD="$rel" < /dev/null 2>&1)
if printf '%s\n' "$out" | grep -qF "are $root/$rel/cltutor here" &&
   printf '%s\n' "$out" | grep -qF "export PATH=\"$root/$rel:\$PATH\""; then
  ok "make run names BUILD/cltutor and the PATH line when cltutor is not on the PATH"
else bad "make run without cltutor on the PATH" "$out"; fi
mkdir -p "$tmp/bin" && ln -s "$bin" "$tmp/bin/cltutor"
out=$(cd "$root" && PATH="$tmp/bin:/usr/bin:/bin" timeout 120 make -s run BUILD="$rel" < /dev/null 2>&1)
if printf '%s\n' "$out" | grep -q "export PATH"; then bad "make run with cltutor on the PATH still gives the PATH line" "$out"
else ok "make run says nothing of the PATH when cltutor is on it"; fi

finish
