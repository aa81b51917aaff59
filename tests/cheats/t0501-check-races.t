#!/bin/sh
# The cheats that race, or that the simulator refuses: cltutor check fails them on the race check.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # the corpus, make_corpus, pick_seed, honest_chapter, check_cheats

make_corpus
check_cheats races

finish
