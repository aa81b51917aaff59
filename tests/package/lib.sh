# tests/package/lib.sh — what the Debian package scripts share, sourced after
# tests/lib.sh: need_tools, a clean environment and a home of the script's
# own, the exit trap that purges a package this script installed, and
# build_package / need_package.
# The package is built with dpkg-buildpackage from a clone of the committed
# tree (never from the working tree or its build/). t1201 builds it and keeps
# the .deb and .changes in BUILD_DIR/test-package/COMMIT, where t1202 and
# t1203 take them when they are of the same commit (else they build their own).
# Needs dpkg-dev, debhelper, lintian and fakeroot (`scripts/deps.sh test`
# installs them).

# need_tools: without dpkg-buildpackage, debhelper or git the script is
# skipped (need_tools --ok: one test passes, saying so; else a plan of 0)
need_tools() {
  for tool in dpkg-buildpackage:dpkg-dev dh:debhelper git:git; do
    if ! command -v "${tool%%:*}" >/dev/null 2>&1; then
      if [ "$1" = --ok ]; then
        ok "the Debian package (skipped: ${tool%%:*} not installed; scripts/deps.sh test installs ${tool#*:})"
        finish
      else echo "1..0 # SKIP ${tool%%:*} not installed; scripts/deps.sh test installs ${tool#*:}"; fi
      exit
    fi
  done
}

# Whether this script installed the package, so that the exit trap removes it
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

# (the tree may belong to another user than the one testing: git then wants
# it named in safe.directory, which it reads only from a global config)
printf '[safe]\n\tdirectory = %s\n\tdirectory = %s/.git\n' "$root" "$root" > "$tmp/gitconfig"
commit=$(GIT_CONFIG_GLOBAL="$tmp/gitconfig" git -C "$root" rev-parse HEAD 2>/dev/null)
kept="$build/test-package/$commit"

# build_package NAME [quiet]: clone the committed tree into $tmp/src and
# build the package there, as a buildd would, setting $deb and $changes; the
# test NAME passes (quiet: a comment says so), or fails and the script stops
build_package() {
  src="$tmp/src"
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
    if [ "$2" = quiet ]; then echo "# $1"; else ok "$1"; fi
  else
    bad "$1" "$(tail -n 20 "$tmp/build.log")"
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
  if [ -n "$commit" ] && rm -rf "$kept" && mkdir -p "$kept"; then
    cp "$deb" "$changes" "$kept/"
  fi
}

# need_package: $deb and $changes, those t1201 kept for this commit, else
# built here (failing the script when the build fails)
need_package() {
  deb=$(ls "$kept"/cltutor_*.deb 2>/dev/null | head -n 1)
  changes=$(ls "$kept"/cltutor_*.changes 2>/dev/null | head -n 1)
  if [ -z "$commit" ] || [ -z "$deb" ] || [ -z "$changes" ]; then
    echo "# no package kept for commit ${commit:-?} in $build/test-package: building one"
    build_package "the package to test is built (dpkg-buildpackage -us -uc -b)" quiet
  fi
}
