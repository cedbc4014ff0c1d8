#!/bin/bash
# next.sh: what a session with an NVIDIA GPU runs for the WebGPU path, in
# one device call of at most 600 s (docs/gpu.md, session 19: what it
# decided). It is tracked so that it outlives the build machine; the
# ignored folders it reads are made on the build machine by
# ../shared/gpu/prepare.sh (.gl: the Vulkan loader; .gpu: the test binary,
# the CLI, the shipped weights and the cdb dev and test sets).
#
# On the build machine, in the project's root:
#   ../shared/gpu/prepare.sh
# then one device run, carry [".gl", ".gpu"], timeout_s 590:
#   bash bench/gpu/next.sh
#
# The steps go in order of importance and each starts only while the
# budget (BUDGET seconds, 540 by default) leaves room for its time limit;
# every step writes its log to $OUT as it goes, so whatever ran comes back
# even if the call is cut short:
#   1. webgpu.log: the webgpu package's tests on the card (every kernel
#      change since session 10 is untested on an NVIDIA GPU);
#   2. score.log: `discspan bench score` of the shipped pair on the Alpino
#      test set at batch 714, 64 and 1, CPU (the machine's cores) against
#      WebGPU float32, float16 and a device per model: the README's table
#      and issue 16's three goals;
#   3. parse.log: `discspan parse --backend auto` of the test set (the
#      card after its self-check) against the CPU: trees that differ, F1;
#   4. profile_ensemble.log: BenchmarkProfile_Ensemble, the shipped pair's
#      loops in one dispatch or in turn, split or whole; and
#      BenchmarkChunks_Ensemble, the test set in chunks of 4096 to 32768
#      tokens;
#   5. tiny.log: BenchmarkScore_Tiny20 and the fast pair's bench score,
#      like for like with session 10;
#   6. profile.log: BenchmarkProfile_TestSet, every plan variant of one
#      model with per-dispatch timestamps.
set -u
R=$PWD
G=$R/.gpu
OUT=${OUT:-/tmp/out}
BUDGET=${BUDGET:-540}
START=$(date +%s)
mkdir -p "$OUT"

for need in "$G/webgpu.test.gz" "$G/discspan.gz" "$G/data/test.punctmoved.discbracket"; do
	if [ ! -e "$need" ]; then
		echo "next.sh: $need is missing: run ../shared/gpu/prepare.sh on the build machine and carry .gl and .gpu" >&2
		exit 2
	fi
done

# The Vulkan loader and an ICD file naming the EGL library (the image's own
# names the GLX one, which fails without a display), as ../shared/gpu/check.sh.
# LOCAL=1 skips this and uses the machine's own Vulkan driver (lavapipe on
# the build machine), to try the script itself there with a small BUDGET.
if [ "${LOCAL:-0}" = 1 ]; then
	echo "next.sh: LOCAL=1: the machine's own Vulkan driver" | tee "$OUT/card.txt"
