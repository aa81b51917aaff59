#!/bin/sh
# What the Debian package holds, and what it recommends rather than requires.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # need_tools, a clean environment, build_package, need_package
need_tools
need_package

dpkg-deb -c "$deb" > "$tmp/contents" 2>&1
for path in usr/bin/cltutor usr/share/cltutor/lessons/ usr/share/cltutor/exercises/ usr/share/cltutor/kernels/ \
    usr/share/man/man1/cltutor.1.gz usr/share/doc/cltutor/copyright usr/share/doc/cltutor/changelog.gz \
    usr/share/bash-completion/completions/cltutor usr/lib/cltutor/cltutor-gpumodel.so \
    usr/share/locale/zh_CN/LC_MESSAGES/cltutor.mo; do
  if grep -q " \./$path\$" "$tmp/contents"; then ok "the package holds /$path"
  else bad "the package holds /$path" "$(grep -v ' \./usr/share/cltutor/' "$tmp/contents")"; fi
done
dpkg-deb -f "$deb" Depends Recommends > "$tmp/fields" 2>&1
if grep -q '^Recommends:.*oclgrind' "$tmp/fields" && ! grep -q '^Depends:.*\(liboclgrind\|libllvm\)' "$tmp/fields"; then
  ok "Oclgrind and the plugin's libraries are recommended, not required"
else bad "Oclgrind and the plugin's libraries are recommended, not required" "$(cat "$tmp/fields")"; fi

finish
