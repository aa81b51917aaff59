#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image:
# it installs cltutor's packages (PoCL for a CPU OpenCL device, Oclgrind for
# the GPU memory model) and builds cltutor from the copy in the zip.
set -euo pipefail
ROOT=${AUTOGRADER_ROOT:-/autograder}
SRC=${CLTUTOR_SOURCE:-$ROOT/source/cltutor}
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends make gcc g++ pkg-config ca-certificates
sh "$SRC/scripts/deps.sh" build
make -C "$SRC" BUILD=build build/cltutor plugin
# the user run_autograder grades as: a kernel is native code on a CPU device,
# and must not run with root's powers; it reads the course and the program
id cltutor >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin cltutor
chmod -R a+rX "$SRC"
# the image must see an OpenCL device, or every submission would fail to grade
setpriv --reuid=cltutor --regid="$(id -g cltutor)" --init-groups -- env HOME=/tmp "$SRC/build/cltutor" devices
