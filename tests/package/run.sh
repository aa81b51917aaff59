#!/bin/sh
# The Debian package (debian/): built with dpkg-buildpackage from a clone of
# the committed tree (never from the working tree or its build/), clean for
# lintian (no E: line), holding what it should; then, as root and only where
# no cltutor is installed already, installed with dpkg -i, run from another
# folder, and purged again, even when a check fails.
# Needs dpkg-dev, debhelper, lintian and fakeroot (`scripts/deps.sh test`
# installs them); without dpkg-buildpackage or debhelper it is skipped.
# Usage: tests/package/run.sh BUILD_DIR (BUILD_DIR is not used: the package
# is built in a scratch folder)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR

for tool in dpkg-buildpackage:dpkg-dev dh:debhelper git:git; do
  if ! command -v "${tool%%:*}" >/dev/null 2>&1; then
    ok "the Debian package (skipped: ${tool%%:*} not installed; scripts/deps.sh test installs ${tool#*:})"
    finish
    exit
  fi
done

# Whether this suite installed the package, so that the exit trap removes it
# (and only then: a cltutor that was there before is never touched).
installed=""
cleanup() {
  if [ -n "$installed" ]; then
    dpkg --purge cltutor > "$tmp/purge-on-exit.log" 2>&1 || cat "$tmp/purge-on-exit.log" >&2
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# A make above this one (make test) must not pass its variables (BUILD=...,
# CFLAGS=..., -j) into the package's build, nor may the caller's flags.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES BUILD DESTDIR PREFIX NO_SOLUTIONS NO_UI WERROR \
  CFLAGS CPPFLAGS CXXFLAGS LDFLAGS CC CXX DEB_BUILD_PROFILES
export HOME="$tmp/home"
mkdir -p "$HOME"

# ---- build: the committed tree, in a clone, as a buildd would
# (the tree may belong to another user than the one testing: git then wants
# it named in safe.directory, which it reads only from a global config)
src="$tmp/src"
printf '[safe]\n\tdirectory = %s\n\tdirectory = %s/.git\n' "$root" "$root" > "$tmp/gitconfig"
if ! GIT_CONFIG_GLOBAL="$tmp/gitconfig" git clone -q "$root" "$src" > "$tmp/clone.log" 2>&1; then
  bad "git clone of the source tree" "$(cat "$tmp/clone.log")"
  finish
  exit
fi
if [ ! -f "$src/debian/control" ]; then
  bad "debian/ is committed" "git clone $root has no debian/control (is debian/ committed?)"
  finish
  exit
fi
jobs=$(nproc 2>/dev/null || echo 2)
if (cd "$src" && DEB_BUILD_OPTIONS="parallel=$jobs" dpkg-buildpackage -us -uc -b) > "$tmp/build.log" 2>&1; then
  ok "dpkg-buildpackage -us -uc -b builds the package"
else
  bad "dpkg-buildpackage -us -uc -b builds the package" "$(tail -n 20 "$tmp/build.log")"
  finish
  exit
fi
deb=$(ls "$tmp"/cltutor_*.deb 2>/dev/null | head -n 1)
changes=$(ls "$tmp"/cltutor_*.changes 2>/dev/null | head -n 1)
if [ -z "$deb" ] || [ -z "$changes" ]; then
  bad "the build leaves a .deb and a .changes" "$(ls -l "$tmp")"
  finish
  exit
fi

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

# ---- what the package holds
dpkg-deb -c "$deb" > "$tmp/contents" 2>&1
for path in usr/bin/cltutor usr/share/cltutor/lessons/ usr/share/cltutor/exercises/ usr/share/cltutor/kernels/ \
    usr/share/man/man1/cltutor.1.gz usr/share/doc/cltutor/copyright usr/share/doc/cltutor/changelog.gz \
    usr/share/bash-completion/completions/cltutor usr/lib/cltutor/cltutor-gpumodel.so; do
  if grep -q " \./$path\$" "$tmp/contents"; then ok "the package holds /$path"
  else bad "the package holds /$path" "$(grep -v ' \./usr/share/cltutor/' "$tmp/contents")"; fi
done
dpkg-deb -f "$deb" Depends Recommends > "$tmp/fields" 2>&1
if grep -q '^Recommends:.*oclgrind' "$tmp/fields" && ! grep -q '^Depends:.*\(liboclgrind\|libllvm\)' "$tmp/fields"; then
  ok "Oclgrind and the plugin's libraries are recommended, not required"
else bad "Oclgrind and the plugin's libraries are recommended, not required" "$(cat "$tmp/fields")"; fi

# ---- install, run, purge: as root, where nothing called cltutor is installed
state=$(dpkg-query -W -f='${Status}' cltutor 2>/dev/null)
if [ "$(id -u)" != 0 ]; then
  ok "dpkg -i and a run of the installed package (skipped: not root)"
elif [ -n "$state" ] && [ "${state##* }" != not-installed ]; then
  ok "dpkg -i and a run of the installed package (skipped: cltutor is already installed here: $state)"
elif [ -e /usr/bin/cltutor ] || [ -e /usr/share/cltutor ] || [ -e /usr/lib/cltutor ]; then
  ok "dpkg -i and a run of the installed package (skipped: a cltutor outside dpkg is in /usr)"
else
  installed=yes
  if dpkg -i "$deb" > "$tmp/install.log" 2>&1; then
    ok "dpkg -i installs the package"
    mkdir -p "$tmp/elsewhere"
    cd "$tmp/elsewhere" || exit 1
    expect "the installed cltutor lists the course" 0 'Atomic histogram' -- /usr/bin/cltutor list
    expect "the installed cltutor runs the learner's (wrong) starting kernel" 1 'Wrong result' -- /usr/bin/cltutor run 1
    expect "the installed cltutor runs a reference solution" 0 '^Correct' -- \
      /usr/bin/cltutor run 2 --solution --size 200x8 --no-timing
    if dpkg-query -W -f='${Status}' oclgrind 2>/dev/null | grep -q 'install ok installed'; then
      expect "the installed cltutor analyzes with its Oclgrind plugin" 0 'sectors/req' -- \
        /usr/bin/cltutor analyze 2 --solution --size 64x16x4
    else
      ok "the installed cltutor analyzes with its Oclgrind plugin (skipped: oclgrind not installed)"
    fi
    cd "$tmp" || exit 1
  else
    bad "dpkg -i installs the package" "$(cat "$tmp/install.log")"
  fi
  if dpkg --purge cltutor > "$tmp/purge.log" 2>&1 && [ ! -e /usr/bin/cltutor ] && [ ! -e /usr/share/cltutor ] \
      && [ ! -e /usr/lib/cltutor ] && [ ! -e /usr/share/doc/cltutor ]; then
    installed=""
    ok "dpkg --purge removes every file"
  else
    bad "dpkg --purge removes every file" "$(cat "$tmp/purge.log"; ls -d /usr/bin/cltutor /usr/share/cltutor /usr/lib/cltutor /usr/share/doc/cltutor 2>&1)"
  fi
fi

finish