else
	for f in "$R"/.gl/*.deb; do dpkg -x "$f" /; done
	ldconfig
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/card.txt"
	cat >/tmp/icd.json <<'J'
{"file_format_version":"1.0.1","ICD":{"library_path":"libEGL_nvidia.so.0","api_version":"1.3.0"}}
J
	export VK_DRIVER_FILES=/tmp/icd.json
	export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
# The binaries are unpacked outside .gpu, so that a LOCAL run leaves .gpu
# as prepare.sh made it (within the 64 MiB a device call carries).
B=$(mktemp -d "${TMPDIR:-/tmp}/discspan-gpu.XXXXXX")
gunzip -c "$G/webgpu.test.gz" >"$B/webgpu.test"
gunzip -c "$G/discspan.gz" >"$B/discspan"
chmod +x "$B/webgpu.test" "$B/discspan"
# The tests read ../shared/data beside the project.
[ -e ../shared/data/alpino-cdb ] || { mkdir -p ../shared/data/alpino-cdb && cp "$G"/data/* ../shared/data/alpino-cdb/; }
TEST=$G/data/test.punctmoved.discbracket

# step NAME LIMIT COMMAND...: runs COMMAND under timeout LIMIT when the
# budget has room for it, appending its output to $OUT/NAME.
step() {
	local name=$1 limit=$2
	shift 2
	local used=$(($(date +%s) - START))
	if [ $((used + limit)) -gt "$BUDGET" ]; then
		echo "next.sh: $name skipped: ${used} s used, its limit of ${limit} s would pass the budget of ${BUDGET} s" | tee -a "$OUT/skipped.txt"
		return
	fi
	echo "== $name (limit ${limit} s, ${used} s used)"
	timeout "$limit" "$@" 2>&1 | grep -v XDG >>"$OUT/$name"
	echo "== $name: exit ${PIPESTATUS[0]} after $(($(date +%s) - START)) s"
}

step webgpu.log 200 bash -c "cd webgpu && '$B/webgpu.test' -test.v -test.timeout 190s"
if [ -e "$OUT/webgpu.log" ]; then
	echo "webgpu tests: $(grep -c -- '--- PASS' "$OUT/webgpu.log") pass, $(grep -c -- '--- FAIL' "$OUT/webgpu.log") fail, $(grep -c -- '--- SKIP' "$OUT/webgpu.log") skip"
	grep -- '--- FAIL' "$OUT/webgpu.log" | head
fi

# Batch 714 with 9 passes: in session 19 its median (79-85 ms) was far
# from its best (45 ms), and only there; batch 1 without the variants (at
# 10 s a CPU pass, four backends passed the step's limit).
step score.log 60 "$B/discspan" bench score --input "$TEST" --weights "$G/default.safetensors" \
	--backends cpu,webgpu,webgpu-f16,webgpu-per-model --batch 714 --runs 9
step score.log 60 "$B/discspan" bench score --input "$TEST" --weights "$G/default.safetensors" \
	--backends cpu,webgpu,webgpu-f16,webgpu-per-model --batch 64 --runs 3
step score.log 90 "$B/discspan" bench score --input "$TEST" --weights "$G/default.safetensors" \
	--backends cpu,webgpu --batch 1 --runs 3
[ -e "$OUT/score.log" ] && grep '^|' "$OUT/score.log"

# The shipped pair parsing the test set from the command line, WebGPU
# (auto: the card, after its self-check) against the CPU: the trees that
# differ and both F1s.
step parse.log 90 bash -c "'$B/discspan' parse --input '$TEST' --backend cpu >$B/parse_cpu.dbr &&
	'$B/discspan' parse --input '$TEST' --backend auto >$B/parse_gpu.dbr &&
	echo \"trees that differ from the CPU's: \$(diff $B/parse_cpu.dbr $B/parse_gpu.dbr | grep -c '^>')\" &&
	'$B/discspan' eval '$TEST' $B/parse_cpu.dbr | grep 'labeled f-measure' | sed 's/^/cpu: /' &&
	'$B/discspan' eval '$TEST' $B/parse_gpu.dbr | grep 'labeled f-measure' | sed 's/^/webgpu: /'"

step profile_ensemble.log 120 bash -c "cd webgpu && '$B/webgpu.test' -test.run XXX -test.bench Profile_Ensemble -test.benchtime 1x"
step profile_ensemble.log 40 bash -c "cd webgpu && '$B/webgpu.test' -test.run XXX -test.bench Chunks_Ensemble -test.benchtime 1x"

step tiny.log 40 bash -c "cd webgpu && '$B/webgpu.test' -test.run XXX -test.bench Score_Tiny20 -test.benchtime 20x"
for b in 64 1; do
	step tiny.log 30 "$B/discspan" bench score --input "$TEST" --weights "$R/weights/fast.safetensors" \
		--backends cpu,webgpu --batch "$b" --runs 3
done

step profile.log 150 bash -c "cd webgpu && '$B/webgpu.test' -test.run XXX -test.bench Profile_TestSet -test.benchtime 1x"

echo "next.sh: done after $(($(date +%s) - START)) s; logs in $OUT: $(cd "$OUT" && ls | tr '\n' ' ')"
