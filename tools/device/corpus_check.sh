#!/usr/bin/env bash
# The corpus on the GPU machine (docs/corpus.md, "Measured"): builds xme and its Python module there, then
# times `xme estimate` clip after clip against `python3 -m xme.corpus` on a Dask local cluster (one GPU
# worker, CPU workers) on the same 1080p clips, with tools/corpus_bench.py, vectors written.
# Carry [".device", ".gl"]: .device/deps as build_on_device.sh says, plus pybind11's headers and CMake
# files (cp -r /usr/include/pybind11 .device/deps/usr/include/; cp -r /usr/lib/cmake/pybind11
# .device/deps/usr/lib/cmake/); .device/vk as search_table_check.sh says; .device/pydeps: Debian's Dask
# and what it imports (dask distributed toolz tlz cloudpickle fsspec partd locket yaml _yaml msgpack
# psutil tornado zict tblib sortedcontainers click jinja2 markupsafe packaging urllib3 heapdict.py, with
# their *.egg-info and *.dist-info (Dask reads its version from them), from /usr/lib/python3/dist-packages:
# their compiled parts are CPython 3.11's); .device/clips/vtest_1080p5.y4m
# (ffmpeg -i vtest.avi -vf scale=1920:1080 -frames:v 5 -pix_fmt gray vtest_1080p5.y4m).
#   tools/device/corpus_check.sh [CLIPS] [FRAMES]
set -uo pipefail
clips=${1:-12}
frames=${2:-60}
root=$PWD
OUT=${OUT:-corpus-check}
mkdir -p "$OUT"
export PATH="$root/.device/vk/bin:$PATH"
export LD_LIBRARY_PATH="$root/.device/vk/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
source "$(dirname "$0")/vulkan_env.sh"
python3 --version | tee "$OUT/python.txt"
python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])' | tee -a "$OUT/python.txt"
# The carried packages' compiled parts are CPython 3.11's: where this Python has its own psutil (Dask
# needs it; msgpack, yaml, tornado and markupsafe fall back to pure Python), that one is used.
if python3 -c 'import psutil' 2>/dev/null; then rm -rf .device/pydeps/psutil; fi
# pybind11: the machine's own where its Python has one (newer Pythons need a newer pybind11), else Debian's.
pybind11_dir=$(python3 -c 'import pybind11; print(pybind11.get_cmake_dir())' 2>/dev/null || true)
echo "pybind11: ${pybind11_dir:-the carried Debian one}" | tee -a "$OUT/python.txt"
B=build/device-corpus
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DXME_WITH_FFMPEG=OFF -DXME_WITH_PYTHON=ON \
    -DPython3_EXECUTABLE="$(command -v python3)" -DCMAKE_CUDA_ARCHITECTURES=90-real ${pybind11_dir:+-Dpybind11_DIR=$pybind11_dir} \
    -DCMAKE_PREFIX_PATH="$root/.device/deps/usr" -DCMAKE_INCLUDE_PATH="$root/.device/deps/usr/include;$root/.device/vk/include" \
    -DCMAKE_LIBRARY_PATH="$root/.device/vk/lib" -DCMAKE_CXX_FLAGS="-isystem $root/.device/vk/include" \
    >"$OUT/configure.log" 2>&1 || { tail -n 30 "$OUT/configure.log"; exit 1; }
grep "xme: " "$OUT/configure.log"
cmake --build "$B" -j16 --target xme xme_python >"$OUT/build.log" 2>&1 || { tail -n 30 "$OUT/build.log"; exit 1; }
export PYTHONPATH="$root/$B/python:$root/.device/pydeps"
# Dask 2022.12's GPU diagnostics expect an older pynvml than the machine's (bytes names): off.
export DASK_DISTRIBUTED__DIAGNOSTICS__NVML=False
python3 -c 'import xme, distributed; print("xme", xme.__version__, "distributed", distributed.__version__)' ||
    { echo "the module or Dask does not import with this Python: see above"; exit 1; }
python3 -c 'import xme; [print(d["name"], d["available"], d["on_host_cores"], d["reason"]) for d in xme.devices()]'
clip=.device/clips/vtest_1080p5.y4m
status=0
run() {  # run NAME ARGS...: one corpus_bench, its table to $OUT/NAME.txt
    local name=$1; shift
    echo "=== $name"
    timeout 240 python3 tools/corpus_bench.py --xme "$B/tools/xme" --from "$clip" --clips "$clips" --frames "$frames" \
        --keep "/tmp/corpus-$name" "$@" 2>&1 | tee "$OUT/$name.txt" || status=1
    rm -rf "/tmp/corpus-$name"
}
run cuda_r16_rows --corpus-option=--cpu-workers=4 -- --backend cuda --block 16 --range 16
run cuda_r16_array --array --corpus-option=--cpu-workers=4 -- --backend cuda --block 16 --range 16
run cuda_r64_rows --corpus-option=--cpu-workers=4 -- --backend cuda --block 16 --range 64
exit $status
