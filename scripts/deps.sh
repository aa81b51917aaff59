#!/bin/sh
# Installs the Debian packages cltutor needs when any is missing (as root, or
# through sudo), or says exactly what to run.
#   scripts/deps.sh build   packages to build and run
#   scripts/deps.sh test    also those the tests need
#   scripts/deps.sh check   only says what is missing (for a plain `make`)
set -e
need_build="make gcc pkg-config ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd libncurses-dev libcjson-dev libinih-dev libmd4c-dev libmd4c-html0-dev libseccomp-dev libarchive-dev nettle-dev g++ oclgrind liboclgrind-dev llvm-14-dev gettext"
need_test="check tmux python3 clang-15 libclc-15 universal-ctags libxml2-utils perl time procps git groff-base mandoc dpkg-dev debhelper lintian fakeroot slurmctld slurmd slurm-client munge"
case "${1:-build}" in
  build) want="$need_build" ;;
  test) want="$need_build $need_test" ;;
  check) want="$need_build" ;;
  *) echo "usage: $0 build|test|check" >&2; exit 64 ;;
esac
missing=""
for p in $want; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "cltutor needs these Debian packages:$missing"
if [ "${1:-build}" = check ]; then
  command -v dpkg-query >/dev/null 2>&1 || exit 0 # not Debian: the compiler will say what is missing
  echo "Install them with \`make run\` (it installs what is missing) or:  sudo apt-get install -y$missing" >&2
  exit 1
fi
if [ "$(id -u)" = 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo"
else
  echo "Install them with:  sudo apt-get install -y$missing" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || true
if ! $SUDO apt-get install -y -qq --no-install-recommends$missing; then
  echo "Installing failed. Run:  sudo apt-get update && sudo apt-get install -y$missing" >&2
  exit 1
fi
