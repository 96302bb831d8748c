// The SAD forms of shaders/sad_forms.comp written in CUDA, to read what NVIDIA's compiler makes of
// them (the Vulkan driver shows no machine code) and to time them next to vabsdiff4. Standalone:
//   nvcc -O3 -arch=sm_90 -o /tmp/sad_forms tools/device/sad_forms.cu && /tmp/sad_forms
//   cuobjdump -sass /tmp/sad_forms | grep -E 'Function|HADD2|HFMA2|FADD|IABS|VABSDIFF4'
// Prints pixel differences per second for each form (docs/vulkan.md, "Why: the measurements", has the
// H100's).
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdint>
constexpr int C = 8;
__global__ void f16(float* out, int it) {
  __half2 o = __float2half2_rn(200.f + (threadIdx.x & 7)); __half2 s[C];
  for (int c = 0; c < C; ++c) s[c] = __float2half2_rn(float(c));
  for (int i = 0; i < it; ++i)
#pragma unroll
    for (int c = 0; c < C; ++c) s[c] = __hadd2(__habs2(__hsub2(s[c], o)), s[c]);
  __half2 t = s[0]; for (int c = 1; c < C; ++c) t = __hadd2(t, s[c]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = __low2float(t) + __high2float(t);
}
// Independent form: acc[c] += |x[c] - o| with x fixed: no chain on the subtraction.
__global__ void f16ind(float* out, int it) {
  __half2 o = __float2half2_rn(200.f + (threadIdx.x & 7)); __half2 s[C], x[C];
  for (int c = 0; c < C; ++c) { s[c] = __float2half2_rn(0.f); x[c] = __float2half2_rn(float(c + threadIdx.x % 5)); }
  for (int i = 0; i < it; ++i) {
#pragma unroll
    for (int c = 0; c < C; ++c) s[c] = __hadd2(__habs2(__hsub2(x[c], o)), s[c]);
    o = __hadd2(o, __float2half2_rn(0.f));
  }
  __half2 t = s[0]; for (int c = 1; c < C; ++c) t = __hadd2(t, s[c]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = __low2float(t) + __high2float(t);
}
__global__ void f32(float* out, int it) {
  float o = 200.f + (threadIdx.x & 7); float s[C];
  for (int c = 0; c < C; ++c) s[c] = float(c);
  for (int i = 0; i < it; ++i)
#pragma unroll
    for (int c = 0; c < C; ++c) s[c] = fabsf(s[c] - o) + s[c];
  float t = 0; for (int c = 0; c < C; ++c) t += s[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = t;
}
__global__ void mixed(float* out, int it) {  // 4 half2 chains (8 px) + 4 float chains (4 px)
  __half2 o = __float2half2_rn(200.f + (threadIdx.x & 7)); __half2 s[C/2];
  float of = 200.f + (threadIdx.x & 7); float sf[C/2];
  for (int c = 0; c < C/2; ++c) { s[c] = __float2half2_rn(float(c)); sf[c] = float(c); }
  for (int i = 0; i < it; ++i)
#pragma unroll
    for (int c = 0; c < C/2; ++c) { s[c] = __hadd2(__habs2(__hsub2(s[c], o)), s[c]); sf[c] = fabsf(sf[c] - of) + sf[c]; }
  __half2 t = s[0]; float tf = 0; for (int c = 1; c < C/2; ++c) t = __hadd2(t, s[c]);
  for (int c = 0; c < C/2; ++c) tf += sf[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = __low2float(t) + __high2float(t) + tf;
}
__global__ void i32(float* out, int it) {
  int o = 200 + (threadIdx.x & 7); int s[C];
  for (int c = 0; c < C; ++c) s[c] = c;
  for (int i = 0; i < it; ++i)
#pragma unroll
    for (int c = 0; c < C; ++c) s[c] = abs(s[c] - o) + s[c];
  int t = 0; for (int c = 0; c < C; ++c) t += s[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = float(t);
}
__global__ void vsad(float* out, int it) {
  unsigned o = 0x9E3779B9u ^ threadIdx.x; unsigned a[C], s[C];
  for (int c = 0; c < C; ++c) { a[c] = (c + 7u) * 0x01010101u ^ blockIdx.x; s[c] = 0; }
  for (int i = 0; i < it; ++i)
#pragma unroll
    for (int c = 0; c < C; ++c) asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(s[c]) : "r"(a[c]), "r"(o), "r"(s[c]));
  unsigned t = 0; for (int c = 0; c < C; ++c) t += s[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = float(t);
}
template <class K> void run(const char* name, K kernel, double px_per_chain_iter) {
  float* out; int blocks = 132 * 8, threads = 256, it = 1 << 14;
  cudaMalloc(&out, blocks * threads * 4);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  kernel<<<blocks, threads>>>(out, it);
  float best = 1e9;
  for (int r = 0; r < 3; ++r) { cudaEventRecord(a); kernel<<<blocks, threads>>>(out, it); cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); if (ms < best) best = ms; }
  double px = double(blocks) * threads * it * px_per_chain_iter;
  std::printf("%-8s %8.2f Tpx/s  %s\n", name, px / (best * 1e-3) / 1e12, cudaGetErrorString(cudaGetLastError()));
  cudaFree(out);
}
int main() {
  run("f16", f16, C * 2.0); run("f16ind", f16ind, C * 2.0); run("f32", f32, C * 1.0);
  run("mixed", mixed, C / 2 * 3.0); run("i32", i32, C * 1.0); run("vsad", vsad, C * 4.0);
  int clk; cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0); std::printf("clock %d kHz\n", clk);
}
