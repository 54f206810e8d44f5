package slurmconf

import (
	"math"
	"strings"
	"sync"
	"time"
)

// slurmSchedOptions are SchedulerParameters options Slurm knows and Loam
// does not use; they warn as ignored rather than as unknown. Built on first
// use, like the key schemas, to keep the user commands' start-up cheap.
var slurmSchedOptions = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, o := range strings.Fields(`allow_zero_lic assoc_limit_stop batch_sched_delay
		bb_array_stage_cnt bf_busy_nodes bf_hetjob_immediate bf_hetjob_prio
		bf_ignore_newly_avail_nodes bf_job_part_count_reserve bf_licenses
		bf_max_job_array_resv bf_max_job_assoc bf_max_job_part bf_max_job_start
		bf_max_job_user bf_max_job_user_part bf_max_time bf_min_age_reserve
		bf_min_prio_reserve bf_node_space_size bf_one_resv_per_job
		bf_running_job_reserve bf_yield_interval bf_yield_sleep build_queue_timeout
		correspond_after_task_cnt default_gbytes defer defer_batch delay_boot
		depend_refresh_interval disable_hetjob_steps
		enable_hetjob_steps extra_constraints ignore_numa
		ignore_prefer_validation inventory_interval job_state_cache
		max_array_tasks max_depend_depth max_rpc_cnt max_sched_time
		max_script_size max_submit_line_size
		no_backup_scheduling no_env_cache nohold_on_prolog_fail
		pack_serial_at_end partition_job_depth permit_job_expansion
		preempt_reorder_count preempt_strict_order preempt_youngest_first
		reduce_completing_frag requeue_setup_env_fail salloc_wait_nodes
		sbatch_wait_nodes sched_max_job_start sched_min_interval spec_cores_first
		step_retry_count step_retry_time time_min_as_soft_limit
		whole_hetjob kill_invalid_depend`) {
		out[o] = true
	}
	return out
})

// schedulerParameters decodes SchedulerParameters: a comma-separated list of
// name or name=value options. Options Loam does not use warn.
func (x *dec) schedulerParameters(dst *SchedulerParameters) {
	f, ok := x.get("SchedulerParameters")
	if !ok {
		return
	}
	dst.Raw = f.Value
	for _, opt := range splitList(f.Value) {
		name, val, hasVal := strings.Cut(opt, "=")
		name = strings.ToLower(name)
		switch name {
		case "bf_continue":
			dst.BfContinue = true
			continue
		case "nohold_on_prolog_fail":
			dst.NoHoldOnPrologFail = true // nodeprolog.go
			continue
		case "sched_interval":
			x.schedSeconds(f, opt, val, &dst.SchedInterval, time.Second)
		case "bf_interval":
			x.schedSeconds(f, opt, val, &dst.BfInterval, time.Second)
		case "bf_resolution":
			x.schedSeconds(f, opt, val, &dst.BfResolution, time.Second)
		case "bf_window":
			x.schedSeconds(f, opt, val, &dst.BfWindow, time.Minute)
		case "bf_max_job_test":
			x.schedCount(f, opt, val, &dst.BfMaxJobTest)
		case "max_switch_wait":
			x.schedSeconds(f, opt, val, &dst.MaxSwitchWait, time.Second)
		case "default_queue_depth":
			x.schedCount(f, opt, val, &dst.DefaultQueueDepth)
		case "enable_user_top", "disable_job_shrink":
			continue // the controller reads these from Raw, as Slurm does
		default:
			if slurmSchedOptions()[name] {
				x.d.warnf(f.Pos, x.rec, f.Key, "option %q is not used by Loam, ignored", opt)
			} else {
				x.d.warnf(f.Pos, x.rec, f.Key, "unknown option %q, ignored", opt)
			}
			continue
		}
		if !hasVal {
			x.bad(f, "option %q needs a value", opt)
		}
	}
}

func (x *dec) schedCount(f field, opt, val string, dst *int64) {
	if val == "" {
		return
	}
	n, err := parseCount(val, math.MaxInt32)
	if err != nil {
		x.bad(f, "option %q: %v", opt, err)
		return
	}
	*dst = n
}

func (x *dec) schedSeconds(f field, opt, val string, dst *time.Duration, unit time.Duration) {
	var n int64 = -1
	x.schedCount(f, opt, val, &n)
	if n >= 0 {
		*dst = time.Duration(n) * unit
	}
}
