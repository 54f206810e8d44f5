// Package trigger holds the controller's event triggers (strigger): it
// matches what changed on the nodes and jobs since the last pass against
// the triggers set, decides which fire and with which argument, and starts
// their programs as the trigger's user through a Runner.
//
// The matching (Set) is pure: the controller hands it a Snapshot of the
// nodes and the jobs triggers name at each pass, with the time, and gets
// back the programs to run. Events are edges between two snapshots, as
// Slurm's event bitmaps are set between two passes of its trigger manager.
package trigger
