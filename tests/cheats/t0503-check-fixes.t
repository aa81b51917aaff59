#!/bin/sh
# Find-the-bug listings handed in as the reference: cltutor check fails 'a fix, not a rewrite'.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"   # build, bin, root, tmp, NO_COLOR
. "$here/lib.sh"      # the corpus, make_corpus, pick_seed, honest_chapter, check_cheats

make_corpus
pick_seed
check_cheats fixes

finish
