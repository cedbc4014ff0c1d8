#!/bin/bash
# teacher.sh: issue 17's teacher, the paper-sized model trained on cdb train
# and the Alpino suites with the CUDA trainer, in one device call of at most
# 600 s, its best epoch brought back in pieces of 15 MiB (a call returns
# files of at most 16 MiB). On the build machine, in the project's root:
#
#   export GOTOOLCHAIN=auto   # go.mod asks for go1.27.3; the machines set local
#   ../shared/gpu/prepare.sh
#   mkdir -p .gpu/train && cp ../shared/data/alpino-cdb/*.punctmoved.discbracket \
#       ../shared/data/alpino-suites/*.punctmoved.discbracket .gpu/train/
#
# (bench/gpu/session.sh runs this script and student.sh in one call: the
# plan for a session with a GPU.) Alone: one device run, carry [".gpu"],
# timeout_s 590:
#
#   bash bench/gpu/teacher.sh
#
# and, at once (the machine idles for 30 s before it is given back), a
# second with TRAIN_SECONDS=120 and timeout_s 200, which continues the
# first's checkpoint (see WORK below):
#
#   TRAIN_SECONDS=120 bash bench/gpu/teacher.sh
#
# and, back here, the teacher from the pieces:
#
#   cat FILES_AT/teacher.safetensors.part* > teacher.safetensors
#
# (docs/model-experiments.md, sessions 18 and 20: the students are then
# trained here, `discspan train ... --teacher teacher.safetensors`, or with
# the shipped pair teaching beside it, `--teacher
# teacher.safetensors+weights/default.safetensors`: the train log gives the
# teacher's dev F1 first; compare the two with `discspan parse --weights
# teacher.safetensors,weights/default.safetensors` on dev.) Training stops
# at TRAIN_SECONDS (`train --max-time`; 420 by default: the paper preset
# ran at 28,500 tokens/s on an H100 (docs/gpu.md), about 9 s of training
# and 8 s of dev evaluation an epoch of 246,687 words); the
# output holds its best epoch by dev F1, written as DTYPE (I8 by default,
# about 61 MB; I4 about 31 MB) by `discspan ensemble`, which also reports
# that file's dev F1. LOCAL=1 runs it on this machine's CPU with the tiny
# preset for TRAIN_SECONDS, to try the script itself. TRAIN_ARGS adds
# options to a fresh run's `discspan train` (e.g. TRAIN_ARGS="--config
# bench/gpu/dropout05.json --word-dropout 0.25": session 21's paper model
# peaked at dev 80.1 by epoch 8 and overfitted after; see
# docs/model-experiments.md).
set -u
R=$PWD
G=$R/.gpu
OUT=${OUT:-/tmp/out}
TRAIN_SECONDS=${TRAIN_SECONDS:-420}
DTYPE=${DTYPE:-I8}
SEED=${SEED:-70}
mkdir -p "$OUT"
T=$G/train
for need in "$G/discspan.gz" "$T/train.punctmoved.discbracket" "$T/dev.punctmoved.discbracket" "$T/test.punctmoved.discbracket" "$T/qa.punctmoved.discbracket"; do
	if [ ! -e "$need" ]; then
		echo "teacher.sh: $need is missing: run ../shared/gpu/prepare.sh and copy the treebanks to .gpu/train (see the script's head), then carry .gpu" >&2
		exit 2
	fi
done
# The run's files live in WORK, outside the copied tree, so that a second
# call on the same warm machine (within its 30 s of idling) finds the
# checkpoint and continues it (--resume) for another TRAIN_SECONDS: the
# session's 15 device minutes hold a first call of 590 s and a second of
# about 150 s. FRESH=1 starts over.
B=${WORK:-/tmp/discspan-teacher}
[ "${FRESH:-0}" = 1 ] && rm -rf "$B"
mkdir -p "$B"
gunzip -c "$G/discspan.gz" >"$B/discspan"
chmod +x "$B/discspan"
resume=()
if [ -e "$B/teacher-f32.safetensors.ckpt" ]; then
	resume=(--resume)
	echo "== a checkpoint from an earlier call on this machine: continuing it (--resume)"
fi

. "$(dirname "$0")/trainlist.sh"
list=$(training_list "$T")
echo '{"lr":0.001,"beta1":0.9,"beta2":0.999,"eps":1e-12,"clip_norm":5,"decay":0.75,"decay_every":5000}' >"$B/adam.json"

if [ "${LOCAL:-0}" = 1 ]; then
	preset=tiny device=cpu
else
	preset=paper device=cuda
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/card.txt"
fi
echo "== training the $preset preset on $device for ${TRAIN_SECONDS} s"
# At the limit the trainer finishes its batch, writes a checkpoint and
# stops; its output already holds the best epoch. (timeout: a guard.)
if [ ${#resume[@]} -gt 0 ]; then
	timeout $((TRAIN_SECONDS + 120)) "$B/discspan" train --train "$list" --dev "$T/dev.punctmoved.discbracket" \
		--out "$B/teacher-f32.safetensors" --device "$device" --max-time "${TRAIN_SECONDS}s" --resume >"$OUT/teacher.log" 2>&1
else
	timeout $((TRAIN_SECONDS + 120)) "$B/discspan" train --train "$list" --dev "$T/dev.punctmoved.discbracket" \
		--out "$B/teacher-f32.safetensors" --preset "$preset" --adam "$B/adam.json" --ema 0.999 \
		--batch-words 500 --min-word-count 3 --seed "$SEED" --device "$device" --max-time "${TRAIN_SECONDS}s" ${TRAIN_ARGS:-} >"$OUT/teacher.log" 2>&1
fi
echo "== training: exit $?; its epochs:"
grep '^epoch .*dev F1' "$OUT/teacher.log"
cp "$B/teacher-f32.safetensors.log.jsonl" "$OUT/teacher.log.jsonl" 2>/dev/null
if [ ! -e "$B/teacher-f32.safetensors" ]; then
	echo "teacher.sh: no epoch finished: nothing to bring back" | tee -a "$OUT/teacher.log"
	exit 1
fi
"$B/discspan" ensemble --out "$B/teacher.safetensors" --dtype "$DTYPE" --dev "$T/dev.punctmoved.discbracket" \
	--training-data "cdb train + the ten Alpino suites (teacher, $preset preset)" "$B/teacher-f32.safetensors" 2>&1 | tee -a "$OUT/teacher.log"
split -b 15M -d "$B/teacher.safetensors" "$OUT/teacher.safetensors.part"
sha256sum "$B/teacher.safetensors" | tee -a "$OUT/teacher.log"
ls -l "$OUT"
