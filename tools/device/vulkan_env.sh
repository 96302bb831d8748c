# Sourced by the GPU-machine scripts: makes Vulkan reachable there. The machine has NVIDIA's driver
# but no loader: unpack Debian's loader (and validation layer) from .gl/, and point the loader at the
# driver's Vulkan implementation in libEGL_nvidia.so.0 through an ICD manifest written to $OUT.
# Sets `validation` to 1 when the validation layer is installed.
# The loader goes into / (the device README's way); the validation layer, another package, is unpacked
# elsewhere and found through VK_ADD_LAYER_PATH, so that it cannot break the machine's own files.
if ! ldconfig -p | grep -q 'libvulkan\.so\.1'; then
    for f in .gl/*.deb; do
        case "$f" in *validationlayers*) ;; *) dpkg -x "$f" / ;; esac
    done
    ldconfig
fi
for f in .gl/*validationlayers*.deb; do
    [ -e "$f" ] || continue
    dpkg -x "$f" /tmp/vulkan-layers
    export VK_ADD_LAYER_PATH=/tmp/vulkan-layers/usr/share/vulkan/explicit_layer.d
    export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/tmp/vulkan-layers/usr/lib/x86_64-linux-gnu"
done
# NVIDIA's driver implements Vulkan in libEGL_nvidia.so.0; without a manifest the loader cannot find it.
nvidia_egl=/usr/local/nvidia/lib64/libEGL_nvidia.so.0
[ -e "$nvidia_egl" ] || nvidia_egl=$(ldconfig -p | awk '/libEGL_nvidia\.so\.0/ {print $NF; exit}')
if [ -n "$nvidia_egl" ]; then  # elsewhere (lavapipe, say) the installed drivers serve
    case "$OUT" in /*) manifest=$OUT/nvidia_icd.json ;; *) manifest=$PWD/$OUT/nvidia_icd.json ;; esac
    printf '{"file_format_version":"1.0.1","ICD":{"library_path":"%s","api_version":"1.4.312"}}\n' "$nvidia_egl" >"$manifest"
    export VK_DRIVER_FILES=$manifest VK_ICD_FILENAMES=$manifest
fi
validation=0
if [ -e /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] ||
    [ -e "${VK_ADD_LAYER_PATH:-/nonexistent}/VkLayer_khronos_validation.json" ]; then validation=1; fi
