#!/usr/bin/env bash
# The table of operations' searches on the GPU machine, CUDA and Vulkan (NVIDIA's driver) in one
# binary: builds there with the Vulkan tools carried from this machine, then checks or times.
# Carry [".device", ".gl"]: .device/deps (doctest, CLI11, nlohmann-json headers, as
# build_on_device.sh says), .device/clips (tools/make_test_clips.sh .device/clips 12), .device/vk
# (glslangValidator, libspirv-cross-c-shared and the spirv_cross, vulkan and vk_video headers copied
# from Debian's packages), and for `performance` .device/base (`git archive REV | tar -x -C
# .device/base`: the build to compare against).
#   tools/device/search_table_check.sh correctness   conformance of every fast search's rows on
#                                                   cuda and vulkan, memcheck on umh, xme compare of
#                                                   umh on cpu, cuda:0 and vulkan:0 with each predictor
#   tools/device/search_table_check.sh conformance  every conformance row on cuda and vulkan, and
#                                                   the memcheck and compares of `correctness`
#   tools/device/search_table_check.sh performance  xme bench of every search, HEAD and the base
#                                                   build alternated, cuda:0 and vulkan:0
#   tools/device/search_table_check.sh profile       the dia and hex walks' kernels (block 16, no
#                                                   refinement) of HEAD and the base build: registers
#                                                   and SASS length (cuobjdump), ncu's sections
set -uo pipefail
mode=${1:?usage: tools/device/search_table_check.sh correctness|conformance|performance|profile}
root=$PWD
source "$(dirname "$0")/build_here.sh"  # build
B=build/device-head
targets="xme xme_tests"
[ "$mode" = profile ] && targets=xme  # the kernels only
build . "$B" $targets || { tail -n 30 "$OUT/build_device-head.log"; exit 1; }
source "$(dirname "$0")/step.sh"  # B, $OUT, xme, tests, clip, step
source "$(dirname "$0")/vulkan_env.sh"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
step devices 60 "$xme" devices

if [ "$mode" = conformance ]; then
    for device in cuda vulkan; do
        TAIL=6 step "conformance_$device" 300 env XME_TEST_DEVICE=$device XME_VULKAN_VALIDATION=$validation \
            "$tests" --test-suite=conformance
    done
fi
if [ "$mode" = correctness ]; then
    for device in cuda vulkan; do
        for search in umh tz ehds dia hex; do
            TAIL=6 step "conformance_${device}_$search" 300 env XME_TEST_DEVICE=$device XME_VULKAN_VALIDATION=$validation \
                XME_TEST_OPERATION="$search" "$tests" --test-suite=conformance -tc="operations*,real frames*"
        done
    done
fi
if [ "$mode" = profile ]; then
    build .device/base build/device-base xme || { tail -n 30 "$OUT/build_device-base.log"; exit 1; }
    for which in base head; do
        bin=build/device-$which/tools/xme
        # Block 16, no refinement: the kernels the bench's dia and hex rows time.
        cuobjdump -res-usage "$bin" 2>/dev/null | grep -A1 -E 'search_kernelILi16ELNS0_10RefinementE0' |
            grep -v '^--' | paste - - | sed -E 's/^.*Function ([^:]*):.*(REG:[0-9]+).*(SHARED:[0-9]+).*$/\1 \2 \3/' |
            while read -r name registers shared; do
                echo "$which $name $registers $shared"
            done | tee -a "$OUT/kernels_$which.txt"
        for search in dia hex; do
            TAIL=2 step "ncu_${which}_$search" 300 ncu --kernel-name regex:'(walk|fast)_search_kernel' --launch-skip 10 \
                --launch-count 3 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
                --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis \
                "$bin" bench --backends cuda:0 --variants fast --sizes 1920x1080 --blocks 16 --ranges 16 \
                --search "$search" --subpel none --pairs 30 --rounds 1 --warm-up 0 --no-sad-peak
            grep -E '^  [a-z_]+search_kernel|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit Reg|Executed Ipc A|Issue Slots Busy|Warp Cycles Per Issued|L1/TEX Hit|L2 Hit|Memory Throughput|Executed Instructions  ' \
                "$OUT/ncu_${which}_$search.log" | head -60 >"$OUT/ncu_${which}_${search}_key.txt"
        done
    done
    for search in dia hex; do paste "$OUT/ncu_base_${search}_key.txt" "$OUT/ncu_head_${search}_key.txt" | cut -c1-200; done
fi
if [ "$mode" = conformance ] || [ "$mode" = correctness ]; then
    step memcheck_umh 300 compute-sanitizer --tool memcheck --error-exitcode 9 env XME_TEST_DEVICE=cuda \
        XME_TEST_VARIANTS=fast XME_TEST_OPERATION=umh "$tests" --test-suite=conformance -tc="operations*"
    for settings in "--predictor none" "--predictor temporal" "--predictor temporal --refresh 3" \
        "--predictor spatial" "--predictor spatial --center predictor"; do
        for algo in umh umh+qpel; do
            name="compare_${algo}_$(echo "$settings" | tr -c 'a-z0-9' '_')"
            TAIL=3 step "$name" 120 "$xme" compare "$clip" --backends cpu,cuda:0,vulkan:0 --algo "$algo" --qp 28 \
                $settings --frames 12
        done
    done
fi
if [ "$mode" = performance ]; then
    build .device/base build/device-base xme || { tail -n 30 "$OUT/build_device-base.log"; exit 1; }
    for round in 1 2; do
        for which in base head; do
            TAIL=16 step "bench_${which}_$round" 200 "build/device-$which/tools/xme" bench --backends cuda:0,vulkan:0 \
                --variants fast --sizes 1920x1080 --blocks 16 --ranges 16 --search fs,dia,hex,ehds,tz \
                --subpel none,qpel --pairs 30 --rounds 3 --warm-up 0.2 --no-sad-peak --json "$OUT/bench_${which}_$round.json"
        done
    done
    TAIL=8 step bench_umh 200 "$xme" bench --backends cuda:0,vulkan:0 --variants fast --sizes 1920x1080 --blocks 16 \
        --ranges 16 --algos fs,umh,umh+qpel --pairs 30 --rounds 3 --warm-up 0.2 --no-sad-peak --json "$OUT/bench_umh.json"
fi
echo "=== summary"
cat "$OUT/summary.txt"
exit $status
