#!/usr/bin/env bash
# bench/trainers_gpu.sh OUT LLMC NANOGPT [PART...] - `capture-window profile
# --auto` on two real trainers on a GPU machine (issue 31 item 4):
# karpathy/llm.c's train_gpt2.cu (evaluation every 20 steps, a checkpoint
# every 30) and karpathy/nanoGPT's train.py (evaluation and checkpoint every
# 20), neither edited. LLMC and NANOGPT are their source trees (the device
# reaches no network: the data are synthetic, in each project's own format,
# and the models random-init). Per trainer: one run without the tool, then
# `profile --auto` (its learning run and its nsys run), the table, and
# whether each run printed the plain run's losses. PARTS (default all):
#   plugin   the GCC plugin for the host's gcc (scripts/device-gcc13.sh plugin)
#   llmc     llm.c built by nvcc twice, plain and with the plugin marking its
#            step loop by FILE:LINE (-fplugin-arg-capture_window-loop)
#   nanogpt  nanoGPT through the zero edit (python -m capture_window --loop)
#   llmc-nvtx  llm.c's --auto again, with the NVTX trigger (after llmc)
#   llmc-order CAPTURE_WINDOW=10:3,40:3 profile of llm.c, both triggers (after llmc)
# AUTO_OPTS: more options for profile --auto (e.g. '-c nvtx -p step').
# Run from the source tree with libcapture_window in build/runtime; PY is
# the Python with torch, NSYS the nsys to run. Logs go to OUT.
set -u
out=$(realpath -m "${1:?usage: trainers_gpu.sh OUT LLMC NANOGPT [plugin llmc nanogpt]}")
llmc=$(realpath "${2:?}")
nano=$(realpath "${3:?}")
shift 3
parts=${*:-plugin llmc nanogpt}
root=$PWD
mkdir -p "$out"
PY=${PY:-/opt/torch/.venv/bin/python3}
NSYS=${NSYS:-$root/.device/nsys}
export NSYS PYTHONPATH=$root/python
export CAPTURE_WINDOW_LIBRARY=${CAPTURE_WINDOW_LIBRARY:-$root/build/runtime/libcapture_window.so.1}
cli=$root/cli/capture-window
read -r -a auto_opts <<<"${AUTO_OPTS:-}"
plugin=$root/build-gcc13/plugin/gcc/capture_window.so

# timed NAME CMD...: CMD's stdout into OUT/NAME.out, stderr into NAME.err.
timed() {
  local name=$1 t0=$SECONDS; shift
  echo "== $name: $*"
  "$@" >"$out/$name.out" 2>"$out/$name.err"
  echo "== $name: exit status $?, $((SECONDS - t0)) s"
}
# same NAME FILE PLAIN: the loss lines of FILE (the pattern in $losses,
# normalised by $norm) against those of the plain run.
same() {
  local a b
  a=$(grep -E "$losses" "$2" | sed -E "$norm")
  b=$(grep -E "$losses" "$3" | sed -E "$norm")
  if [ -z "$b" ]; then
    echo "== $1: no losses in $3"
  elif [ "$a" = "$b" ]; then
    echo "== $1: losses equal the plain run's ($(wc -l <<<"$a") lines)"
  else
    echo "== $1: losses DIFFER from the plain run's ($(wc -l <<<"$a") lines against $(wc -l <<<"$b"))"
    diff <(echo "$b") <(echo "$a") | head -6
  fi
}
# auto NAME DIR CMD...: profile --auto of CMD run in DIR; the table is
# the end of NAME.out, the learning run's output is in NAME.err.
auto() {
  local name=$1 dir=$2; shift 2
  (cd "$dir" && timed "$name" "$cli" profile --auto "${auto_opts[@]}" -o "$out/$name" -- "$@")
  echo "== $name: the table"
  grep -A20 '^window ' "$out/$name.out"
  grep -E '^capture-window: .*(nsys |profile --auto)' "$out/$name.err" | cut -c1-400
}

