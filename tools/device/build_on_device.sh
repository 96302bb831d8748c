#!/usr/bin/env bash
# Builds xme on the GPU machine itself (16 cores: minutes there instead of tens here), CUDA for the
# H100/H200 only, without the Debian-only parts (FFmpeg, Vulkan's glslang/SPIRV-Cross). The
# header-only packages the build needs (doctest, CLI11, nlohmann-json) are carried in .device/deps,
# copied from this machine's Debian packages (the machine has no package registry):
#   for p in doctest-dev libcli11-dev nlohmann-json3-dev; do dpkg -L $p | while read f; do
#     [ -f "$f" ] && case $f in /usr/include/*|/usr/lib/cmake/*|/usr/share/cmake/*|/usr/share/pkgconfig/*)
#       mkdir -p .device/deps$(dirname "$f") && cp "$f" .device/deps$f;; esac; done; done
# Test clips: tools/make_test_clips.sh .device/clips 12. Carry [".device"].
#   source tools/device/build_on_device.sh   # sets B to the build folder, or returns non-zero
# (about a minute on the H100 machine's 16 cores; logs: $OUT/configure.log, $OUT/build.log)
B=${XME_BUILD:-build/device}
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DXME_WITH_FFMPEG=OFF -DXME_WITH_VULKAN=OFF \
    -DCMAKE_CUDA_ARCHITECTURES=90-real -DCMAKE_PREFIX_PATH="$PWD/.device/deps/usr" \
    -DCMAKE_INCLUDE_PATH="$PWD/.device/deps/usr/include" >"${OUT:-.}/configure.log" 2>&1 &&
    cmake --build "$B" -j16 --target xme xme_tests xme_cuda_bench >"${OUT:-.}/build.log" 2>&1
