#!/usr/bin/env bash
# gpu-check: the checks that need a real NVIDIA GPU and driver. Run it on a GPU
# machine (make gpu-check); everywhere else the unit tests use go-nvml's mocks.
set -euo pipefail
cd "$(dirname "$0")/.."
export CGO_CFLAGS="${CGO_CFLAGS:--O2 -Wno-deprecated-declarations}"
command -v nvidia-smi >/dev/null && nvidia-smi -L || echo "gpu-check: nvidia-smi not found" >&2
# NVML discovery against the real library: indices, UUIDs, models, memory.
LOAM_REQUIRE_GPU=1 go test -count=1 -v -run TestSystemLibrary ./pkg/gpu/nvml
