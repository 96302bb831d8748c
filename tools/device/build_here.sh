# Sourced by the GPU-machine scripts that build there with Vulkan (search_table_check.sh,
# readme_table.sh, writing_check.sh): `build SOURCE DIR TARGETS...` configures a Release build of
# SOURCE in DIR (CUDA for sm_90 only, Vulkan's tools and headers from .device/vk, the header-only
# packages from .device/deps, as build_on_device.sh says) and builds TARGETS; a DIR that already holds
# them is kept (a warm machine). Logs: $OUT/configure_DIR.log, $OUT/build_DIR.log.
root=${root:-$PWD}
export PATH="$root/.device/vk/bin:$PATH"
export LD_LIBRARY_PATH="$root/.device/vk/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
build() {  # build SOURCE DIR TARGETS...
    local source=$1 dir=$2; shift 2
    [ -x "$dir/tools/xme" ] && [ -x "$dir/tests/xme_tests" -o "$*" = xme ] && return 0
    cmake -S "$source" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DXME_WITH_FFMPEG=OFF -DXME_WITH_PYTHON=OFF \
        -DCMAKE_CUDA_ARCHITECTURES=90-real -DCMAKE_PREFIX_PATH="$root/.device/deps/usr" \
        -DCMAKE_INCLUDE_PATH="$root/.device/deps/usr/include;$root/.device/vk/include" \
        -DCMAKE_LIBRARY_PATH="$root/.device/vk/lib" -DCMAKE_CXX_FLAGS="-isystem $root/.device/vk/include" \
        >"${OUT:-.}/configure_$(basename "$dir").log" 2>&1 &&
        cmake --build "$dir" -j16 --target "$@" >"${OUT:-.}/build_$(basename "$dir").log" 2>&1
}