llmc_part() {
  local data=$out/llmc_data
  mkdir -p "$data"
  # llm.c's token files: a 256-int32 header (magic 20240520, version 1,
  # the token count), then uint16 tokens (llmc/dataloader.h)
  python3 - "$data" <<'PY'
import array, random, struct, sys
random.seed(31)
for name, n in (("train", 1 << 20), ("val", 1 << 17)):
    with open(f"{sys.argv[1]}/{name}.bin", "wb") as f:
        f.write(struct.pack("<256i", 20240520, 1, n, *[0] * 253))
        array.array("H", (random.randrange(50257) for _ in range(n))).tofile(f)
PY
  ls -l "$data"
  # the Makefile's flags for one H200 (sm_90), BF16, no cuDNN, no MPI/NCCL
  local line flags=(--threads=0 --use_fast_math -std=c++17 -O3
                    "--generate-code=arch=compute_90,code=[compute_90,sm_90]" -DENABLE_BF16)
  local libs=(-lcublas -lcublasLt -L/usr/local/cuda/lib64/stubs -lnvidia-ml)
  [ -e /usr/local/cuda/lib64/stubs/libnvidia-ml.so ] || libs[3]=-l:libnvidia-ml.so.1
  # CUDA 13's cudaMemAdvise takes a cudaMemLocation (llm.c passes a device
  # id): the one change to llm.c, a build fix in the fallback to managed memory
  sed -i 's/cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId)/cudaMemAdviseSetPreferredLocation, cudaMemLocation{cudaMemLocationTypeHost, 0})/' \
    "$llmc/llmc/cuda_utils.cuh"
  line=$(grep -n 'for (; step <= train_num_batches; step++)' "$llmc/train_gpt2.cu" | cut -d: -f1)
  echo "== llm.c's step loop: train_gpt2.cu:$line"
  (cd "$llmc" || exit
   timed llmc_build_plain nvcc "${flags[@]}" train_gpt2.cu "${libs[@]}" -o train_gpt2cu &
   timed llmc_build_cw nvcc "${flags[@]}" \
     -Xcompiler "-fplugin=$plugin,-fplugin-arg-capture_window-loop=train_gpt2.cu:$line,-fplugin-arg-capture_window-verbose" \
     train_gpt2.cu "${libs[@]}" -L"$root/build/runtime" -lcapture_window \
     -Xlinker -rpath -Xlinker "$root/build/runtime" -o train_gpt2cu_cw
   wait)
  grep -h 'capture_window' "$out/llmc_build_cw.err" | head -5
  tail -n 3 "$out/llmc_build_plain.err" "$out/llmc_build_cw.err"
  (cd "$llmc" && timed llmc_plain ./train_gpt2cu "${llmc_args[@]}" -o "$out/llmc_ckpt_plain")
  tail -n 3 "$out/llmc_plain.out"
  grep -E "$llmc_losses" "$out/llmc_plain.out" | sed -E "$llmc_norm" >"$out/llmc_losses.txt"
  rm -rf "$out/llmc_ckpt_plain"
  llmc_auto llmc_auto
}
# llmc_auto NAME: profile --auto of the marked build, its losses compared.
llmc_auto() {
  auto "$1" "$llmc" ./train_gpt2cu_cw "${llmc_args[@]}" -o "$out/llmc_ckpt"
  losses=$llmc_losses norm=$llmc_norm
  same "$1 (learning run)" "$out/$1.err" "$out/llmc_plain.out"
  same "$1 (nsys run)" "$out/$1.out" "$out/llmc_plain.out"
  rm -rf "$out/llmc_ckpt"
}
# a GPT-2 of 6 layers (-e d6, random init), B=8 T=256, 100 steps;
# evaluation every 20 (-v 20), a checkpoint every 30 (-n 30), no sampling
llmc_args=(-i "$out/llmc_data/train.bin" -j "$out/llmc_data/val.bin" -e d6 -b 8 -t 256 -d 2048
           -x "${LLMC_STEPS:-100}" -v 20 -m 20 -n 30 -s 0)
llmc_losses='^(step +[0-9]+/[0-9]+ \| loss |val loss )'
llmc_norm='s/^(step +[0-9]+\/[0-9]+ \| loss [^ ]+).*/\1/'

