# tests/install/lib.sh — what the install scripts share, sourced after
# tests/lib.sh: no workspace or data folder from the caller, a home of the
# script's own, and install_to.
unset CLTUTOR_WORKSPACE CLTUTOR_DATA XDG_DATA_HOME
export HOME="$tmp/home"
mkdir -p "$HOME"

install_to() { # install_to NAME MAKE-ARGS...: make install into a fresh folder
  name=$1
  shift
  if make -s -C "$root" install BUILD="$build" "$@" > "$tmp/$name.log" 2>&1; then ok "make install $*"
  else bad "make install $*" "$(cat "$tmp/$name.log")"; fi
}
