#!/bin/sh
# The cheats that dodge a technique: cltutor check fails that technique (those fitted to the public sizes are recorded).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # the corpus, make_corpus, pick_seed, honest_chapter, check_cheats

make_corpus
check_cheats techniques

finish
