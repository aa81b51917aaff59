#!/bin/sh
# The command of one GitHub Classroom test, for a repository that uses the
# older autograding.json form (or to try a test by hand):
#   sh grade-chapter.sh CHAPTER [PASS]
# exits 0 when the chapter's grade reaches PASS (default 0.8) of its points,
# 1 when it does not, 69 when the grader cannot run (no OpenCL device).
# CLTUTOR names the program (default: cltutor on the PATH).
chapter=${1:?usage: grade-chapter.sh CHAPTER [PASS]}
exec "${CLTUTOR:-cltutor}" grade "$chapter" --dir . --pass "${2:-0.8}" --format tap
