#!/bin/bash
# student.sh: issue 17's students, trained on the GPU (distillation runs on
# CUDA since session 22), in one device call of at most 600 s. Each student
# starts from one model of the shipped pair (--init-member) and learns from
# the teacher that teacher.sh trained on the same warm machine, averaged
# with the shipped pair (--teacher T+weights/default.safetensors): session
# 21's recipe, which took 14 epochs of 3 minutes on a CPU core. Its
# students paired below the shipped pair (F2 + L 81.32, F1 + F2 81.19,
# against 81.78); students of the paper model alone paired lower still
# (session 23, on the CPU: X2 + L 81.22, X1 + X2 80.59), so the pair
# stays in the teacher; TEACHER_ALONE=1 leaves it out. After teacher.sh,
# at once (the machine idles 30 s before it is given back), one device
# run, carry [".gpu"], timeout_s 590 (or both in one call:
# bench/gpu/session.sh):
#
#   MEMBERS="1 2" bash bench/gpu/student.sh
#
# (the students train side by side, each from its shipped model).
#
# TEACHER names another teacher file on the device machine (default: the
# teacher.sh run's $WORK/teacher-f32.safetensors). The teacher scores the
# 20,780 training sentences on the GPU before each student's first epoch
# (the log says where; on the CPU's cores that took minutes for the paper
# preset); training then stops at STUDENT_SECONDS (`train --max-time`, 200
# by default) or 14 epochs.
# Each student comes back as student<K>.safetensors (float16, 13.6 MB, its
# best epoch by dev F1) with its log. Back here, the pairs, as the shipped
# pair was built:
#
#   discspan ensemble --choose 2 --dtype I4 --dev DEV --drop-labels <the 11> \
#       FILES_AT/student1.safetensors FILES_AT/student2.safetensors weights/default.safetensors
#
# LOCAL=1 runs it on this machine's CPU (after `LOCAL=1 bash
# bench/gpu/teacher.sh`) for STUDENT_SECONDS, to try the script itself.
set -u
R=$PWD
G=$R/.gpu
OUT=${OUT:-/tmp/out}
STUDENT_SECONDS=${STUDENT_SECONDS:-200}
MEMBERS=${MEMBERS:-1}
mkdir -p "$OUT"
T=$G/train
B=${WORK:-/tmp/discspan-teacher}
TEACHER=${TEACHER:-$B/teacher-f32.safetensors}
teachers="$TEACHER+$R/weights/default.safetensors"
[ "${TEACHER_ALONE:-0}" = 1 ] && teachers=$TEACHER
for need in "$G/discspan.gz" "$T/train.punctmoved.discbracket" "$T/dev.punctmoved.discbracket" "$R/weights/default.safetensors" "$TEACHER"; do
	if [ ! -e "$need" ]; then
		echo "student.sh: $need is missing: run teacher.sh first on the same machine, or name a teacher with TEACHER (see the script's head)" >&2
		exit 2
	fi
done
mkdir -p "$B"
[ -x "$B/discspan" ] || { gunzip -c "$G/discspan.gz" >"$B/discspan" && chmod +x "$B/discspan"; }

# The shipped pair's training data (its vocabulary must be the shipped
# models').
. "$(dirname "$0")/trainlist.sh"
list=$(training_list "$T")
echo '{"lr":0.0003,"beta1":0.9,"beta2":0.999,"eps":1e-12,"clip_norm":5,"decay":0.75,"decay_every":5000}' >"$B/student-adam.json"

device=cuda
if [ "${LOCAL:-0}" = 1 ]; then
	device=cpu
else
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/card.txt"
fi
# First, where ../shared/gpu/prepare.sh built it, netcuda's tests on the
# card: the distillation step, the span_ce kernel and the teacher's
# forward pass against the CPU (run so far on the CPU stand-in only).
# (NETCUDA_TESTS=0: not here; session.sh runs them beside the teacher.)
if [ "${LOCAL:-0}" != 1 ] && [ "${NETCUDA_TESTS:-1}" = 1 ] && [ -x "$G/netcuda.test" ]; then
	echo "== netcuda's tests on the card"
	timeout 150 "$G/netcuda.test" -test.run 'Equivalence|SpanCE|Score|OutOfMemory' -test.v >"$OUT/netcuda.log" 2>&1
	echo "exit $?"
	grep -E '^(--- |ok|FAIL|PASS)|device:' "$OUT/netcuda.log" | head -20
fi

# One student: trained, then reported and copied to $OUT.
student() {
	local k=$1 out=$B/student$1.safetensors
	rm -f "$out" "$out.ckpt" "$out.log.jsonl"
	timeout $((STUDENT_SECONDS + 300)) "$B/discspan" train --train "$list" --dev "$T/dev.punctmoved.discbracket" \
		--out "$out" --init "$R/weights/default.safetensors" --init-member "$k" \
		--adam "$B/student-adam.json" --ema 0.9995 --batch-words 250 --min-word-count 3 --dtype F16 \
		--teacher "$teachers" --teacher-temperature 4 --teacher-weight 0.7 \
		--seed $((50 + k)) --epochs 14 --device "$device" --max-time "${STUDENT_SECONDS}s" >"$OUT/student$k.log" 2>&1
	echo "== student $k: exit $?; the teacher and the epochs:"
	grep -E '^teacher: .*dev F1|^teacher scored|^device|^epoch .*dev F1' "$OUT/student$k.log"
	cp "$out.log.jsonl" "$OUT/student$k.log.jsonl" 2>/dev/null
	if [ ! -e "$out" ]; then
		echo "student.sh: student $k finished no epoch" | tee -a "$OUT/student$k.log"
		return 1
	fi
	cp "$out" "$OUT/student$k.safetensors"
	sha256sum "$out" | tee -a "$OUT/student$k.log"
}

# The students train side by side: a small model leaves most of the GPU
# idle, and their dev evaluations share the CPU's cores.
pids=()
for k in $MEMBERS; do
	echo "== student $k: from the shipped model $k, taught by $teachers, on $device for at most ${STUDENT_SECONDS} s of training"
	student "$k" >"$OUT/student$k.console" 2>&1 &
	pids+=($!)
done
status=0
for pid in "${pids[@]}"; do
	wait "$pid" || status=1
done
cat "$OUT"/student*.console
ls -l "$OUT"
exit $status
