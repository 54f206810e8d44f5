package job

import "testing"

// TestValidTresBind holds what the peer's slurmctld answered to
// "scontrol update JobId=N TresBind=SPEC" (0: taken, 1: "Invalid
// Trackable RESource (TRES) specification").
func TestValidTresBind(t *testing.T) {
	cases := map[string]bool{
		"": true, "gpu:closest": true, "gpu:none": true, "gpu:Closest": true, "gpu:n": true,
		"gpu:cxyz": true, "gpu:closest,foo": true, "gpu:verbose,closest": true, "gpu:VERBOSE,closest": true,
		"gpu:Verbose,c": true, "gpu:verbose,n": true, "gpu:closest;gpu:none": true, "gpu:closest;": true,
		";gpu:closest": true, "gpu:map_gpu:0,1": true, "gpu:map_gpu:": true, "gpu:map_gpu:1*2": true,
		"gpu:map_gpu:1*010": true, "gpu:map_gpu:*2": true, "gpu:map_gpu:1*": true, "gpu:map_gpu:,,1": true,
		"gpu:MAP_GPU:1": true, "gpu:mask_gpu:0x3,f": true, "gpu:mask_gpu:0x": true, "gpu:single:2": true,
		"gpu:single:x": true, "gpu:single:": true, "gpu:single:0x10": true, "gpu:single: 2": true,
		"gpu:single:-0": true,

		"bogus": false, "gpu:": false, "GPU:closest": false, "nic:closest": false, "gpu:verbose": false,
		"gpu:verbose,": false, "gpu:v,none": false, "gpu:quiet,none": false, "gpu:s": false,
		"gpu:map_gpu": false, "gpu:single": false, "gpu:map_gpu:a": false, "gpu:map_gpu:1*08": false,
		"gpu:map_gpu:1*2*3": false, "gpu:map_gpu:9223372036854775807": false, "gpu:mask_gpu:zz": false,
		"gpu:mask_gpu:0x0x3": false, "gpu:mask_gpu:1*a": false, "gpu:mask_gpu:0X3": false,
		"gpu:mask_gpu:ffffffffffffffff": false, "gpu:per_task:-1": false,
		"gpu:per_task:9223372036854775807": false,
	}
	for spec, want := range cases {
		if got := ValidTresBind(spec); got != want {
			t.Errorf("ValidTresBind(%q) = %v, want %v", spec, got, want)
		}
	}
}

// TestValidTresFreq holds the peer's answers to TresFreq=SPEC.
func TestValidTresFreq(t *testing.T) {
	cases := map[string]bool{
		"": true, "gpu:low": true, "gpu:medium": true, "gpu:high": true, "gpu:highm1": true, "gpu:450": true,
		"gpu:low,memory=high": true, "gpu:memory=450": true, "gpu:verbose": true, "gpu:low,verbose": true,
		"gpu:low;gpu:high": true, "gpu:low;": true, "gpu:,": true, "gpu:low,,high": true,
		"gpu:9223372036854775806": true, "gpu:1000000000000000000": true,

		"low": false, "gpu:bogus": false, "gpu:": false, "GPU:low": false, "gpu:Low": false, "gpu:-1": false,
		"gpu:+1": false, "gpu:1x": false, "gpu:memory=x": false, "gpu:mem=low": false, "gpu:memory=": false,
		"gpu:memory=verbose": false, "gpu:9223372036854775807": false, "gpu:low;nic:x": false,
	}
	for spec, want := range cases {
		if got := ValidTresFreq(spec); got != want {
			t.Errorf("ValidTresFreq(%q) = %v, want %v", spec, got, want)
		}
	}
}
