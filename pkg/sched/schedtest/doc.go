// Package schedtest helps test the scheduler and its callers: builders that
// produce valid jobs, nodes and configs
// (Job("j1").Nodes(2).GPUsPerNode(8).Limit("4h").Build()), a Harness that
// runs cycles, checks every plan with sched.CheckPlan and applies it to a
// small simulated cluster, a datadriven runner for scenario files
// (RunScenario, with a Scenario interpreter for their commands), random
// clusters for property tests (Random) and the benchmark cluster
// (BigCluster). It may use anything; the scheduler's purity rules do not
// apply to it.
package schedtest
