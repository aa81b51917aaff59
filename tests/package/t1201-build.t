#!/bin/sh
# The Debian package: built with dpkg-buildpackage from a clone of the committed tree, and clean for lintian.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # need_tools, a clean environment, build_package, need_package
need_tools --ok

build_package "dpkg-buildpackage -us -uc -b builds the package"

# ---- lintian: no errors (warnings are counted in the test's name)
if command -v lintian >/dev/null 2>&1; then
  for what in "$deb" "$changes"; do
    name=$(basename "$what")
    lintian "$what" > "$tmp/lintian.log" 2>&1
    rc=$?
    grep -v 'running with root privileges' "$tmp/lintian.log" > "$tmp/lintian.tags"
    errors=$(grep -c '^E:' "$tmp/lintian.tags")
    warnings=$(grep -c '^W:' "$tmp/lintian.tags")
    if [ "$errors" -eq 0 ] && [ "$rc" -eq 0 ]; then
      ok "lintian $name: no errors ($warnings warnings)"
    else
      bad "lintian $name: $errors errors (exit $rc)" "$(cat "$tmp/lintian.tags")"
    fi
  done
else
  ok "lintian (skipped: lintian not installed; scripts/deps.sh test installs it)"
fi

finish
