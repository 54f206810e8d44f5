package slurmconf

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// TRES billing (billing): a partition's TRESBillingWeights
// ("CPU=1.0,Mem=0.25G,GRES/gpu=2.0") price what a job in it holds; the sum
// of the weighted counts, cut to a whole number, is the job's billing TRES
// (checked on Slurm 22.05: cpu=6,mem=6G bills 7, not 8). Without weights
// a job bills its CPUs. PriorityFlags=MAX_TRES bills the largest weighted
// node TRES (cpu, mem, node, gres/...) plus the sum of the global ones
// (licenses). Billing is shown and recorded; Loam's fair share and quotas
// count GPU time and never read it.

// BillingWeight is one TRES's price per unit: per CPU, node or GPU, and
// per MB of memory (a weight written "0.25G" is 0.25 per GB).
type BillingWeight struct {
	TRES   string // lower case: "cpu", "mem", "gres/gpu", "license/x"
	Weight float64
}

// BillingWeights is a partition's TRESBillingWeights; Text is the value
// as written, which scontrol shows.
type BillingWeights struct {
	Text    string
	Weights []BillingWeight
}

// memUnits are the MB in one unit of a memory weight's suffix.
var memUnits = map[byte]float64{'K': 1.0 / 1024, 'M': 1, 'G': 1024, 'T': 1024 * 1024, 'P': 1024 * 1024 * 1024}

// ParseBillingWeights reads a TRESBillingWeights value.
func ParseBillingWeights(s string) (BillingWeights, error) {
	out := BillingWeights{Text: s}
	for item := range strings.SplitSeq(s, ",") {
		name, val, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || name == "" || val == "" {
			return BillingWeights{}, fmt.Errorf("%q is not TRES=WEIGHT", item)
		}
		name = strings.ToLower(name)
		if err := checkBillingTRES(name); err != nil {
			return BillingWeights{}, err
		}
		unit := 1.0
		if u, ok := memUnits[strings.ToUpper(val[len(val)-1:])[0]]; ok {
			if name != "mem" {
				return BillingWeights{}, fmt.Errorf("weight %q of %s: only Mem takes a unit", val, name)
			}
			unit, val = u, val[:len(val)-1]
		}
		w, err := strconv.ParseFloat(val, 64)
		if err != nil || w < 0 || math.IsInf(w, 0) || math.IsNaN(w) {
			return BillingWeights{}, fmt.Errorf("weight %q of %s is not a non-negative number", val, name)
		}
		out.Weights = append(out.Weights, BillingWeight{TRES: name, Weight: w / unit})
	}
	return out, nil
}

// checkBillingTRES accepts the TRES a weight may price.
func checkBillingTRES(name string) error {
	switch name {
	case "cpu", "mem", "node", "energy":
		return nil
	}
	for _, p := range []string{"gres/", "license/", "bb/", "fs/", "ic/"} {
		if strings.HasPrefix(name, p) && len(name) > len(p) {
			return nil
		}
	}
	return fmt.Errorf("%q is not a TRES name (CPU, Mem, Node, GRES/NAME, License/NAME)", name)
}

// billingWeights decodes a partition's TRESBillingWeights.
func (x *dec) billingWeights(dst *BillingWeights) {
	f, ok := x.get("TRESBillingWeights")
	if !ok {
		return
	}
	w, err := ParseBillingWeights(f.Value)
	if err != nil {
		x.bad(f, "%v", err)
		return
	}
	*dst = w
}

// decodeBillingFlags reads PriorityFlags' MAX_TRES; Loam's priority does
// not use the other flags.
func decodeBillingFlags(x *dec, c *Config) {
	c.BillingMaxTRES = false
	f, ok := x.get("PriorityFlags")
	if !ok {
		return
	}
	for flag := range strings.SplitSeq(f.Value, ",") {
		if strings.EqualFold(strings.TrimSpace(flag), "MAX_TRES") {
			c.BillingMaxTRES = true
		}
	}
}

// nodeTRES says whether MAX_TRES takes the largest of name rather than
// adding it: the TRES a node holds.
func nodeTRES(name string) bool {
	return name == "cpu" || name == "mem" || name == "node" || strings.HasPrefix(name, "gres/")
}

// Bill is the billing TRES of the counts count gives (memory in MB):
// the weighted sum, or with maxTRES the largest weighted node TRES plus
// the global ones, cut to a whole number; without weights, the CPUs.
func (w BillingWeights) Bill(count func(tres string) int64, maxTRES bool) int64 {
	if len(w.Weights) == 0 {
		return count("cpu")
	}
	var node, global float64
	for _, bw := range w.Weights {
		v := float64(count(bw.TRES)) * bw.Weight
		if maxTRES && nodeTRES(bw.TRES) {
			node = max(node, v)
			continue
		}
		global += v
	}
	return int64(node + global)
}
