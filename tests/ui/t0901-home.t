#!/bin/sh
# The course's home screen, its help, the OpenCL quick reference and the device list.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, ok, finish (TAP)
. "$here/lib.sh"      # tmux, start, keys, check, check_not, capture, the fake editor, $ws, $ex1, $ex2

# ---- home
start
check "home: the chapters" "Serial histogram" "Atomic histogram (GPU1)" "← next" "not started" "0 of "
check "home: the device" "(CPU)"
check "home: the keys" "Enter open" "? help" "q quit"
capture home
keys Down
check "home: the selection moves" "2 · Atomic histogram (GPU1)"
keys Up

# ---- help, quick reference, devices
keys '?'
check "help: every key" "Keys" "this help" "Everywhere" "Chapter list"
keys G
check "help: scrolls to the end" "look for devices again"
capture help
keys Escape
check_not "help: Esc closes it" "this help"
keys o
check "quick reference" "OpenCL C quick reference" "__global" "get_global_id(0)"
keys Escape
keys d
check "devices: listed, CPU marked" "OpenCL devices" "CPU" "timings do not show GPU effects"
capture devices
keys Escape

finish
