//go:build pin

// This file pins the modules Loam's daemons and tools are built from, so that
// go.mod lists them before the first package imports each one and parallel
// work does not race on go.mod. It is never compiled.
package test

import (
	_ "github.com/NVIDIA/go-nvml/pkg/nvml"
	_ "github.com/NVIDIA/go-nvml/pkg/nvml/mock/dgxh100"
	_ "github.com/containerd/cgroups/v3"
	_ "github.com/containerd/cgroups/v3/cgroup1"
	_ "github.com/containerd/cgroups/v3/cgroup2"
	_ "github.com/coreos/go-systemd/v22/daemon"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/mattn/go-sqlite3"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/prometheus/client_golang/prometheus/promhttp"
	_ "github.com/sirupsen/logrus"
	_ "github.com/spf13/pflag"
	_ "github.com/urfave/cli/v2"
	_ "golang.org/x/sys/unix"
)