nanogpt_part() {
  # nanoGPT's data: train.bin/val.bin uint16 memmaps and meta.pkl (vocab)
  local data=$nano/data/cw
  mkdir -p "$data"
  "$PY" - "$data" <<'PY'
import pickle, sys
import numpy as np
rng = np.random.default_rng(31)
for name, n in (("train", 1 << 20), ("val", 1 << 17)):
    rng.integers(0, 512, n, dtype=np.uint16).tofile(f"{sys.argv[1]}/{name}.bin")
pickle.dump({"vocab_size": 512}, open(f"{sys.argv[1]}/meta.pkl", "wb"))
PY
  local line
  line=$(grep -n '^while True:' "$nano/train.py" | cut -d: -f1)
  echo "== nanoGPT's step loop: train.py:$line"
  # 4 layers, d=256, 100 iterations; evaluation (20 batches a split) and a
  # checkpoint every 20 (always_save_checkpoint), no torch.compile
  local args=(--dataset=cw --eval_interval=20 --eval_iters=20 --log_interval=1
              --always_save_checkpoint=True --max_iters="${NANOGPT_STEPS:-100}" --lr_decay_iters=100
              --warmup_iters=10 --n_layer=4 --n_head=4 --n_embd=256 --block_size=128 --batch_size=16
              --gradient_accumulation_steps=1 --dropout=0.0 --compile=False)
  (cd "$nano" && timed nanogpt_plain "$PY" train.py "${args[@]}" --out_dir="$out/nanogpt_ckpt_plain")
  tail -2 "$out/nanogpt_plain.out"
  auto nanogpt_auto "$nano" "$PY" -m capture_window --loop "train.py:$line" \
    train.py "${args[@]}" --out_dir="$out/nanogpt_ckpt"
  losses='^(iter [0-9]+: loss |step [0-9]+: train loss )'
  norm='s/^(iter [0-9]+: loss [^,]+),.*/\1/'
  same nanogpt_auto_learning "$out/nanogpt_auto.err" "$out/nanogpt_plain.out"
  same nanogpt_auto_nsys "$out/nanogpt_auto.out" "$out/nanogpt_plain.out"
  grep -E "$losses" "$out/nanogpt_plain.out" | sed -E "$norm" >"$out/nanogpt_losses.txt"
  rm -rf "$out/nanogpt_ckpt_plain" "$out/nanogpt_ckpt" "$data"
}

{
  date -u; nvidia-smi -L; gcc --version | head -1; nvcc --version | tail -2; "$NSYS" --version
  "$PY" -c 'import sys, torch; print(sys.version.split()[0], "torch", torch.__version__)'
  echo "llm.c: $(cat "$llmc/COMMIT" 2>/dev/null)  nanoGPT: $(cat "$nano/COMMIT" 2>/dev/null)"
  for part in $parts; do
    t0=$SECONDS
    case $part in
      plugin) if [ -n "$(echo 'int x;' | gcc -fplugin="$plugin" -x c -c -o /dev/null - 2>&1 || echo no)" ]; then
                bash scripts/device-gcc13.sh plugin 2>&1 | tail -4
              fi
              echo 'int x;' | gcc -fplugin="$plugin" -x c -c -o /dev/null - && echo "== the host's gcc loads $plugin" ;;
      llmc) llmc_part ;;
      nanogpt) nanogpt_part ;;
      # llm.c calls cudaProfilerStart before its loop and cudaProfilerStop
      # after step 3 itself: the same --auto with the NVTX trigger, which
      # only the runtime's registered window range opens
      llmc-nvtx) auto_opts=(-c nvtx -p step); llmc_auto llmc_auto_nvtx ;;
      # two windows of our own under plain `profile`, both triggers: which
      # report holds which steps when the program starts the profiler too
      llmc-order)
        for trigger in cuda nvtx; do
          opts=(); [ $trigger = cuda ] || opts=(-c nvtx -p step)
          (cd "$llmc" && CAPTURE_WINDOW=10:3,40:3 timed "llmc_order_$trigger" "$cli" profile "${opts[@]}" \
             -o "$out/llmc_order_$trigger" -- ./train_gpt2cu_cw "${llmc_args[@]}" -o "$out/llmc_ckpt")
          grep -E 'nsys-rep: |^capture-window: ' "$out/llmc_order_$trigger.out" "$out/llmc_order_$trigger.err" | cut -c1-300
          rm -rf "$out/llmc_ckpt"
        done ;;
      *) echo "== unknown part '$part' (plugin llmc nanogpt llmc-nvtx llmc-order)" ;;
    esac
    echo "== part $part: $((SECONDS - t0)) s"
  done
  date -u
} 2>&1 | tee "$out/trainers_gpu.log"
