package sim

import (
	"fmt"
	"io"
	"slices"
)

// Calibration summarizes a trace with the statistics the Acme and Helios
// papers report, so a generated trace can be checked against them.
type Calibration struct {
	Jobs int `json:"jobs"`
	// OfferedLoad is GPU-seconds submitted over the GPU-seconds of a
	// cluster of the given size during the given days.
	OfferedLoad float64 `json:"offered_load"`
	// MedianRunGPU is the median runtime of GPU jobs (Acme: 122-124 s).
	MedianRunGPU float64 `json:"median_run_gpu_s"`
	// MeanGPUs is the mean GPUs per GPU job (Acme: 5.7 Seren, 26.8 Kalos).
	MeanGPUs       float64 `json:"mean_gpus"`
	MaxGPUs        int     `json:"max_gpus"`
	SingleGPUShare float64 `json:"single_gpu_share"`
	// MultiNodeWhole says every multi-node job uses whole nodes.
	MultiNodeWhole bool `json:"multi_node_whole"`
	// LongGPUTimeShare is the share of GPU time in jobs that run a day or
	// more; Top1GPUTimeShare the share of the 1% of jobs with the most GPU
	// time (Acme: pretraining, a few percent of jobs, holds most of it).
	LongGPUTimeShare float64 `json:"long_gpu_time_share"`
	Top1GPUTimeShare float64 `json:"top1_gpu_time_share"`
	// MedianOverAsk is the median limit_s / run_s of jobs that ran a
	// minute or more.
	MedianOverAsk float64            `json:"median_over_ask"`
	QueueShare    map[string]float64 `json:"queue_share"`
	TimeoutShare  float64            `json:"timeout_share"`
}

// Calibrate computes the statistics of recs for a cluster of gpus GPUs over
// days.
func Calibrate(recs []Record, gpus int, days float64) Calibration {
	c := Calibration{Jobs: len(recs), MultiNodeWhole: true, QueueShare: map[string]float64{}}
	var a calibAcc
	for _, r := range recs {
		a.add(&c, r)
	}
	for q := range c.QueueShare {
		c.QueueShare[q] /= float64(max(len(recs), 1))
	}
	if gpus > 0 && days > 0 {
		c.OfferedLoad = a.total / (float64(gpus) * days * 86400)
	}
	slices.Sort(a.runs)
	slices.Sort(a.asks)
	c.MedianRunGPU, c.MedianOverAsk = quantile(a.runs, 0.5), quantile(a.asks, 0.5)
	if a.gpuJobs > 0 {
		c.MeanGPUs = float64(a.gpuSum) / float64(a.gpuJobs)
		c.SingleGPUShare = float64(a.single) / float64(a.gpuJobs)
	}
	if a.total > 0 {
		c.LongGPUTimeShare = a.long / a.total
		slices.Sort(a.work)
		var top float64
		for _, w := range a.work[len(a.work)-max(len(a.work)/100, 1):] {
			top += w
		}
		c.Top1GPUTimeShare = top / a.total
	}
	c.TimeoutShare = float64(a.timeouts) / float64(max(len(recs), 1))
	return c
}

// calibAcc accumulates the sums Calibrate needs.
type calibAcc struct {
	runs, work, asks                  []float64
	total, long                       float64
	gpuJobs, gpuSum, single, timeouts int
}

func (a *calibAcc) add(c *Calibration, r Record) {
	w := float64(r.GPUs) * r.Run.Seconds()
	a.total += w
	a.work = append(a.work, w)
	if r.Run.Hours() >= 24 {
		a.long += w
	}
	c.QueueShare[r.Queue]++
	if r.State == "TIMEOUT" {
		a.timeouts++
	}
	if r.Limit > 0 && r.Run.Seconds() >= 60 {
		a.asks = append(a.asks, r.Limit.Seconds()/r.Run.Seconds())
	}
	if r.Nodes > 1 && (r.GPUsPerNode == 0 || r.GPUsPerNode*r.Nodes != r.GPUs) {
		c.MultiNodeWhole = false
	}
	if r.GPUs == 0 {
		return
	}
	a.gpuJobs++
	a.gpuSum += r.GPUs
	c.MaxGPUs = max(c.MaxGPUs, r.GPUs)
	a.runs = append(a.runs, r.Run.Seconds())
	if r.GPUs == 1 {
		a.single++
	}
}

// Write prints the calibration as "key value" lines with the Acme figures
// they are meant to match.
func (c Calibration) Write(w io.Writer) error {
	queues := make([]string, 0, len(c.QueueShare))
	for q := range c.QueueShare {
		queues = append(queues, q)
	}
	slices.Sort(queues)
	_, err := fmt.Fprintf(w, "jobs %d\noffered_load %.3f\nmedian_run_gpu_s %.0f (Acme 122-124)\n"+
		"mean_gpus %.2f (Acme 5.68-26.77)\nmax_gpus %d (Acme 1024)\nsingle_gpu_share %.3f\n"+
		"multi_node_whole %v\nlong_gpu_time_share %.3f\ntop1_gpu_time_share %.3f\nmedian_over_ask %.2f\ntimeout_share %.3f\n",
		c.Jobs, c.OfferedLoad, c.MedianRunGPU, c.MeanGPUs, c.MaxGPUs, c.SingleGPUShare, c.MultiNodeWhole,
		c.LongGPUTimeShare, c.Top1GPUTimeShare, c.MedianOverAsk, c.TimeoutShare)
	for _, q := range queues {
		if err == nil {
			_, err = fmt.Fprintf(w, "queue_share %s %.3f\n", q, c.QueueShare[q])
		}
	}
	return err
}
