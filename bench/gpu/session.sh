#!/bin/bash
# session.sh: issue 17's whole GPU session in one device call: the teacher
# (teacher.sh) and then its two students (student.sh), so that no second
# call has to find the machine still warm (it is given back 30 s after a
# call). Build here as teacher.sh's head says, then one device run, carry
# [".gpu"], timeout_s 590:
#
#   TRAIN_ARGS="--config bench/gpu/dropout05.json --word-dropout 0.25" bash bench/gpu/session.sh
#
# netcuda's tests run on the card beside the teacher's training (they are
# small). TOTAL (570 s by default) bounds the whole script: the teacher
# trains for TRAIN_SECONDS (300 by default), and the students for what is
# left less STUDENT_RESERVE (110 s: the teacher's scoring of the training
# set, the dev evaluations, the copies), at least 60 s, or not at all.
# Everything comes back in $OUT: teacher.safetensors.part*, student1 and
# student2.safetensors, their logs, netcuda.log. Back here, as student.sh's
# head says: the pairs with `discspan ensemble --choose 2 --dtype I4 ...`.
# LOCAL=1 tries the script on this machine's CPU (tiny teacher).
set -u
here=$(dirname "$0")
OUT=${OUT:-/tmp/out}
export OUT
TOTAL=${TOTAL:-570}
export TRAIN_SECONDS=${TRAIN_SECONDS:-300}
STUDENT_RESERVE=${STUDENT_RESERVE:-110}
mkdir -p "$OUT"
G=$PWD/.gpu
tests=
if [ "${LOCAL:-0}" != 1 ] && [ -x "$G/netcuda.test" ]; then
	echo "== netcuda's tests on the card, beside the teacher (log: netcuda.log)"
	timeout 200 "$G/netcuda.test" -test.run 'Equivalence|SpanCE|Score|OutOfMemory' -test.v >"$OUT/netcuda.log" 2>&1 &
	tests=$!
fi
bash "$here/teacher.sh"
teacher=$?
if [ -n "$tests" ]; then
	wait "$tests"
	echo "== netcuda's tests: exit $?"
	grep -E '^(--- |ok|FAIL|PASS)|device:' "$OUT/netcuda.log" | head -20
fi
if [ "$teacher" != 0 ]; then
	echo "session.sh: teacher.sh failed (exit $teacher): no students"
	exit "$teacher"
fi
left=$((TOTAL - SECONDS - STUDENT_RESERVE))
if [ "$left" -lt 60 ]; then
	echo "session.sh: ${SECONDS} s spent, ${left} s left for the students: none trained (raise TOTAL or lower TRAIN_SECONDS)"
	exit 1
fi
echo "== ${SECONDS} s spent; the students train for ${left} s"
MEMBERS=${MEMBERS:-1 2} STUDENT_SECONDS=$left NETCUDA_TESTS=0 bash "$here/student.sh"
