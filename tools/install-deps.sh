#!/usr/bin/env bash
# Installs what xme needs to build and test on Debian 12, skipping what is already there.
# pybind11-dev and python3-dev build the Python module (python/), python3-distributed (Dask) runs its
# corpus (python3 -m xme.corpus, docs/corpus.md); libavfilter-dev builds
# tools/codecview_mvs (FFmpeg's codecview filter on xme's vectors).
# The CUDA toolkit is not a Debian 12 package in main: install NVIDIA's, or build without it
# (the CUDA backend is then listed as absent, with the reason). clang and its runtime libraries
# (libclang-rt-14-dev holds libFuzzer and the sanitizers' runtimes) build the fuzz targets.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  doctest-dev libcli11-dev nlohmann-json3-dev
  libavformat-dev libavcodec-dev libswscale-dev libavutil-dev libavfilter-dev
  libvulkan-dev glslang-tools spirv-cross libspirv-cross-c-shared-dev
  mesa-vulkan-drivers vulkan-validationlayers
  opencv-doc ffmpeg python3-numpy python3-dev pybind11-dev python3-distributed
  clang libclang-rt-14-dev
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: every package is installed"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
