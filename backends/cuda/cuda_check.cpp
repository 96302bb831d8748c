#include "cuda_check.hpp"

#include "xme/error.hpp"

namespace xme::cuda {

std::string describe(cudaError_t error) {
    return std::string(cudaGetErrorName(error)) + ": " + cudaGetErrorString(error);
}

bool is_sticky(cudaError_t error) {
    switch (error) {
        case cudaErrorIllegalAddress:
        case cudaErrorLaunchFailure:
        case cudaErrorLaunchTimeout:
        case cudaErrorHardwareStackError:
        case cudaErrorIllegalInstruction:
        case cudaErrorMisalignedAddress:
        case cudaErrorInvalidAddressSpace:
        case cudaErrorInvalidPc:
        case cudaErrorECCUncorrectable:
        case cudaErrorDevicesUnavailable:
        case cudaErrorDeviceUninitialized:
        case cudaErrorContextIsDestroyed:
        case cudaErrorUnknown:
            return true;
        default:
            return false;
    }
}

void check(cudaError_t error, const char* call, const CallSite& site, std::size_t bytes) {
    if (error == cudaSuccess) return;
    std::string where = site.device;
    if (site.frame >= 0) where += ", frame " + std::to_string(site.frame);
    if (error == cudaErrorMemoryAllocation) {
        const auto mib = [](std::size_t b) {
            return std::to_string(static_cast<long long>(static_cast<double>(b) / (1024.0 * 1024.0) + 0.5)) +
                   " MiB";
        };
        const std::string job = site.frame_size.empty() ? std::string("this job") : site.frame_size;
        if (bytes == 0) {
            // Not one of xme's allocations: the driver's own (a context, a module) found too little.
            throw Error(ErrorKind::device,
                        where + ": out of memory: " + call + " failed for " + job +
                            ": the GPU has too little free memory to start (other processes "
                            "hold it: see nvidia-smi); free some, or use another device");
        }
        std::size_t free_bytes = 0;
        std::size_t total_bytes = 0;
        const std::string free_now = cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess
                                         ? " (" + mib(free_bytes) + " free of " + mib(total_bytes) + ")"
                                         : "";
        static_cast<void>(cudaGetLastError());
        throw Error(ErrorKind::device, where + ": out of memory: " + call + " asked for " + mib(bytes) +
                                           " (" + std::to_string(bytes) + " bytes) for " + job + free_now +
                                           "; try a smaller frame or search range, or another device");
    }
    if (is_sticky(error)) {
        // Drain the error so that the process can still clean up; the context itself is gone.
        static_cast<void>(cudaGetLastError());
        throw Error(ErrorKind::device, where + ": the GPU failed and this job cannot continue: " + call +
                                           " returned " + describe(error) +
                                           " (a lost device, a driver reset or a kernel fault; "
                                           "check 'nvidia-smi' and the system log)");
    }
    throw Error(ErrorKind::device, where + ": " + call + " failed: " + describe(error));
}

}  // namespace xme::cuda
