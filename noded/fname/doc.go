// Package fname expands the file name patterns of a job's --output,
// --error and --input files the way Slurm 22.05's slurmd does, as observed
// on the peer cluster (testdata/patterns.golden, captured by
// testdata/capture.sh):
//
//	%%  a percent sign          %j  job id          %J  job id[.step]
//	%A  array job id (%j when   %a  array task id (4294967294 when
//	    not an array)               not an array)
//	%N  batch host's host name  %n  node index      %t  task index
//	%s  step ("batch")          %u  user name       %x  job name
//
// A width between '%' and the letter zero-pads numbers ("%5j" is 00017),
// capped at 10 digits; names are never padded. An unknown letter keeps
// its '%' ("%q" stays "%q"), but after a width the '%' is dropped ("%3q" is
// "3q", "%4%" is "4%"). A pattern with a backslash anywhere is not
// expanded at all; its escaping backslashes are removed ("\%j" is "%j",
// "\\" is "\"). The rules themselves are package api's ExpandStdio,
// which scontrol shares; this package names the files on the node.
package fname
